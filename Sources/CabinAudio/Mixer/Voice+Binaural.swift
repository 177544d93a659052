/// `synth:binaural?carrier=200&beat=10`: binaural beats — a sine at `carrier − beat/2` on
/// the left and `carrier + beat/2` on the right, each at the synth reference level; a
/// layer's pitch map moves both.
enum BinauralSynth: SynthKind {
    static var name: String { "binaural" }
    static var summary: String { "left `carrier − beat/2`, right `carrier + beat/2`" }
    static var options: [SynthOption] {
        [SynthOption("carrier", defaultValue: 200, unit: "Hz"),
         SynthOption("beat", defaultValue: 10, unit: "Hz", mustBeBelow: "carrier")]
    }

    @inline(__always) static func start(_ synth: Synth) -> OscillatorPhases { OscillatorPhases() }

    @inline(__always)
    static func render(_ voice: inout Voice, _ phases: inout OscillatorPhases, _ synth: Synth,
                       into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                       _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        voice.renderBinaural(&phases, carrier: synth.values[0], beat: synth.values[1], into: bus,
                             frameCount: frameCount, m, c)
    }
}

extension Synth {
    /// `synth:binaural?carrier=C&beat=B`: binaural beats, `beat` Hz apart around `carrier` Hz.
    public static func binaural(carrier: Hertz = 200, beat: Hertz = 10) -> Synth {
        Synth(BinauralSynth.self, carrier, beat)
    }
}

extension Voice {
    /// The binaural kernel: two phases, one per channel, moved by the same pitch ratio.
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func renderBinaural(_ phases: inout OscillatorPhases, carrier: Hertz, beat: Hertz,
                                 into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                                 _ m: Modulation, _ c: VoiceRenderContext) -> Int {
        let stepLeft = (carrier - beat / 2) * c.radiansPerHertz
        let stepRight = (carrier + beat / 2) * c.radiansPerHertz
        for i in 0..<frameCount {
            let left = Float(Voice.sineAmplitude * Voice.sine(phases.left))
            let right = Float(Voice.sineAmplitude * Voice.sine(phases.right))
            let ratio = m.pitch(i)
            phases.left = Voice.wrap(phases.left + stepLeft * ratio)
            phases.right = Voice.wrap(phases.right + stepRight * ratio)
            if emit(left, right, at: i, into: bus, m) { return stop(at: i + 1) }
        }
        return frameCount
    }
}
