import CabinAudio
import Glibc

/// Engine loops: a cruise loop the engine layer repitches by focus speed (ratio ~0.7–1.4)
/// and, where a repitched cruise loop would sound wrong at rest (lumpy idles, diesel
/// clatter, a sputtering vintage motor), a separate idle loop. Mono, seamless, FLAC.
public enum EngineRecipes {
    /// The engine recipes (`engine/…`), in library order.
    public static let all: [SoundRecipe] = [
        engine("engine/v8", v8, rpm: 2000, seed: 0xE801, "V8 rumble at cruise: uneven cylinders, deep exhaust"),
        engine("engine/v8-idle", v8Idle, rpm: 720, seed: 0xE802, "V8 lumpy idle"),
        engine("engine/v6", v6, rpm: 2300, seed: 0xE601, "V6 smooth at cruise"),
        engine("engine/v6-idle", v6, rpm: 800, seed: 0xE602, "V6 idle"),
        engine("engine/four", four, rpm: 2700, seed: 0xE401, "4-cylinder, efficient and a little raspy"),
        engine("engine/four-idle", four, rpm: 850, seed: 0xE402, "4-cylinder idle"),
        engine("engine/diesel", diesel, rpm: 1800, seed: 0xED01, "Turbo diesel chug at cruise"),
        engine("engine/diesel-idle", dieselIdle, rpm: 760, seed: 0xED02, "Diesel idle clatter"),
        engine("engine/vintage", vintage, rpm: 2100, seed: 0xEA01, "Vintage four at cruise, uneven (its sputters are engine/vintage-sputter)"),
        engine("engine/vintage-idle", vintageIdle, rpm: 700, seed: 0xEA02, "Vintage idle, lumpy (its sputters are engine/vintage-sputter)"),
        SoundRecipe("engine/vintage-sputter", .engine, loop: false, storage: .flac, seed: 0xEA03,
                    description: "Vintage sputter: a few weak firings and a cough, for a scatter over the vintage loops") { context in
            SoundFinish.buffer([sputter(sampleRate: context.sampleRate, random: &context.random)], sampleRate: context.sampleRate)
        },
    ]

    static func engine(_ name: String, _ spec: EngineSpec, rpm: Double, seed: UInt64, _ description: String) -> SoundRecipe {
        SoundRecipe(name, .engine, loop: true, storage: .flac, seed: seed, description: description) { context in
            let mono = EngineModel.loop(spec, rpm: rpm, seconds: 6, sampleRate: context.sampleRate, random: &context.random)
            return SoundFinish.buffer([mono], sampleRate: context.sampleRate)
        }
    }

    // MARK: specs

    static var v8: EngineSpec {
        var s = EngineSpec(firingAngles: [0, 96, 176, 278, 354, 454, 532, 633])
        s.cylinderSpread = 0.22
        s.pulseDecay = 0.0026
        // Resonances placed between the firing harmonics (133, 267, 400 Hz at 2000 rpm) so
        // the second and third stay strong and no single one drones.
        s.resonances = [(64, 1.4, 0.8), (250, 2, 0.75), (420, 2.5, 0.55), (820, 2.5, 0.3), (1500, 2, 0.12)]
        s.directGain = 0.35
        s.lowpass = 2200
        s.mechanical = 0.06
        s.rumble = 0.06
        s.drive = 1.3
        return s
    }

    static var v8Idle: EngineSpec {
        var s = v8
        s.cylinderSpread = 0.35
        s.timingJitter = 0.03
        s.eventSpread = 0.1
        return s
    }

    static var v6: EngineSpec {
        var s = EngineSpec.even(6)
        s.cylinderSpread = 0.08
        s.timingJitter = 0.006
        s.pulseDecay = 0.002
        s.resonances = [(88, 1.5, 0.7), (205, 2.2, 0.6), (500, 2.5, 0.45), (1150, 2.5, 0.25), (2000, 2, 0.08)]
        s.lowpass = 2800
        s.mechanical = 0.05
        s.drive = 1.1
        return s
    }

    /// A small four at high revs: sharp exhaust pulses (many harmonics), little of the low
    /// thump under them, the exhaust and intake resonances high, and hard saturation — the
    /// rasp a four-cylinder has and a V6 does not.
    static var four: EngineSpec {
        var s = EngineSpec.even(4)
        s.cylinderSpread = 0.1
        s.pulseAttack = 0.0004
        s.pulseDecay = 0.0011
        s.resonances = [(115, 1.6, 0.45), (360, 2.5, 0.8), (820, 3, 0.75), (1600, 3, 0.5), (2900, 2.5, 0.22)]
        s.directGain = 0.2
        s.lowpass = 5500
        s.mechanical = 0.14
        s.mechanicalFrequency = 3000
        s.rumble = 0.05
        s.drive = 2.2
        return s
    }

    static var diesel: EngineSpec {
        var s = EngineSpec.even(4)
        s.cylinderSpread = 0.12
        s.pulseAttack = 0.0003
        s.pulseDecay = 0.0022
        s.resonances = [(72, 1.4, 0.8), (160, 2, 0.6), (420, 2.5, 0.45), (950, 2.5, 0.25)]
        s.lowpass = 2800
        s.knock = 0.25
        s.mechanical = 0.06
        s.rumble = 0.07
        s.drive = 1.5
        return s
    }

    static var dieselIdle: EngineSpec {
        var s = diesel
        s.knock = 0.4
        s.timingJitter = 0.015
        return s
    }

    /// The vintage loops have no misfires of their own: a misfire baked into a 6 s loop
    /// comes back every 6 s like a metronome. The drive scatters `engine/vintage-sputter`
    /// over them at random times instead.
    static var vintage: EngineSpec {
        var s = EngineSpec.even(4)
        s.cylinderSpread = 0.28
        s.eventSpread = 0.15
        s.timingJitter = 0.035
        s.pulseDecay = 0.0024
        s.resonances = [(100, 1.8, 0.7), (245, 3, 0.6), (610, 4, 0.5), (1300, 3, 0.2)]
        s.lowpass = 1900
        s.mechanical = 0.1
        s.mechanicalFrequency = 1700
        s.drive = 1.8
        return s
    }

    static var vintageIdle: EngineSpec {
        var s = vintage
        s.timingJitter = 0.05
        return s
    }

    /// A sputter: 0.6 s of the vintage four stumbling — the firings weak and uneven as the
    /// rpm sags by a sixth and recovers — with a muffled cough from the exhaust at the dip,
    /// faded in and out so it sits on the running loop.
    static func sputter(sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        let n = Int(0.6 * sr)
        var spec = vintage
        spec.misfireChance = 0.45
        spec.timingJitter = 0.08
        spec.eventSpread = 0.4
        var out = EngineModel.synthesize(spec, frames: n, sampleRate: sr, random: &random) { i in
            2100 * (1 - 0.17 * sin(Double.pi * Double(i) / Double(n)))
        }
        let cough = Modal.click([(70, 0.9, 0.05), (150, 0.6, 0.03), (390, 0.3, 0.012)], noise: 0.4, seconds: 0.2,
                                sampleRate: sr, random: &random)
        Modal.place(cough, into: &out, at: 0.22, gain: 0.5, sampleRate: sr)
        for i in 0..<n {
            let t = Double(i) / sr
            out[i] *= SoundFinish.raisedCosine(t / 0.04) * SoundFinish.raisedCosine((0.6 - t) / 0.12)
        }
        return out
    }
}
