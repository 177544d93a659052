/// `synth:motor?frequency=140&whine=2500&balance=0.5`: an electric drive unit synthesized
/// live from its speed — not a loop, so it never repeats and follows the speed exactly.
///
/// - **Motor hum**: orders 1, 2, 3, 4, 6 and 8 of `frequency` × the layer's pitch ratio (the
///   motor's speed: a pitch map of the drive's speed), the first strongest (0.5, 0.2, 0.12,
///   0.08, 0.05, 0.025), each order's level wandering on its own (a seeded random walk
///   with a memory of about 3 s: ±10 % for one standard deviation on the first, which
///   carries most of the power, so the motor's level holds within a few tenths of a dB
///   whatever the seed; ±20 % on the second, ±30 % on the rest), so the hum breathes like
///   a motor under a changing load.
/// - **Inverter whine**: a tone at `whine` × the pitch ratio with a faint second harmonic,
///   `balance` × the hum's first order, its level wandering ±25 % more slowly.
/// - **Silent at a standstill**: every level is scaled by (pitch / 0.2)², up to 1 at a
///   pitch of 0.2: a parked motor makes no sound, and the tones fade in as it turns.
///
/// Mono (the same in both channels), at about the synth reference level (−15 dBFS RMS) at a
/// pitch of 0.2 or more. Real-time safe: a few multiplies and adds per sample (the orders by
/// Chebyshev's recurrence from one phase), seven noise draws every 64 samples; the state is
/// `MotorVoiceState` (the phases and the wander).
enum MotorSynth: SynthKind {
    static var name: String { "motor" }
    static var summary: String { "an electric motor synthesized live: hum orders of the motor's speed and an inverter whine, silent at rest" }
    static var options: [SynthOption] {
        [SynthOption("frequency", defaultValue: 140, unit: "Hz", maximum: 2000),
         SynthOption("whine", defaultValue: 2500, unit: "Hz"),
         SynthOption("balance", defaultValue: 0.5, unit: "×", maximum: 10)]
    }
    static var isSeeded: Bool { true }

    @inline(__always) static func start(_ synth: Synth) -> MotorVoiceState {
        MotorVoiceState(noise: NoiseGenerator(seed: synth.seed))
    }

    @inline(__always)
    static func render(_ voice: inout Voice, _ state: inout MotorVoiceState, _ synth: Synth,
                       into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                       _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        voice.renderMotor(&state, synth.values, into: bus, frameCount: frameCount, m, c)
    }
}

extension Synth {
    /// `synth:motor?…`: a live electric motor (see `MotorSynth`).
    public static func motor(frequency: Hertz = 140, whine: Hertz = 2500, balance: Double = 0.5, seed: UInt64 = 1) -> Synth {
        Synth(MotorSynth.self, frequency, whine, balance, seed: seed)
    }
}

/// The live motor's running state inside a voice (`MotorSynth.State`).
///
/// Thread: a plain value inside a voice. Render thread: safe.
struct MotorVoiceState: BitwiseCopyable {
    /// The wander's draws.
    var noise: NoiseGenerator
    /// The motor's and the whine's phases, in radians.
    var hum: Double = 0
    var whine: Double = 0
    /// The six hum orders' random walks, two to a field (orders 1–2, 3–4, 6–8), and the
    /// whine's.
    var wanderLow = SIMD2<Double>(), wanderMiddle = SIMD2<Double>(), wanderHigh = SIMD2<Double>()
    var wanderWhine: Double = 0
    /// Samples played, for the wander's steps every 64.
    var heard: Double = 0
}

extension Voice {
    /// The motor kernel. Render thread: safe.
    @inline(__always)
    mutating func renderMotor(_ state: inout MotorVoiceState, _ v: SIMD4<Double>, into bus: UnsafeMutablePointer<Float>,
                              frameCount: Int, _ m: Modulation, _ c: VoiceRenderContext) -> Int {
        let humStep = v[0] * c.radiansPerHertz, whineStep = v[1] * c.radiansPerHertz
        let balance = v[2]
        // The hum orders' levels (1, 2, 3, 4, 6, 8), scaled so hum and whine together sit
        // near the synth reference level.
        let level = Voice.motorLevel
        var e = state
        for i in 0..<frameCount {
            let pitch = max(0, m.pitch(i))
            if e.heard.truncatingRemainder(dividingBy: 64) == 0 {
                // The wander: each walk pulled back to 0 (a memory of some 3 s at 48 kHz, the
                // whine's 7 s), about ±1 (one standard deviation), held within ±2.
                let bound = SIMD2<Double>(repeating: 2)
                e.wanderLow = (0.9995 * e.wanderLow + 0.05 * SIMD2(Double(e.noise.nextUniform()), Double(e.noise.nextUniform())))
                    .clamped(lowerBound: -bound, upperBound: bound)
                e.wanderMiddle = (0.9995 * e.wanderMiddle + 0.05 * SIMD2(Double(e.noise.nextUniform()), Double(e.noise.nextUniform())))
                    .clamped(lowerBound: -bound, upperBound: bound)
                e.wanderHigh = (0.9995 * e.wanderHigh + 0.05 * SIMD2(Double(e.noise.nextUniform()), Double(e.noise.nextUniform())))
                    .clamped(lowerBound: -bound, upperBound: bound)
                e.wanderWhine = min(2, max(-2, 0.9998 * e.wanderWhine + 0.03 * Double(e.noise.nextUniform())))
            }
            e.heard += 1
            let turning = min(1, pitch * 5)
            let amplitude = level * turning * turning
            // sin(kφ) by the recurrence sin(kφ) = 2 cos φ sin((k−1)φ) − sin((k−2)φ).
            let s1 = Voice.sine(e.hum), twoCos = 2 * Voice.sine(Voice.wrap(e.hum + Double.pi / 2))
            let s2 = twoCos * s1, s3 = twoCos * s2 - s1, s4 = twoCos * s3 - s2
            let s5 = twoCos * s4 - s3, s6 = twoCos * s5 - s4, s7 = twoCos * s6 - s5, s8 = twoCos * s7 - s6
            let hum = 0.5 * (1 + 0.1 * e.wanderLow[0]) * s1 + 0.2 * (1 + 0.2 * e.wanderLow[1]) * s2
                + 0.12 * (1 + 0.3 * e.wanderMiddle[0]) * s3 + 0.08 * (1 + 0.3 * e.wanderMiddle[1]) * s4
                + 0.05 * (1 + 0.3 * e.wanderHigh[0]) * s6 + 0.025 * (1 + 0.3 * e.wanderHigh[1]) * s8
            let w = Voice.sine(e.whine)
            let whine = 0.5 * balance * (1 + 0.25 * e.wanderWhine) * (w + 0.15 * 2 * w * Voice.sine(Voice.wrap(e.whine + Double.pi / 2)))
            let x = Float(amplitude * (hum + whine))
            e.hum = Voice.wrap(e.hum + humStep * pitch)
            e.whine = Voice.wrap(e.whine + whineStep * pitch)
            // A voice whose fade-out ended is idle: its state is set again when it starts.
            if emit(x, x, at: i, into: bus, m) { return stop(at: i + 1) }
        }
        state = e
        return frameCount
    }

    /// The motor's overall scale: hum (its orders' RMS about 0.4) with a whine of balance 0.5
    /// at about the synth reference, −15 dBFS RMS.
    static var motorLevel: Double { 0.33 }
}
