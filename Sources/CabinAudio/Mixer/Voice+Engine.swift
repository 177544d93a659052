/// `synth:engine?cylinders=6&rpm=2300&exhaust=130&rasp=1`: a combustion engine synthesized
/// live, sample by sample, from its rpm and load — not a recording repitched.
///
/// - **Firing**: `cylinders` firings per two revolutions, so the firing rate (the
///   fundamental) is rpm/60 × cylinders/2. The rpm is `rpm` × the layer's pitch ratio, so a
///   pitch map of a parameter (the drive's speed through its gears) drives it. Each firing
///   is an exhaust pulse (a fast rise and an exponential decay, placed to the sub-sample)
///   whose strength is its cylinder's own (fixed, ±17 %) times a per-firing draw (±12 %), and
///   whose interval is jittered by ±3 %, and the crankshaft's speed wobbles by about ±0.5 %
///   (a random walk with a memory of some 35 firings): seeded, so the same seed plays the
///   same engine, and never the same cycle twice — two stretches at one rpm do not line up.
/// - **A cross-plane V8** (`cylinders=8`, firing order 1-8-4-3-6-5-7-2, odd cylinders on the
///   left bank): each bank's exhaust takes its pulses unevenly (90°, 180° or 270° after the
///   bank's last one), so a pulse that follows its bank's last by 90° is weaker (×0.5) and
///   one after 270° stronger (×1.45); the left bank's pulses are 20 % stronger than the
///   right's (its pipes are not the right's), and the right bank's arrive 0.2 of a firing
///   interval later (a longer pipe). The cycle then repeats every two revolutions, not every
///   firing: the burble, strong components at every half and whole crank order (within
///   about 3–12 dB of the firing order at cruise, `scripts/engine-spectra --vehicle v8`).
/// - **Fixed resonances**: the pulses excite an exhaust resonance at `exhaust` Hz and its
///   second mode (2.3×), a body boom (0.36×) and, through noise gated by each firing, an
///   intake/rasp band (4.5×, its level `rasp`); the pulses' falling edges ring a broad
///   exhaust-rasp band (6×, Q 0.7), so the harmonics fall about 1–2 dB each up to the
///   eighth instead of leaving one low tone (11–18 % of the power above 500 Hz at cruise).
///   Their centres do not move with the rpm: as the firing rate climbs, its harmonics slide
///   under a fixed spectral envelope, as in a car.
/// - **Load**: the layer's level relative to its configured gain (a `fade`) is its throttle:
///   +3 dB is full load (sharper pulses, more rasp — brighter), −3 dB coasting (softer,
///   duller); 0 dB holding a speed. The level change itself is the fade's.
/// - **Level**: each pulse is scaled by (rpm at pitch 1 / rpm)^0.78 (roughly level at every
///   rpm), then a soft saturation and a 30 Hz DC blocker; then a level follower holds the
///   output at the synth reference level (−15 dBFS RMS) whatever the rpm and load: the
///   harmonics pass through fixed resonances, so without it the level rises and falls by a dB
///   or two as a harmonic meets a resonance (a drive's idle came out 13.6 dB under cruise
///   where the gain map says 12.9, and the bus dipped 1.1 dB through a gear). The follower
///   is the running mean of the output's power over 0.5 s (a plain mean from a prior of the
///   target over the first 0.5 s, so a voice started mid-drive settles within a few
///   firings), its gain (within ±12 dB) set at each firing: slow beside a firing (a four
///   idling at 28 Hz has 14 firings in its memory). So a layer's gain map and fades alone set
///   the level against speed and load; the load still changes the colour.
///
/// Mono (the same in both channels). Real-time safe: a few multiplies and adds per sample, a
/// noise draw, and an `exp` and a `log` per firing; the state is `EngineVoiceState`.
enum EngineSynth: SynthKind {
    static var name: String { "engine" }
    static var summary: String { "a combustion engine synthesized live: firings at rpm/60 × cylinders/2 through fixed exhaust, body and intake resonances" }
    static var options: [SynthOption] {
        [SynthOption("cylinders", defaultValue: 6, unit: "cylinders", maximum: 16),
         SynthOption("rpm", defaultValue: 1000, unit: "rpm", maximum: 12_000),
         SynthOption("exhaust", defaultValue: 130, unit: "Hz", maximum: 2000),
         SynthOption("rasp", defaultValue: 1, unit: "×", maximum: 10)]
    }
    static var isSeeded: Bool { true }

    @inline(__always) static func start(_ synth: Synth) -> EngineVoiceState {
        var state = EngineVoiceState()
        state.noise = NoiseGenerator(seed: synth.seed)
        state.seed = synth.seed
        state.power = Voice.engineTarget * Voice.engineTarget
        // The first firing half an interval in.
        state.phase = 0.5
        return state
    }

    @inline(__always)
    static func render(_ voice: inout Voice, _ state: inout EngineVoiceState, _ synth: Synth,
                       into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                       _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int {
        voice.renderEngine(&state, synth.values, into: bus, frameCount: frameCount, m, c)
    }
}

extension Synth {
    /// `synth:engine?…`: a live combustion engine (see `EngineSynth`).
    public static func engine(cylinders: Int = 6, rpm: Double = 1000, exhaust: Hertz = 130, rasp: Double = 1,
                              seed: UInt64 = 1) -> Synth {
        Synth(EngineSynth.self, Double(cylinders), rpm, exhaust, rasp, seed: seed)
    }
}

/// The live engine's running state inside a voice (`EngineSynth.State`).
///
/// Thread: a plain value inside a voice. Render thread: safe.
struct EngineVoiceState: BitwiseCopyable {
    /// The draws for each firing's strength, interval and wobble, and the intake noise.
    var noise = NoiseGenerator(seed: 0)
    /// Where the engine is between two firings, 0…1 (a firing when it passes 1).
    var phase: Double = 0
    var seed: UInt64 = 0
    /// The cylinder that fires next.
    var cylinder: Int32 = 0
    /// This firing interval's length against the mean (jitter).
    var interval: Double = 1
    /// The crankshaft's speed wobble (a random walk held near 0, about ±0.5 % with a memory
    /// of some 35 firings, updated on each firing): two stretches at the same rpm never line
    /// up for long.
    var drift: Double = 0
    /// The pulse's two decays (pulse = slow − fast) and the burst envelope gating the noise.
    var slow: Double = 0, fast: Double = 0, burst: Double = 0
    /// Filter states: the direct low-pass, four resonators (transposed direct form II), the
    /// DC blocker.
    var direct: Double = 0
    var exhaust = SIMD2<Double>(), second = SIMD2<Double>(), body = SIMD2<Double>(), intake = SIMD2<Double>()
    /// The exhaust-rasp resonator (rung by the pulses' edges) and the last pulse value.
    var rasp = SIMD2<Double>()
    var lastPulse: Double = 0
    var dcIn: Double = 0, dcOut: Double = 0
    /// The level follower: the output's mean square (seeded with the target's, a prior of
    /// `Voice.engineFollowerPrior` seconds, then a running mean over
    /// `Voice.engineFollowerTime`), and the samples it has seen.
    var power: Double = 0
    var heard: Double = 0
    /// The follower's gain, set at each firing.
    var gain: Double = 1
}

extension Voice {
    /// A band-pass resonator's coefficients (RBJ, 0 dB at the centre): (b0, a1, a2).
    @inline(__always)
    static func resonator(_ frequency: Double, q: Double, sampleRate: Double) -> SIMD3<Double> {
        let w = min(frequency, 0.45 * sampleRate) * 2 * Double.pi / sampleRate
        let alpha = MixerMath.sine(w) / (2 * q)
        let cosine = MixerMath.sine(w + Double.pi / 2)
        let a0 = 1 + alpha
        return SIMD3(alpha / a0, -2 * cosine / a0, (1 - alpha) / a0)
    }

    /// One sample through a band-pass resonator (b1 = 0, b2 = −b0).
    @inline(__always)
    static func resonate(_ x: Double, _ k: SIMD3<Double>, _ z: inout SIMD2<Double>) -> Double {
        let y = k[0] * x + z[0]
        z[0] = -k[1] * y + z[1]
        z[1] = -k[0] * x - k[2] * y
        return y
    }

    /// A cylinder's own strength: 1 ± 17 %, fixed by the seed.
    @inline(__always)
    static func cylinderGain(_ seed: UInt64, _ cylinder: Int32) -> Double {
        var z = seed &+ UInt64(cylinder + 1) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let u = Double(Int32(truncatingIfNeeded: z >> 32)) * (1 / 2_147_483_648.0)
        return 1 + 0.17 * u
    }

    /// A cross-plane V8's firing slot (0…7 in firing order 1-8-4-3-6-5-7-2): whether its
    /// cylinder is on the right bank (2, 4, 6, 8: slots 1, 2, 4 and 7).
    @inline(__always)
    static func rightBank(_ slot: Int32) -> Bool { (0x96 >> slot) & 1 == 1 }

    /// A cross-plane V8's pulse strength at `slot`: by the gap since its bank's last pulse
    /// (1, 2 or 3 firing intervals: ×0.5, ×1, ×1.45) and by bank (left +20 %, right −20 %).
    @inline(__always)
    static func crossPlaneGain(_ slot: Int32) -> Double {
        var gap: Int32 = 1
        while gap < 8 && rightBank((slot - gap + 8) & 7) != rightBank(slot) { gap += 1 }
        let spacing = gap == 1 ? 0.5 : gap == 2 ? 1.0 : 1.45
        return spacing * (rightBank(slot) ? 0.8 : 1.2)
    }

    /// A cross-plane V8's interval from `slot` to the next against the mean: the right
    /// bank's pulses arrive 0.2 of an interval late.
    @inline(__always)
    static func crossPlaneInterval(_ slot: Int32) -> Double {
        (rightBank((slot + 1) & 7) ? 1.2 : 1) - (rightBank(slot) ? 0.2 : 0)
    }

    /// The live engine kernel. Render thread: safe.
    @inline(__always)
    mutating func renderEngine(_ state: inout EngineVoiceState, _ v: SIMD4<Double>, into bus: UnsafeMutablePointer<Float>,
                               frameCount: Int, _ m: Modulation, _ c: VoiceRenderContext) -> Int {
        let sr = c.sampleRate
        let cylinders = max(1, Int32(v[0] + 0.5))
        let baseRate = v[1] / 60 * Double(cylinders) / 2
        let exhaustHz = v[2], rasp = v[3]
        let kExhaust = Voice.resonator(exhaustHz, q: 2, sampleRate: sr)
        let kSecond = Voice.resonator(2.3 * exhaustHz, q: 2.5, sampleRate: sr)
        let kBody = Voice.resonator(0.36 * exhaustHz, q: 1.4, sampleRate: sr)
        let kIntake = Voice.resonator(4.5 * exhaustHz, q: 1.2, sampleRate: sr)
        let kRasp = Voice.resonator(6 * exhaustHz, q: 0.7, sampleRate: sr)
        let crossPlane = cylinders == 8
        // The rasp band's input: the pulse's change per sample, in units of 1 ms.
        let edgeScale = sr / 1000
        let directPole = MixerMath.exp(-2 * Double.pi * 300 / sr)
        let dcPole = MixerMath.exp(-2 * Double.pi * 30 / sr)
        let fastDecay = MixerMath.exp(-1 / (0.0005 * sr))
        let burstDecay = MixerMath.exp(-1 / (0.004 * sr))
        let prior = Voice.engineFollowerPrior * sr
        let follow = 1 / (Voice.engineFollowerTime * sr)
        // The pulse's decay at no load, and how load shortens it (the pulse's own decay is
        // recomputed only when the load moves).
        var lastLoad = Double.nan
        var slowDecay = 0.0, slowTime = 0.0
        var e = state
        for i in 0..<frameCount {
            let pitch = max(0.05, m.pitch(i))
            let load = min(1, max(-1, level.decibels / 3))
            if load != lastLoad {
                lastLoad = load
                slowTime = 0.0028 * (1 - 0.3 * load) * sr
                slowDecay = MixerMath.exp(-1 / slowTime)
            }
            let step = baseRate * pitch * (1 + 0.01 * e.drift) / sr / e.interval
            e.slow *= slowDecay
            e.fast *= fastDecay
            e.burst *= burstDecay
            e.phase += step
            if e.phase >= 1 {
                e.phase -= 1
                if e.phase >= 1 { e.phase = e.phase.truncatingRemainder(dividingBy: 1) }
                // The firing happened this many samples ago (sub-sample placement).
                let ago = e.phase / step
                var strength = Voice.cylinderGain(e.seed, e.cylinder) * (1 + 0.12 * Double(e.noise.nextUniform()))
                    * MixerMath.exp(-0.78 * MixerMath.log(pitch))
                if crossPlane { strength *= Voice.crossPlaneGain(e.cylinder) }
                e.slow += strength * MixerMath.exp(-ago / slowTime)
                e.fast += strength * MixerMath.exp(-ago * 2000 / sr)
                e.burst += strength * (1 + 0.5 * load)
                e.interval = 1 + 0.03 * Double(e.noise.nextUniform())
                if crossPlane { e.interval *= Voice.crossPlaneInterval(e.cylinder) }
                e.cylinder = e.cylinder + 1 == cylinders ? 0 : e.cylinder + 1
                e.drift = 0.971 * e.drift + 0.2 * Double(e.noise.nextUniform())
                // The level follower's gain, target / √power within ±12 dB, once a firing.
                e.gain = min(4, max(0.25, Voice.engineTarget * MixerMath.exp(-0.5 * MixerMath.log(e.power + 1e-12))))
            }
            let pulse = e.slow - e.fast
            e.direct = pulse + directPole * (e.direct - pulse)
            let gated = Double(e.noise.nextUniform()) * e.burst
            var x = 0.5 * e.direct
                + 1.1 * Voice.resonate(pulse, kExhaust, &e.exhaust)
                + 0.55 * Voice.resonate(pulse, kSecond, &e.second)
                + 0.8 * Voice.resonate(pulse, kBody, &e.body)
                + 0.35 * rasp * (1 + 0.6 * load) * Voice.resonate(gated, kIntake, &e.intake)
                - 0.6 * Voice.resonate((pulse - e.lastPulse) * edgeScale, kRasp, &e.rasp)
            e.lastPulse = pulse
            // Soft saturation (x / (1 + |x|)), then the DC it leaves removed.
            x *= Voice.engineDrive
            x = x / (1 + x.magnitude)
            let out = x - e.dcIn + dcPole * e.dcOut
            e.dcIn = x
            e.dcOut = out
            // The level follower: a running mean of the power (a plain mean until it has
            // heard `engineFollowerTime`, so it settles within a few firings of the start);
            // the gain that brings it to the target is set at each firing (above).
            e.heard += 1
            e.power += max(follow, 1 / (prior + e.heard)) * (out * out - e.power)
            let sample = Float(out * e.gain)
            if emit(sample, sample, at: i, into: bus, m) {
                state = e
                return stop(at: i + 1)
            }
        }
        state = e
        return frameCount
    }

    /// The engine's saturation drive.
    static var engineDrive: Double { 1.5 }
    /// The level the follower holds: the synth reference, −15 dBFS RMS.
    static var engineTarget: Double { 0.177_827_941 }
    /// The follower's prior (its start, in seconds of the target's power) and its memory.
    static var engineFollowerPrior: Double { 0.1 }
    static var engineFollowerTime: Double { 0.5 }
}
