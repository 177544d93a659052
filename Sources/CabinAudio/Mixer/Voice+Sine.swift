/// `synth:sine?frequency=440`: a sine tone, the same in both channels, at the synth
/// reference level; a layer's pitch map moves its frequency.
enum SineSynth: SynthKind {
    static var name: String { "sine" }
    static var summary: String { "a sine in both channels" }
    static var options: [SynthOption] { [SynthOption("frequency", defaultValue: 440, unit: "Hz")] }

    @inline(__always) static func start(_ synth: Synth) -> OscillatorPhases { OscillatorPhases() }

    @inline(__always)
    static func render(_ voice: inout Voice, _ phases: inout OscillatorPhases, _ synth: Synth,
                       into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                       _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        voice.renderSine(&phases.left, frequency: synth.values[0], into: bus, frameCount: frameCount, m, c)
    }
}

extension Synth {
    /// `synth:sine?frequency=F`: a sine at `frequency` Hz in both channels.
    public static func sine(frequency: Hertz = 440) -> Synth { Synth(SineSynth.self, frequency) }
}

/// The running state of the oscillator kinds (`sine`, `binaural`, `isochronic`): two phases
/// in radians, from 0 at the start (the sine uses the left one).
struct OscillatorPhases: BitwiseCopyable {
    var left: Double = 0
    var right: Double = 0
}

extension Voice {
    /// The sine kernel: the phase advances by `frequency` × the pitch ratio per frame.
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func renderSine(_ phase: inout Double, frequency: Hertz, into bus: UnsafeMutablePointer<Float>,
                             frameCount: Int, _ m: Modulation, _ c: VoiceRenderContext) -> Int {
        let step = frequency * c.radiansPerHertz
        for i in 0..<frameCount {
            let x = Float(Voice.sineAmplitude * Voice.sine(phase))
            phase = Voice.wrap(phase + step * m.pitch(i))
            if emit(x, x, at: i, into: bus, m) { return stop(at: i + 1) }
        }
        return frameCount
    }

    /// Sine amplitude for the synth reference RMS (RMS·√2).
    static var sineAmplitude: Double { 0.25148668593658708 }

    /// `phase` brought back below 2π.
    @inline(__always)
    static func wrap(_ phase: Double) -> Double {
        // One subtraction is all a step below 2π needs (every document's tone: at most
        // 20 kHz); a step past it (a pitch map pushed far up) takes the remainder, so the
        // time per sample stays bounded whatever the numbers.
        var p = phase
        if p >= 2 * Double.pi { p -= 2 * Double.pi }
        if p >= 2 * Double.pi { p = p.truncatingRemainder(dividingBy: 2 * Double.pi) }
        return p
    }

    @inline(__always)
    static func sine(_ phase: Double) -> Double { MixerMath.sine(phase) }
}
