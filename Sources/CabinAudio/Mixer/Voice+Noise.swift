/// The noise kinds: `synth:white-noise`, `synth:pink-noise`, `synth:brown-noise`.
///
/// Each is seeded (the session compiler seeds it from the layer's or cue's position, so a
/// document always renders the same samples) and levelled to `SoundSource.synthReferenceRMS`
/// by `NoiseGenerator`.

/// A seeded noise kind: its state is a generator seeded at the start, and `next` draws one
/// sample from it; the kernel (`renderNoise`) is shared.
protocol NoiseSynthKind: SynthKind where State == NoiseGenerator {
    static func next(_ generator: inout NoiseGenerator, _ c: VoiceRenderContext) -> Float
}

extension NoiseSynthKind {
    static var isSeeded: Bool { true }

    @inline(__always) static func start(_ synth: Synth) -> NoiseGenerator { NoiseGenerator(seed: synth.seed) }

    @inline(__always)
    static func render(_ voice: inout Voice, _ noise: inout NoiseGenerator, _ synth: Synth,
                       into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                       _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        voice.renderNoise(&noise, into: bus, frameCount: frameCount, m) { next(&$0, c) }
    }
}

/// Uniform white noise from a seeded PRNG.
enum WhiteNoiseSynth: NoiseSynthKind {
    static var name: String { "white-noise" }
    static var summary: String { "uniform white noise" }
    @inline(__always) static func next(_ g: inout NoiseGenerator, _ c: VoiceRenderContext) -> Float { g.nextWhite() }
}

/// Pink (−3 dB/octave) noise: white noise through Paul Kellet's refined pinking filter.
enum PinkNoiseSynth: NoiseSynthKind {
    static var name: String { "pink-noise" }
    static var summary: String { "−3 dB/octave (Kellet's filter)" }
    @inline(__always) static func next(_ g: inout NoiseGenerator, _ c: VoiceRenderContext) -> Float { g.nextPink() }
}

/// Brown (−6 dB/octave) noise: leaky-integrated white noise, level-normalised.
enum BrownNoiseSynth: NoiseSynthKind {
    static var name: String { "brown-noise" }
    static var summary: String { "−6 dB/octave" }
    @inline(__always) static func next(_ g: inout NoiseGenerator, _ c: VoiceRenderContext) -> Float { g.nextBrown(c.brown) }
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
    /// The noise kernel: `next` draws one sample from `noise`, the voice's generator.
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func renderNoise(_ noise: inout NoiseGenerator, into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                              _ m: Modulation, _ next: (inout NoiseGenerator) -> Float) -> Int {
        if m.hasFixedGain {
            Voice.renderFixedNoise(&noise, into: bus, frameCount: frameCount, gain: m.fixedGain, next)
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
    private static func renderFixedNoise(_ noise: inout NoiseGenerator, into bus: UnsafeMutablePointer<Float>,
                                         frameCount: Int, gain g: Float, _ next: (inout NoiseGenerator) -> Float) {
        var generator = noise
        for i in 0..<frameCount {
            let x = next(&generator)
            bus[2 * i] += x * g
            bus[2 * i + 1] += x * g
        }
        noise = generator
    }
}
