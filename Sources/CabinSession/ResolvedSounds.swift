import CabinAudio

/// A sound ready for the mixer: decoded, at the session's rate, with its loudness trim
/// and loop points.
public struct LoadedSound: Sendable, Equatable {
    public var buffer: AudioBuffer
    /// Loudness trim in dB (0 when the layer says `normalize: false` or the sound is not
    /// from the library).
    public var trim: Double
    /// Loop region in frames of `buffer`, if the library gives one.
    public var loopStart: Int?
    public var loopEnd: Int?

    public init(buffer: AudioBuffer, trim: Double = 0, loopStart: Int? = nil, loopEnd: Int? = nil) {
        self.buffer = buffer
        self.trim = trim
        self.loopStart = loopStart
        self.loopEnd = loopEnd
    }
}

/// The sounds a session needs, loaded by the edge (`CabinIO`), plus what could not be.
///
/// A sound that failed to load stops the layers and cues that use it, not the session.
public struct ResolvedSounds: Sendable {
    /// Loaded sounds by reference (library names and file paths; synthesizers need none).
    public var sounds: [String: LoadedSound] = [:]
    /// One line per sound that could not be loaded, keyed by reference.
    public var failures: [String: String] = [:]

    public init(sounds: [String: LoadedSound] = [:], failures: [String: String] = [:]) {
        self.sounds = sounds
        self.failures = failures
    }

    public subscript(reference: SoundReference) -> LoadedSound? { sounds[reference.description] }
}

extension SessionDocument {
    /// Every sound the document refers to that must be loaded from a file (library or
    /// path), each once, in document order.
    public var soundsToLoad: [SoundReference] {
        var seen = Set<String>()
        var out: [SoundReference] = []
        func add(_ r: SoundReference) {
            if case .synth = r { return }
            if seen.insert(r.description).inserted { out.append(r) }
        }
        for layer in layers { add(layer.sound) }
        for cue in cues {
            if let play = cue.play { add(play.sound) }
            if let crossfade = cue.crossfade { add(crossfade.to) }
            if let fallback = cue.say?.fallback { add(fallback) }
        }
        return out
    }

    /// Every distinct utterance of `say` cues, to synthesize at load time.
    public var speechToSynthesize: [Cue.Speech] {
        var seen = Set<String>()
        return cues.compactMap(\.say).filter { seen.insert($0.soundKey).inserted }
    }
}
