import CabinAudio

/// A sound ready for the mixer: decoded (or still decoding), at the session's rate, with
/// its loudness trim and loop points.
public struct LoadedSound: Sendable, Equatable {
    /// The samples, held once; the mixer plays them without copying.
    public var samples: SampleStorage
    /// Loudness trim in dB (0 when the layer says `normalize: false` or the sound is not
    /// from the library).
    public var trim: Double
    /// The sound's integrated loudness in LUFS as measured, before `trim` (nil: unknown).
    public var loudness: Double?
    /// Loop region in frames of `samples`, if the library gives one: its first frame.
    public var loopStart: Int?
    /// One past the loop region's last frame (nil: no loop region).
    public var loopEnd: Int?

    /// A sound of `samples` with its trim (dB), loop region (frames) and measured loudness
    /// (LUFS).
    public init(samples: SampleStorage, trim: Double = 0, loopStart: Int? = nil, loopEnd: Int? = nil,
                loudness: Double? = nil) {
        self.samples = samples
        self.trim = trim
        self.loudness = loudness
        self.loopStart = loopStart
        self.loopEnd = loopEnd
    }

    /// A sound holding a copy of `buffer` (as floats).
    public init(buffer: AudioBuffer, trim: Double = 0, loopStart: Int? = nil, loopEnd: Int? = nil, loudness: Double? = nil) {
        self.init(samples: SampleStorage(buffer), trim: trim, loopStart: loopStart, loopEnd: loopEnd, loudness: loudness)
    }

    /// The samples loaded so far, as a buffer (a copy; for analysis and tests).
    public var buffer: AudioBuffer { samples.audioBuffer }

    /// Frames in the sound.
    public var frameCount: Int { samples.frameCount }

    /// Whether both hold the same storage (the same object, not equal samples) with the
    /// same trim, loudness and loop region.
    public static func == (a: LoadedSound, b: LoadedSound) -> Bool {
        a.samples === b.samples && a.trim == b.trim && a.loudness == b.loudness && a.loopStart == b.loopStart && a.loopEnd == b.loopEnd
    }
}

/// The sounds a session needs, loaded by `CabinPlayback` (decoded by the edge, `CabinIO`), plus what could not be.
///
/// A sound that failed to load stops the layers and cues that use it, not the session.
public struct ResolvedSounds: Sendable {
    /// Loaded sounds by reference (library names and file paths; synthesizers need none).
    public var sounds: [String: LoadedSound] = [:]
    /// One line per sound that could not be loaded, keyed by reference.
    public var failures: [String: String] = [:]
    /// Loudness (LUFS) of the synthesized sources the session plays, by their document
    /// text (`synth:pink-noise`), as the loader measured them; the loudness estimate uses
    /// `SessionLoudness.nominalSynthLoudness` for any not listed.
    public var synthLoudness: [String: Double] = [:]
    /// The loudness library sounds are trimmed to (the manifest's `referenceLoudness`).
    public var referenceLoudness = -23.0

    /// The loaded `sounds` and the `failures`, both keyed by the reference's text
    /// (`SoundReference.description`) or a spoken cue's `Cue.Speech.soundKey`.
    public init(sounds: [String: LoadedSound] = [:], failures: [String: String] = [:]) {
        self.sounds = sounds
        self.failures = failures
    }

    /// The loaded sound for `reference` (nil: not loaded, or a source that needs no file).
    public subscript(reference: SoundReference) -> LoadedSound? { sounds[reference.description] }
}

extension SessionDocument {
    /// Every sound the document refers to that must be loaded from a file (library or
    /// path), each once, in document order.
    public var soundsToLoad: [SoundReference] {
        var seen = Set<String>()
        var out: [SoundReference] = []
        func add(_ r: SoundReference) {
            switch r {
            case .synth, .station, .playlist, .generated: return  // made or streamed while playing
            case .library, .file: break
            }
            if seen.insert(r.description).inserted { out.append(r) }
        }
        for layer in layers {
            add(layer.sound)
            for s in layer.scatter?.sounds ?? [] { add(s) }
        }
        for cue in cues {
            if let play = cue.play { add(play.sound) }
            if let crossfade = cue.crossfade { add(crossfade.to) }
            if let fallback = cue.say?.fallback { add(fallback) }
        }
        if let sound = focus?.sound { add(sound) }
        return out
    }

    /// The sounds of `soundsToLoad` that nothing plays before `time` (seconds on the
    /// session's clock): those only one-shot cues (`play`, a `say`'s fallback) use, and only
    /// after `time`. A live player starting at 0 can decode them after it starts. A sound a
    /// layer, a scatter, a crossfade or the focus warning uses is never among them (those
    /// may sound at any moment: a layer from its start, the warning at a key press).
    public func soundsFirstHeard(after time: Double) -> Set<String> {
        var later = Set<String>(), early = Set<String>()
        for layer in layers {
            early.insert(layer.sound.description)
            for s in layer.scatter?.sounds ?? [] { early.insert(s.description) }
        }
        if let sound = focus?.sound { early.insert(sound.description) }
        for cue in cues {
            if let crossfade = cue.crossfade { early.insert(crossfade.to.description) }
            for sound in [cue.play?.sound, cue.say?.fallback].compactMap({ $0 }) {
                if cue.time > time { later.insert(sound.description) } else { early.insert(sound.description) }
            }
        }
        return later.subtracting(early)
    }

    /// The live streams (`http(s)://` sounds) of layers and cues, each once, in document order.
    public var stations: [String] {
        var seen = Set<String>()
        var urls: [String] = []
        let sounds = layers.map(\.sound) + cues.compactMap { $0.play?.sound } + cues.compactMap { $0.crossfade?.to }
        for case .station(let url) in sounds where seen.insert(url).inserted { urls.append(url) }
        return urls
    }

    /// The document with every live stream replaced by `fallback` (an offline render of a
    /// session that plays a station: `cabin render --radio-fallback radio/lofi`).
    public func replacingStations(with fallback: SoundReference) -> SessionDocument {
        var copy = self
        for i in copy.layers.indices where copy.layers[i].sound.isLive { copy.layers[i].sound = fallback }
        for i in copy.cues.indices {
            if copy.cues[i].play?.sound.isLive == true { copy.cues[i].play?.sound = fallback }
            if copy.cues[i].crossfade?.to.isLive == true { copy.cues[i].crossfade?.to = fallback }
        }
        return copy
    }

    /// Every distinct utterance of `say` cues, to synthesize at load time.
    public var speechToSynthesize: [Cue.Speech] {
        var seen = Set<String>()
        return cues.compactMap(\.say).filter { seen.insert($0.soundKey).inserted }
    }
}
