import CabinAudio
import Glibc

/// The ingredients of the ambient loops: road and tyre noise, passing traffic with
/// Doppler, raindrops on glass, wind and birds. Every one is periodic in the loop.
///
/// Thread: pure functions; any thread except the render thread.
public enum AmbientTextures {
    /// Tyre and road noise heard from inside the car: brown rumble plus a band of pink
    /// noise, mostly shared between the ears, breathing slowly.
    public static func road(_ bed: inout StereoBed, level: Double, brightness: Double = 400, random: inout SeededRandom) {
        let n = bed.frames, sr = bed.sampleRate
        let common = Noise.brown(n, random: &random).filtered(.lowpass, 160, sampleRate: sr, periodic: true)
        let band = Noise.pink(n, random: &random).filtered(.bandpass, brightness, q: 0.6, sampleRate: sr, periodic: true)
        let sway = Periodic.wander(frames: n, maxCycles: 4, random: &random)
        for side in 0..<2 {
            let own = Noise.brown(n, random: &random).filtered(.lowpass, 160, sampleRate: sr, periodic: true)
            let ownBand = Noise.pink(n, random: &random).filtered(.bandpass, brightness * 1.1, q: 0.6, sampleRate: sr, periodic: true)
            var layer = [Double](repeating: 0, count: n)
            for i in 0..<n {
                layer[i] = level * (1 + 0.15 * sway[i]) * (0.5 * (0.7 * common[i] + 0.3 * own[i])
                    + 0.9 * (0.7 * band[i] + 0.3 * ownBand[i]))
            }
            if side == 0 { bed.add(left: layer, right: [Double](repeating: 0, count: n)) } else {
                bed.add(left: [Double](repeating: 0, count: n), right: layer)
            }
        }
    }

    /// A vehicle passing: filtered noise (tyres) and, for trucks, a low engine tone, both
    /// falling in pitch through the Doppler shift as it passes, louder as it nears, moving
    /// across the stereo field. `seconds` is the audible length.
    ///
    /// `wet` (0…1) adds the hiss of tyres on a wet road: high noise (3–7 kHz) that swells
    /// with the pass.
    public static func passBy(_ bed: inout StereoBed, at start: Int, seconds: Double, gain: Double, truck: Bool = false,
                              direction: Double = 1, distance: Double = 1, wet: Double = 0, random: inout SeededRandom) {
        let sr = bed.sampleRate
        let n = Int(seconds * sr)
        let center = Double(n) / 2
        let width = sr * (truck ? 0.9 : 0.6) * distance
        let speed = random.uniform(0.06...0.09) // Doppler ratio swing (≈ v/c)
        let tyre = truck ? random.uniform(260...380) : random.uniform(550...900)
        var noise = Noise.pink(n, random: &random, periodic: false)
        var bp = Biquad(.bandpass, frequency: tyre, q: 0.9, sampleRate: sr)
        var lp = Biquad(.lowpass, frequency: 2500 / distance, q: 0.7, sampleRate: sr)
        let hum = truck ? random.uniform(55...75) : 0
        var spray = Biquad(.bandpass, frequency: random.uniform(3500...5500), q: 0.5, sampleRate: sr)
        var phase = 0.0
        for i in 0..<n {
            let x = (Double(i) - center) / width
            let doppler = 1 + speed * -tanh(x * 1.5)
            if i % 64 == 0 { bp.setCoefficients(.bandpass, frequency: tyre * doppler, q: 0.9, sampleRate: sr) }
            let envelope = 1 / (1 + x * x) * SoundFinish.raisedCosine(min(Double(i), Double(n - 1 - i)) / (0.25 * sr))
            var v = bp.process(noise[i]) * 3
            if truck {
                phase += 2 * Double.pi * hum * doppler / sr
                v += 0.25 * (sin(phase) + 0.5 * sin(2 * phase) + 0.25 * sin(3 * phase))
            }
            var hiss = 0.0
            if wet > 0 { hiss = wet * 0.9 * spray.process(random.bipolar()) * envelope * envelope }
            noise[i] = lp.process(v) * envelope + hiss
        }
        bed.add(noise, at: start, gain: gain) { i in direction * tanh((Double(i) - center) / width) * 0.8 }
    }

    /// Rain on a windscreen: each drop a short burst of noise ringing through the glass's
    /// resonance where it lands (small drops bright, 2–9 kHz; heavier ones lower and longer,
    /// with a soft splash), over the broadband hiss of rain all around (energy to 10 kHz)
    /// and a low roar. `perSecond` drops a second.
    public static func rain(_ bed: inout StereoBed, perSecond: Double, level: Double, random: inout SeededRandom) {
        let n = bed.frames, sr = bed.sampleRate
        let count = Int(perSecond * Double(n) / sr)
        for _ in 0..<count {
            let heavy = random.chance(0.15)
            let f = heavy ? random.uniform(700...2500) : random.uniform(2000...9000)
            let q = heavy ? random.uniform(2...4) : random.uniform(3...8)
            let tau = heavy ? random.uniform(0.004...0.010) : random.uniform(0.0008...0.0025)
            let amp = level * (heavy ? random.uniform(0.6...1.0) : pow(random.unit(), 2) * 0.7 + 0.08)
            let length = Int((tau * 7 + 0.003) * sr)
            var ring = Biquad(.bandpass, frequency: f, q: q, sampleRate: sr)
            var splash = Biquad(.highpass, frequency: 3000, q: 0.7, sampleRate: sr)
            var drop = [Double](repeating: 0, count: length)
            for i in 0..<length {
                let t = Double(i) / sr
                let burst = random.bipolar() * exp(-t / tau) * min(1, t / 0.0002)
                drop[i] = amp * (3 * ring.process(burst) + (heavy ? 0.5 * splash.process(random.bipolar()) * exp(-t / 0.006) : 0))
            }
            bed.add(drop, at: random.int(0...(n - 1)), pan: random.uniform(-0.9...0.9))
        }
        let swell = Periodic.wander(frames: n, maxCycles: 3, random: &random)
        var hiss = [[Double]]()
        for _ in 0..<2 {
            let pink = Noise.pink(n, random: &random)
            let high = pink.filtered(.highpass, 1200, sampleRate: sr, periodic: true)
                .filtered(.lowpass, 10000, sampleRate: sr, periodic: true)
            let roar = pink.filtered(.lowpass, 500, sampleRate: sr, periodic: true)
            hiss.append((0..<n).map { level * (1 + 0.2 * swell[$0]) * (1.1 * high[$0] + 0.5 * roar[$0]) })
        }
        bed.add(left: hiss[0], right: hiss[1])
    }

    /// A wiper's stroke across the glass and back: a rubbery swish of noise sweeping up and
    /// across the stereo field (0.65 s each way), and the soft knock of the motor parking.
    public static func wiper(_ bed: inout StereoBed, at start: Int, level: Double, random: inout SeededRandom) {
        let sr = bed.sampleRate
        let stroke = 0.65, n = Int((2 * stroke + 0.2) * sr)
        var band = Biquad(.bandpass, frequency: 1500, q: 1.2, sampleRate: sr)
        var swish = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i) / sr
            let u = t < stroke ? t / stroke : t < 2 * stroke ? (t - stroke) / stroke : 1
            guard t < 2 * stroke else { break }
            if i % 32 == 0 { band.setCoefficients(.bandpass, frequency: 1100 + 1400 * sin(Double.pi * u), q: 1.2, sampleRate: sr) }
            let envelope = sin(Double.pi * u) * (0.8 + 0.2 * sin(2 * Double.pi * 23 * t))
            swish[i] = band.process(random.bipolar()) * envelope * 3
        }
        bed.add(swish, at: start, gain: level) { i in
            let t = Double(i) / sr
            return t < stroke ? -0.7 + 1.4 * t / stroke : 0.7 - 1.4 * min(1, (t - stroke) / stroke)
        }
        let knock = Modal.click([(140, 0.8, 0.02), (420, 0.3, 0.01)], noise: 0.1, seconds: 0.1, sampleRate: sr, random: &random)
        bed.add(knock, at: start + Int(2 * stroke * sr), pan: -0.7, gain: level * 0.8)
    }

    /// Arrival times (seconds, in 0..<`seconds`) of a Poisson process of `perMinute`: gaps
    /// drawn from the exponential distribution, the loop's seam included (the first gap is
    /// drawn from before 0).
    public static func arrivals(perMinute: Double, seconds: Double, random: inout SeededRandom) -> [Double] {
        let mean = 60 / perMinute
        var times: [Double] = []
        var t = -mean * Glibc.log(1 - random.unit()) * random.unit()
        while t < seconds {
            times.append(t)
            t += -mean * Glibc.log(1 - random.unit())
        }
        return times
    }

    /// Wind: pink noise through a resonant band whose centre and level drift with slow
    /// periodic gusts, and a faint whistle riding the strongest gusts.
    public static func wind(_ bed: inout StereoBed, level: Double, low: Double = 250, high: Double = 900,
                            whistle: Double = 0.15, random: inout SeededRandom) {
        let n = bed.frames, sr = bed.sampleRate
        let gust = Periodic.wander(frames: n, maxCycles: 11, partials: 7, random: &random)
        for side in 0..<2 {
            let noise = Noise.pink(n, random: &random)
            let skew = Periodic.wander(frames: n, maxCycles: 7, random: &random)
            var body = Biquad(.bandpass, frequency: low, q: 1.2, sampleRate: sr)
            var tone = Biquad(.bandpass, frequency: high * 1.6, q: 9, sampleRate: sr)
            var position = 0
            let out = Periodic.filter(noise) { x in
                let i = position
                position = (position + 1) % n
                let g = 0.5 + 0.5 * (0.8 * gust[i] + 0.2 * skew[i])
                if i % 32 == 0 {
                    body.setCoefficients(.bandpass, frequency: low + (high - low) * g, q: 1.2, sampleRate: sr)
                    tone.setCoefficients(.bandpass, frequency: high * (1.4 + 0.5 * g), q: 9, sampleRate: sr)
                }
                return level * (0.25 + g * g) * (body.process(x) * 2.5 + whistle * g * g * tone.process(x) * 6)
            }
            if side == 0 { bed.add(left: out, right: [Double](repeating: 0, count: n)) } else {
                bed.add(left: [Double](repeating: 0, count: n), right: out)
            }
        }
    }

    /// Songbirds: phrases of 2–6 short frequency-swept notes, here and there.
    public static func birds(_ bed: inout StereoBed, phrases: Int, level: Double, random: inout SeededRandom) {
        let n = bed.frames, sr = bed.sampleRate
        for _ in 0..<phrases {
            let base = random.uniform(2300...3800)
            let notes = random.int(2...6)
            let pan = random.uniform(-0.85...0.85)
            let gain = level * random.uniform(0.4...1)
            var t = random.int(0...(n - 1))
            let sweep = random.uniform(-0.35...0.45)
            for _ in 0..<notes {
                let dur = random.uniform(0.04...0.13)
                let f0 = base * random.uniform(0.9...1.15)
                let length = Int(dur * sr)
                var phase = 0.0
                let note = (0..<length).map { i -> Double in
                    let u = Double(i) / Double(length)
                    phase += 2 * Double.pi * f0 * (1 + sweep * u + 0.04 * sin(2 * Double.pi * 38 * u * dur)) / sr
                    let env = sin(Double.pi * u)
                    return env * env * (sin(phase) + 0.12 * sin(2 * phase))
                }
                bed.add(note, at: t, pan: pan, gain: gain)
                t += length + Int(random.uniform(0.03...0.09) * sr)
            }
        }
    }
}
