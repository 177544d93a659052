import CabinAudio
import Glibc

/// UI one-shots: short, clear and soft-edged (mono, Ogg Opus). Chimes are modal
/// (inharmonic partials with decays); mechanical sounds are damped resonances with a
/// brief noise transient.
public enum UIRecipes {
    /// The UI recipes (`ui/…`), in library order.
    public static let all: [SoundRecipe] = [
        shot("ui/ignition", seconds: 3.2, seed: 0x1101, "Starter crank, the engine catches, revs and settles (V8)") { sr, r in
            ignition(EngineRecipes.v8, idle: 900, firstFiring: false, sampleRate: sr, random: &r)
        },
        shot("ui/ignition-v6", seconds: 3.2, seed: 0x1106, "V6 start: crank, catch at 0.76 s, rev, settle") { sr, r in
            ignition(EngineRecipes.v6, idle: 950, sampleRate: sr, random: &r)
        },
        shot("ui/ignition-four", seconds: 3.2, seed: 0x1107, "Four-cylinder start: crank, catch at 0.76 s, a raspy rev, settle") { sr, r in
            ignition(EngineRecipes.four, idle: 1000, sampleRate: sr, random: &r)
        },
        shot("ui/ignition-diesel", seconds: 3.2, seed: 0x1108, "Diesel start: a slow heavy crank, catch at 0.76 s, a clattering rev, settle") { sr, r in
            ignition(EngineRecipes.dieselIdle, idle: 850, peak: 2000, sampleRate: sr, random: &r)
        },
        shot("ui/ignition-vintage", seconds: 3.2, seed: 0x1109, "Vintage start: crank, catch at 0.76 s with a sputter, settle") { sr, r in
            ignition(EngineRecipes.vintageIdle, idle: 800, sampleRate: sr, random: &r)
        },
        shot("ui/glow-plug", seconds: 1.6, seed: 0x110A, "Diesel key on: the glow-plug relay clicks in, and out 1.4 s later") { sr, r in
            var out = [Double](repeating: 0, count: Int(1.6 * sr))
            let relay: [(Double, Double, Double)] = [(3200, 0.6, 0.004), (1400, 0.35, 0.008), (5200, 0.15, 0.002)]
            Modal.place(Modal.click(relay, noise: 0.25, sampleRate: sr, random: &r), into: &out, at: 0.005, gain: 0.7, sampleRate: sr)
            Modal.place(Modal.click(relay, noise: 0.25, sampleRate: sr, random: &r), into: &out, at: 1.4, gain: 0.45, sampleRate: sr)
            return out
        },
        shot("ui/power-on", seconds: 2.4, seed: 0x110B, "Electric car on: a contactor clunk, a soft ready chime, the inverter's rising whir") { sr, r in
            powerOn(sampleRate: sr, random: &r)
        },
        shot("ui/seatbelt", seconds: 0.45, seed: 0x1102, "Seatbelt latch: a light click, then the clack") { sr, r in
            var out = [Double](repeating: 0, count: Int(0.45 * sr))
            Modal.place(Modal.click([(2600, 0.5, 0.006), (4100, 0.25, 0.004), (900, 0.2, 0.01)], noise: 0.2,
                                    sampleRate: sr, random: &r), into: &out, at: 0.01, gain: 0.5, sampleRate: sr)
            Modal.place(Modal.click([(2900, 0.8, 0.012), (4600, 0.35, 0.008), (1650, 0.5, 0.02), (190, 0.6, 0.03)],
                                    noise: 0.35, seconds: 0.2, sampleRate: sr, random: &r), into: &out, at: 0.075, sampleRate: sr)
            return out
        },
        shot("ui/turn-signal", seconds: 0.85, seed: 0x1103, "Turn-signal relay: tick … tock") { sr, r in
            var out = [Double](repeating: 0, count: Int(0.85 * sr))
            Modal.place(Modal.click([(1950, 0.7, 0.007), (3300, 0.3, 0.004), (420, 0.35, 0.012)], noise: 0.15,
                                    sampleRate: sr, random: &r), into: &out, at: 0.005, sampleRate: sr)
            Modal.place(Modal.click([(1350, 0.7, 0.008), (2450, 0.3, 0.005), (330, 0.4, 0.014)], noise: 0.12,
                                    sampleRate: sr, random: &r), into: &out, at: 0.405, gain: 0.9, sampleRate: sr)
            return out
        },
        shot("ui/gear-shift", seconds: 0.5, seed: 0x1104, "Gear lever P → D: a detent click and a soft chunk") { sr, r in
            var out = [Double](repeating: 0, count: Int(0.5 * sr))
            Modal.place(Modal.click([(1800, 0.35, 0.006), (3100, 0.15, 0.004)], noise: 0.1, sampleRate: sr, random: &r),
                        into: &out, at: 0.005, gain: 0.6, sampleRate: sr)
            Modal.place(chunk(sampleRate: sr, random: &r), into: &out, at: 0.07, sampleRate: sr)
            return out
        },
        shot("ui/speed-bump", seconds: 0.7, seed: 0x110C,
             "Speed bump, the 'you left focus' warning: two dull thumps 220 ms apart, front wheels then rear (with the speed-bump haptic)") { sr, r in
            var out = [Double](repeating: 0, count: Int(0.7 * sr))
            Modal.place(chunk(sampleRate: sr, random: &r), into: &out, at: 0, sampleRate: sr)
            Modal.place(chunk(sampleRate: sr, random: &r), into: &out, at: 0.22, gain: 0.85, sampleRate: sr)
            return out
        },
        shot("ui/horn", seconds: 0.55, seed: 0x1105, "A short, friendly two-tone toot") { sr, _ in horn(sampleRate: sr) },
        chime("ui/chime-milestone", seconds: 1.8, seed: 0x1201, "Milestone: two rising bar notes",
              notes: [(0, 659.26, 1), (0.12, 987.77, 0.85)], partials: Modal.bar(decay: 0.45)),
        chime("ui/chime-break", seconds: 2.2, seed: 0x1202, "Time for a break: a mellow falling bell pair",
              notes: [(0, 783.99, 1), (0.2, 587.33, 0.9)], partials: Modal.bell(decay: 0.55, brightness: 0.6)),
        chime("ui/chime-focus", seconds: 1.8, seed: 0x1203, "Back to focus: a bright rising pair",
              notes: [(0, 523.25, 0.9), (0.14, 783.99, 1)], partials: Modal.bar(decay: 0.4, brightness: 1.2)),
        chime("ui/session-end", seconds: 2.8, seed: 0x1204, "Session end: a four-note bell arpeggio",
              notes: [(0, 523.25, 0.8), (0.15, 659.26, 0.85), (0.3, 783.99, 0.9), (0.45, 1046.5, 1)],
              partials: Modal.bell(decay: 0.6, brightness: 0.8)),
        shot("ui/unlock", seconds: 1.0, seed: 0x1205, "Unlock: a latch click and a quick rising ding") { sr, r in
            var out = [Double](repeating: 0, count: Int(1.0 * sr))
            Modal.place(Modal.click([(2300, 0.5, 0.006), (3700, 0.2, 0.004)], noise: 0.15, sampleRate: sr, random: &r),
                        into: &out, at: 0.005, gain: 0.5, sampleRate: sr)
            Modal.place(Modal.strike(880, Modal.bar(decay: 0.25), seconds: 0.9, sampleRate: sr), into: &out, at: 0.05,
                        gain: 0.6, sampleRate: sr)
            Modal.place(Modal.strike(1318.5, Modal.bar(decay: 0.3), seconds: 0.9, sampleRate: sr), into: &out, at: 0.12,
                        gain: 0.7, sampleRate: sr)
            return out
        },
        shot("ui/toggle", seconds: 0.4, seed: 0x1301, "Toggle: a small soft tick") { sr, r in
            Modal.click([(2200, 0.6, 0.004), (950, 0.4, 0.008), (3900, 0.12, 0.002)], noise: 0.08, seconds: 0.4,
                        sampleRate: sr, random: &r)
        },
        chime("ui/counter-step", seconds: 0.4, seed: 0x1302, "Counter step: a short wooden pluck",
              notes: [(0, 880, 1)], partials: [(1, 1, 0.05), (2.756, 0.2, 0.015), (4.0, 0.05, 0.01)]),
        chime("ui/streak-success", seconds: 1.6, seed: 0x1303, "Streak: a rising three-note sparkle",
              notes: [(0, 783.99, 0.8), (0.09, 987.77, 0.85), (0.18, 1174.66, 1), (0.27, 1567.98, 0.35)],
              partials: Modal.bar(decay: 0.35, brightness: 0.9)),
    ]

    static func shot(_ name: String, seconds: Double, seed: UInt64, _ description: String,
                     _ make: @escaping @Sendable (Double, inout SeededRandom) -> [Double]) -> SoundRecipe {
        SoundRecipe(name, .ui, loop: false, storage: .opus, seed: seed, description: description) { context in
            var mono = make(context.sampleRate, &context.random)
            mono = mono.filtered(.highpass, 60, sampleRate: context.sampleRate, periodic: false)
            return SoundFinish.buffer([mono], sampleRate: context.sampleRate, peakDB: -4, fadeIn: 0.0005,
                                      fadeOut: min(0.08, seconds * 0.3))
        }
    }

    static func chime(_ name: String, seconds: Double, seed: UInt64, _ description: String,
                      notes: [(time: Double, frequency: Double, gain: Double)], partials: [Modal.Partial]) -> SoundRecipe {
        shot(name, seconds: seconds, seed: seed, description) { sr, _ in
            var out = [Double](repeating: 0, count: Int(seconds * sr))
            for note in notes {
                Modal.place(Modal.strike(note.frequency, partials, seconds: seconds - note.time, sampleRate: sr),
                            into: &out, at: note.time, gain: note.gain, sampleRate: sr)
            }
            return out.filtered(.lowpass, 7000, sampleRate: sr, periodic: false)
        }
    }

    /// The gear lever's chunk: a low thud falling in pitch, a muffled knock.
    static func chunk(sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        let n = Int(0.3 * sr)
        var phase = 0.0
        var bp = Biquad(.bandpass, frequency: 650, q: 1.5, sampleRate: sr)
        var lp = Biquad(.lowpass, frequency: 2500, q: 0.7, sampleRate: sr) // a muffled knock, no hiss
        return (0..<n).map { i in
            let t = Double(i) / sr
            phase += 2 * Double.pi * (95 + 60 * exp(-t / 0.02)) / sr
            let thud = sin(phase) * exp(-t / 0.045)
            let knock = lp.process(bp.process(random.bipolar())) * exp(-t / 0.018) * 1.5
            return (thud + knock) * min(1, t / 0.001)
        }
    }

    /// Two reedy tones a major third apart through a horn-like formant, soft attack and
    /// release, low-passed so it reads "friendly toot", not "angry driver".
    static func horn(sampleRate sr: Double) -> [Double] {
        let seconds = 0.55, held = 0.32
        var formant = Biquad(.peak(gainDB: 6), frequency: 1100, q: 1.5, sampleRate: sr)
        var lp = Biquad(.lowpass, frequency: 2400, q: 0.7, sampleRate: sr)
        return (0..<Int(seconds * sr)).map { i in
            let t = Double(i) / sr
            let env = t < held ? SoundFinish.raisedCosine(t / 0.015) : exp(-(t - held) / 0.035)
            var v = 0.0
            for k in 1...8 {
                let a = pow(Double(k), -1.4) // reedy but not buzzy
                v += a * (sin(2 * Double.pi * 415 * Double(k) * t) + 0.9 * sin(2 * Double.pi * 523.25 * Double(k) * t))
            }
            return lp.process(formant.process(v * env))
        }
    }

    /// Ignition: the starter cranks the engine over (weak compression pulses and the
    /// starter's whine), it catches at 0.76 s, revs once to `peak` rpm and settles to `idle`
    /// by 2.1 s — the same moments for every engine (the drive starts its engine layers at the
    /// catch); the engine is the vehicle's own (the spec of its loops), so its crank pulses
    /// are its own, and each vehicle's `engine-start…` haptic is made from its ignition
    /// (`scripts/start-haptics`: `cabin haptics from-audio`).
    ///
    /// `firstFiring` places the catch's first combustion bang exactly at 0.76 s (engines
    /// whose own firing order puts no strong firing there; the V8's does).
    static func ignition(_ engineSpec: EngineSpec, idle: Double, peak: Double = 2600, firstFiring: Bool = true,
                         sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        let n = Int(3.2 * sr)
        let crank = 0.75, peakTime = 1.15, settle = 2.1
        func rpm(_ t: Double) -> Double {
            if t < crank { return 260 }
            if t < peakTime { return 260 + (peak - 260) * SoundFinish.raisedCosine((t - crank) / (peakTime - crank)) }
            return idle + (peak - idle) * exp(-(t - peakTime) / ((settle - peakTime) / 3))
        }
        var spec = engineSpec
        spec.timingJitter = max(spec.timingJitter, 0.02)
        var engine = EngineModel.synthesize(spec, frames: n, sampleRate: sr, random: &random) { rpm(Double($0) / sr) }
        var phase = 0.0
        for i in 0..<n {
            let t = Double(i) / sr
            let combustion = t < crank ? 0.3 : 0.3 + 0.7 * SoundFinish.raisedCosine((t - crank) / 0.08)
            let starterGain = t < crank ? 1 : max(0, 1 - (t - crank) / 0.12)
            phase += 2 * Double.pi * 150 * (1 + 0.06 * sin(2 * Double.pi * 8.7 * t)) / sr
            let whirr = 0.5 + 0.5 * random.bipolar()
            let whine = (sin(phase) + 0.4 * sin(2 * phase) + 0.2 * sin(3 * phase)) * 0.03 * starterGain * (0.8 + 0.2 * whirr)
            let tail = t > 2.6 ? SoundFinish.raisedCosine((3.2 - t) / 0.6) : 1
            engine[i] = (engine[i] * combustion + whine) * tail * min(1, t / 0.02)
        }
        if firstFiring {
            let bang = Modal.click([(75, 0.9, 0.06), (170, 0.6, 0.035), (480, 0.3, 0.015)], noise: 0.3, seconds: 0.25,
                                   sampleRate: sr, random: &random)
            Modal.place(bang, into: &engine, at: 0.76, gain: 0.3, sampleRate: sr)
        }
        return engine
    }

    /// An electric car switching on: the main contactor's clunk at once, a soft two-note
    /// ready chime at 0.15 s, and from 0.5 s the inverter's whir rising (300 → 1400 Hz) and
    /// swelling to 1.3 s, then settling — the `engine-start-electric` haptic's shape.
    static func powerOn(sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        let n = Int(2.4 * sr)
        var out = [Double](repeating: 0, count: n)
        Modal.place(Modal.click([(900, 0.6, 0.012), (2300, 0.35, 0.006), (180, 0.5, 0.025)], noise: 0.2, seconds: 0.2,
                                sampleRate: sr, random: &random), into: &out, at: 0.005, sampleRate: sr)
        for (time, frequency) in [(0.15, 587.33), (0.29, 880.0)] {
            Modal.place(Modal.strike(frequency, Modal.bell(decay: 0.5, brightness: 0.5), seconds: 1.2, sampleRate: sr),
                        into: &out, at: time, gain: 0.22, sampleRate: sr)
        }
        var phase = 0.0
        for i in Int(0.5 * sr)..<n {
            let t = Double(i) / sr - 0.5
            let f = 300 + 1100 * SoundFinish.raisedCosine(min(1, t / 1.2))
            phase += 2 * Double.pi * f / sr
            let swell = t < 0.8 ? SoundFinish.raisedCosine(t / 0.8) : 0.45 + 0.55 * exp(-(t - 0.8) / 0.4)
            let fade = t > 1.5 ? SoundFinish.raisedCosine((1.9 - t) / 0.4) : 1
            out[i] += 0.05 * swell * fade * (sin(phase) + 0.3 * sin(2 * phase) + 0.05 * random.bipolar())
        }
        return out
    }
}
