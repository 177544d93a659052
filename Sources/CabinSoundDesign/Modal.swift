import CabinAudio
import Glibc

/// Struck and clicked things for the UI sounds: modal synthesis (a sum of exponentially
/// decaying partials, inharmonic for bells and bars) and short resonant clicks.
///
/// Thread: pure functions; any thread except the render thread.
public enum Modal {
    /// A partial: frequency ratio to the fundamental, amplitude, decay time constant (s).
    public typealias Partial = (ratio: Double, amplitude: Double, decay: Double)

    /// A soft mallet on a small metal bar or bell: partials at `ratio × frequency`, each
    /// an unequal pair of slightly detuned sines (a slow shimmer that never cancels), with a `attack`-second rise.
    public static func strike(_ frequency: Double, _ partials: [Partial], seconds: Double, attack: Double = 0.003,
                              shimmer: Double = 0.6, sampleRate sr: Double) -> [Double] {
        let n = Int(seconds * sr)
        var out = [Double](repeating: 0, count: n)
        for p in partials {
            let f = frequency * p.ratio
            guard f < sr * 0.45 else { continue }
            let w1 = 2 * Double.pi * f / sr, w2 = 2 * Double.pi * (f + shimmer) / sr
            let k = exp(-1 / (p.decay * sr))
            var env = p.amplitude
            for i in 0..<n {
                out[i] += env * (0.65 * sin(w1 * Double(i)) + 0.35 * sin(w2 * Double(i)))
                env *= k
            }
        }
        let rise = Int(attack * sr)
        for i in 0..<min(n, rise) { out[i] *= SoundFinish.raisedCosine(Double(i) / Double(rise)) }
        return out
    }

    /// The partials of a free bar (glockenspiel-like), upper ones decaying faster.
    public static func bar(decay: Double, brightness: Double = 1) -> [Partial] {
        [(1, 1, decay), (2.756, 0.25 * brightness, decay * 0.35), (5.404, 0.08 * brightness, decay * 0.15),
         (8.933, 0.025 * brightness, decay * 0.08)]
    }

    /// The partials of a small bell (minor-third bell spectrum), mellow.
    public static func bell(decay: Double, brightness: Double = 1) -> [Partial] {
        [(0.5, 0.25, decay * 1.3), (1, 1, decay), (1.183, 0.35 * brightness, decay * 0.7), (1.506, 0.25 * brightness, decay * 0.6),
         (2, 0.2 * brightness, decay * 0.45), (2.514, 0.08 * brightness, decay * 0.3), (3.011, 0.04 * brightness, decay * 0.2)]
    }

    /// A short mechanical click: a few damped resonances and a touch of noise, with a
    /// half-millisecond onset (a click, never a step).
    public static func click(_ modes: [(frequency: Double, amplitude: Double, decay: Double)], noise: Double = 0.2,
                             seconds: Double = 0.08, sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        let n = Int(seconds * sr)
        var out = [Double](repeating: 0, count: n)
        for m in modes {
            let w = 2 * Double.pi * m.frequency / sr
            let phase = random.uniform(0...6.28)
            for i in 0..<n { out[i] += m.amplitude * exp(-Double(i) / (m.decay * sr)) * sin(w * Double(i) + phase) }
        }
        var lp = Biquad(.lowpass, frequency: 6000, q: 0.7, sampleRate: sr)
        for i in 0..<n {
            let burst = noise * random.bipolar() * exp(-Double(i) / (0.0015 * sr))
            out[i] = lp.process(out[i] + burst) * min(1, Double(i) / (0.0005 * sr))
        }
        return out
    }

    /// Adds `sound` into `out` at `seconds` (no wrap: one-shots).
    public static func place(_ sound: [Double], into out: inout [Double], at seconds: Double, gain: Double = 1,
                             sampleRate sr: Double) {
        let start = Int(seconds * sr)
        for (i, v) in sound.enumerated() where start + i < out.count { out[start + i] += v * gain }
    }
}
