import CabinAudio
import Glibc

/// Small instruments for the radio beds. Each returns a mono note or hit of its own
/// length; the beds place them circularly so tails wrap around the loop.
///
/// Thread: pure functions; any thread except the render thread.
public enum Instruments {
    /// Equal-tempered frequency of a MIDI note number.
    public static func hertz(_ midi: Double) -> Double { 440 * pow(2, (midi - 69) / 12) }

    /// An electric-piano note (two-operator FM: a 1:1 modulator whose index falls quickly,
    /// so the attack has bark and the body is round), with a slow tremolo.
    public static func electricPiano(_ frequency: Double, velocity: Double, seconds: Double, sampleRate sr: Double) -> [Double] {
        let n = Int(seconds * sr)
        let w = 2 * Double.pi * frequency / sr
        return (0..<n).map { i in
            let t = Double(i) / sr
            let index = (0.3 + 1.6 * velocity * exp(-t / 0.12))
            let env = exp(-t / 1.1) * min(1, t / 0.004) * SoundFinish.raisedCosine((seconds - t) / 0.15)
            let tremolo = 1 + 0.08 * sin(2 * Double.pi * 4.5 * t)
            return velocity * env * tremolo * sin(w * Double(i) + index * sin(w * Double(i)))
        }
    }

    /// A round bass note: sine with a little second harmonic, plucked.
    public static func bass(_ frequency: Double, seconds: Double, sampleRate sr: Double) -> [Double] {
        let n = Int(seconds * sr)
        let w = 2 * Double.pi * frequency / sr
        return (0..<n).map { i in
            let t = Double(i) / sr
            let env = exp(-t / 0.5) * min(1, t / 0.006) * SoundFinish.raisedCosine((seconds - t) / 0.05)
            return env * (sin(w * Double(i)) + 0.25 * sin(2 * w * Double(i)))
        }
    }

    /// A soft kick: a sine falling from 110 to 48 Hz.
    public static func kick(sampleRate sr: Double) -> [Double] {
        var phase = 0.0
        return (0..<Int(0.35 * sr)).map { i in
            let t = Double(i) / sr
            phase += 2 * Double.pi * (48 + 62 * exp(-t / 0.03)) / sr
            return sin(phase) * exp(-t / 0.14) * min(1, t / 0.002)
        }
    }

    /// A brushed, muted snare: a low body and band-passed noise.
    public static func snare(sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        var bp = Biquad(.bandpass, frequency: 1700, q: 0.8, sampleRate: sr)
        var lp = Biquad(.lowpass, frequency: 4500, q: 0.7, sampleRate: sr)
        return (0..<Int(0.3 * sr)).map { i in
            let t = Double(i) / sr
            let body = 0.5 * sin(2 * Double.pi * 185 * t) * exp(-t / 0.05)
            let noise = bp.process(random.bipolar()) * exp(-t / 0.09) * 1.6
            return lp.process((body + noise) * min(1, t / 0.002))
        }
    }

    /// A closed hi-hat, dark (no harsh highs): band-passed noise, very short.
    public static func hat(sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        var bp = Biquad(.bandpass, frequency: 6500, q: 1.2, sampleRate: sr)
        return (0..<Int(0.08 * sr)).map { i in
            let t = Double(i) / sr
            return bp.process(random.bipolar()) * exp(-t / 0.02) * min(1, t / 0.001)
        }
    }

    /// A band-limited sawtooth (PolyBLEP) for pads, `count` frames at `frequency`.
    public static func saw(_ frequency: Double, frames count: Int, phase start: Double, sampleRate sr: Double) -> [Double] {
        let dt = frequency / sr
        var p = start
        return (0..<count).map { _ in
            var v = 2 * p - 1
            if p < dt { let x = p / dt; v -= x + x - x * x - 1 } else if p > 1 - dt { let x = (p - 1) / dt; v -= x * x + x + x + 1 }
            p += dt
            if p >= 1 { p -= 1 }
            return v
        }
    }
}
