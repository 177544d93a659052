import CabinAudio
import CabinIO
import CabinSession

/// The integrated loudness of the synthesized sources a session plays, measured with
/// libebur128 on a few seconds of each rendered by the mixer: what the loudness estimate
/// (`SessionLoudness`) counts for them. Deterministic (noises play from a fixed seed), so
/// each figure is kept between runs in the speech cache (`SpeechCache`).
///
/// Thread: control thread only (allocates).
enum SynthLoudness {
    /// Seconds rendered per source (the slowest kind, brown noise, settles within 2 s).
    static let measuredDuration = 6.0

    /// Loudness by document text (`synth:binaural?carrier=180&beat=6`) for every synth a
    /// layer or a crossfade of `document` names.
    static func measure(_ document: SessionDocument, sampleRate: Double) -> [String: Double] {
        var synths: [String: Synth] = [:]
        for layer in document.layers { if case .synth(let s) = layer.sound { synths[s.documentText] = s } }
        for cue in document.cues { if case .synth(let s)? = cue.crossfade?.to { synths[s.documentText] = s } }
        var out: [String: Double] = [:]
        let cache = synths.isEmpty ? nil : SpeechCache.standard()
        for (text, synth) in synths {
            // Kept between runs: the same figure a measurement gives (same build, text, rate).
            let key = SpeechCache.key(synthLoudness: text, sampleRate: sampleRate)
            if let kept = cache?.entry(forKey: key)?.loudness {
                out[text] = kept
            } else if let lufs = measure(synth, sampleRate: sampleRate) {
                out[text] = lufs
                cache?.store(.init(samples: [], channelCount: 1, loudness: lufs), forKey: key)
            }
        }
        return out
    }

    /// One source's loudness at 0 dB, or nil if it cannot be measured.
    static func measure(_ synth: Synth, sampleRate: Double) -> Double? {
        var config = MixerConfig(sampleRate: sampleRate, maxBlockFrames: 4096, buses: [BusConfig(name: "measure", gain: 0)])
        config.isLimiterEnabled = false
        let layer = config.addLayer(LayerConfig(name: "measure", bus: BusID(index: 0), source: .synth(synth.seeded(1)),
                                                isLooping: true))
        let (mixer, handle) = config.make()
        guard handle.send(.startLayer(layer, fadeInFrames: 0), at: 0) else { return nil }
        let frames = Int(measuredDuration * sampleRate)
        var samples = [Float](repeating: 0, count: 2 * frames)
        samples.withUnsafeMutableBufferPointer { mixer.render(into: $0, frameCount: frames) }
        let buffer = AudioBuffer(samples: samples, channelCount: 2, sampleRate: sampleRate)
        return (try? LoudnessMeter.measure(buffer))?.integrated
    }
}
