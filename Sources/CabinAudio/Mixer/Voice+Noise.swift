/// The noise kinds: `synth:white-noise`, `synth:pink-noise`, `synth:brown-noise`.
///
/// Each is seeded (the session compiler seeds it from the layer's or cue's position, so a
/// document always renders the same samples) and levelled to `SoundSource.synthReferenceRMS`
/// by `NoiseGenerator`.

/// Uniform white noise from a seeded PRNG.
enum WhiteNoiseSynth: SynthKind {
    static var name: String { "white-noise" }
    static var summary: String { "uniform white noise" }
    static var isSeeded: Bool { true }

    @inline(__always) static func start(_ voice: inout Voice, _ synth: Synth) { voice.startNoise(synth) }

    @inline(__always)
    static func render(_ voice: inout Voice, _ synth: Synth, into bus: UnsafeMutablePointer<Float>,
                       frameCount: Int, _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        voice.renderNoise(into: bus, frameCount: frameCount, m) { $0.nextWhite() }
    }
}

/// Pink (−3 dB/octave) noise: white noise through Paul Kellet's refined pinking filter.
enum PinkNoiseSynth: SynthKind {
    static var name: String { "pink-noise" }
    static var summary: String { "−3 dB/octave (Kellet's filter)" }
    static var isSeeded: Bool { true }

    @inline(__always) static func start(_ voice: inout Voice, _ synth: Synth) { voice.startNoise(synth) }

    @inline(__always)
    static func render(_ voice: inout Voice, _ synth: Synth, into bus: UnsafeMutablePointer<Float>,
                       frameCount: Int, _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        voice.renderNoise(into: bus, frameCount: frameCount, m) { $0.nextPink() }
    }
}

/// Brown (−6 dB/octave) noise: leaky-integrated white noise, level-normalised.
enum BrownNoiseSynth: SynthKind {
    static var name: String { "brown-noise" }
    static var summary: String { "−6 dB/octave" }
    static var isSeeded: Bool { true }

    @inline(__always) static func start(_ voice: inout Voice, _ synth: Synth) { voice.startNoise(synth) }

    @inline(__always)
    static func render(_ voice: inout Voice, _ synth: Synth, into bus: UnsafeMutablePointer<Float>,
                       frameCount: Int, _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        let brown = c.brown
        return voice.renderNoise(into: bus, frameCount: frameCount, m) { $0.nextBrown(brown) }
    }
}

extension Synth {
    /// `synth:white-noise`: uniform white noise.
    public static func whiteNoise(seed: UInt64 = 1) -> Synth { Synth(WhiteNoiseSynth.self, seed: seed) }

    /// `synth:pink-noise`: −3 dB/octave noise.
    public static func pinkNoise(seed: UInt64 = 1) -> Synth { Synth(PinkNoiseSynth.self, seed: seed) }

    /// `synth:brown-noise`: −6 dB/octave noise.
    public static func brownNoise(seed: UInt64 = 1) -> Synth { Synth(BrownNoiseSynth.self, seed: seed) }
}

extension Voice {
    /// Seeds the voice's noise generator. Render thread: safe.
    @inline(__always)
    mutating func startNoise(_ synth: Synth) {
        noise = NoiseGenerator(seed: synth.seed)
    }

    /// The noise kernel: `next` draws one sample from the voice's generator.
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func renderNoise(into bus: UnsafeMutablePointer<Float>, frameCount: Int, _ m: Modulation,
                              _ next: (inout NoiseGenerator) -> Float) -> Int {
        if m.hasFixedGain {
            renderFixedNoise(into: bus, frameCount: frameCount, gain: m.fixedGain, next)
            return frameCount
        }
        for i in 0..<frameCount {
            let x = next(&noise)
            if emit(x, x, at: i, into: bus, m) { return stop(at: i + 1) }
        }
        return frameCount
    }

    /// A noise source with a fixed gain: the generator kept in registers for the call.
    @inline(__always)
    private mutating func renderFixedNoise(into bus: UnsafeMutablePointer<Float>, frameCount: Int, gain g: Float,
                                           _ next: (inout NoiseGenerator) -> Float) {
        var generator = noise
        for i in 0..<frameCount {
            let x = next(&generator)
            bus[2 * i] += x * g
            bus[2 * i + 1] += x * g
        }
        noise = generator
    }
}
