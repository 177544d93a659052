/// `synth:isochronic?carrier=200&rate=10`: isochronic tones — a sine at `carrier` Hz in
/// both channels, pulsed `rate` times a second with smooth sin² pulses (no clicks), at the
/// synth reference level. The focus apps' alternative to binaural beats that needs no
/// headphones. A layer's pitch map moves the carrier; the pulse rate stays.
enum IsochronicSynth: SynthKind {
    static var name: String { "isochronic" }
    static var summary: String { "a sine at `carrier` pulsed `rate` times a second" }
    static var options: [SynthOption] {
        [SynthOption("carrier", defaultValue: 200, unit: "Hz"),
         SynthOption("rate", defaultValue: 10, unit: "Hz", mustBeBelow: "carrier")]
    }

    @inline(__always) static func start(_ synth: Synth) -> OscillatorPhases { OscillatorPhases() }

    @inline(__always)
    static func render(_ voice: inout Voice, _ phases: inout OscillatorPhases, _ synth: Synth,
                       into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                       _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        voice.renderIsochronic(&phases, carrier: synth.values[0], rate: synth.values[1], into: bus,
                               frameCount: frameCount, m, c)
    }
}

extension Synth {
    /// `synth:isochronic?carrier=C&rate=R`: a `carrier` Hz sine pulsed `rate` times a second.
    public static func isochronic(carrier: Hertz = 200, rate: Hertz = 10) -> Synth {
        Synth(IsochronicSynth.self, carrier, rate)
    }
}

extension Voice {
    /// The isochronic kernel: the tone's phase in `phases.left`, the pulse's in `phases.right`
    /// (at half the rate: sin² repeats every π).
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func renderIsochronic(_ phases: inout OscillatorPhases, carrier: Hertz, rate: Hertz,
                                   into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                                   _ m: Modulation, _ c: VoiceRenderContext) -> Int {
        let step = carrier * c.radiansPerHertz
        let pulseStep = rate * c.radiansPerHertz / 2
        for i in 0..<frameCount {
            let pulse = Voice.sine(phases.right)
            let x = Float(Voice.isochronicAmplitude * pulse * pulse * Voice.sine(phases.left))
            phases.left = Voice.wrap(phases.left + step * m.pitch(i))
            phases.right = Voice.wrap(phases.right + pulseStep)
            if emit(x, x, at: i, into: bus, m) { return stop(at: i + 1) }
        }
        return frameCount
    }

    /// The sine amplitude for the reference RMS under sin² pulses (mean of sin⁴ = 3/8):
    /// `sineAmplitude / √(3/8)`.
    static var isochronicAmplitude: Double { 0.4106760384321364 }
}
