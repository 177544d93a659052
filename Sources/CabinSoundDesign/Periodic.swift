import CabinAudio
import Glibc

/// Building blocks for loops that are seamless by construction: every part of a loop is
/// periodic in the loop length, so the last sample leads into the first exactly as any
/// sample leads into the next.
///
/// - Filters run over the loop once to warm up and again for the result, so their state
///   at the end of the loop is their state at its start (tails wrap around).
/// - Events (a passing car, a raindrop) are added modulo the loop length.
/// - Modulators are sums of sinusoids with a whole number of cycles per loop.
///
/// Thread: pure functions; any thread except the render thread.
public enum Periodic {
    /// `x` filtered as if it repeated forever. `process` is one filter step with its own
    /// state (a closure over a `Biquad`, a chain, …).
    public static func filter(_ x: [Double], _ process: (Double) -> Double) -> [Double] {
        for v in x { _ = process(v) }
        return x.map(process)
    }

    /// Adds `event` (scaled by `gain`) into `x` starting at `start`, wrapping at the end.
    public static func add(_ event: [Double], into x: inout [Double], at start: Int, gain: Double = 1) {
        let n = x.count
        guard n > 0 else { return }
        var j = ((start % n) + n) % n
        for v in event {
            x[j] += v * gain
            j += 1
            if j == n { j = 0 }
        }
    }

    /// A smooth periodic modulator in −1…1 made of `partials` sinusoids with 1…`maxCycles`
    /// whole cycles per loop and random phases.
    public static func wander(frames: Int, maxCycles: Int, partials: Int = 4, random: inout SeededRandom) -> [Double] {
        var out = [Double](repeating: 0, count: frames)
        var total = 0.0
        for k in 0..<partials {
            let cycles = Double(1 + random.int(0...max(0, maxCycles - 1)))
            let phase = random.uniform(0...(2 * Double.pi))
            let amp = 1.0 / Double(k + 1)
            total += amp
            // A rotating phasor (two multiplies a frame instead of a sine), re-anchored every
            // 4096 frames so rounding never drifts.
            let w = 2 * Double.pi * cycles / Double(frames)
            let cw = cos(w), sw = sin(w)
            var s = 0.0, c = 0.0
            for i in 0..<frames {
                if i % 4096 == 0 {
                    s = sin(w * Double(i) + phase)
                    c = cos(w * Double(i) + phase)
                }
                out[i] += amp * s
                (s, c) = (s * cw + c * sw, c * cw - s * sw)
            }
        }
        return out.map { $0 / total }
    }

    /// The frequency nearest `frequency` that completes a whole number of cycles in
    /// `frames` (so a sine of it loops without a seam).
    public static func snap(_ frequency: Double, frames: Int, sampleRate: Double) -> Double {
        let cycles = max(1, (frequency * Double(frames) / sampleRate).rounded())
        return cycles * sampleRate / Double(frames)
    }
}

/// Noise sources (arrays of Double, −1…1 for white).
public enum Noise {
    /// `frames` samples of white noise, each uniform in −1…1, drawn from `random`.
    public static func white(_ frames: Int, random: inout SeededRandom) -> [Double] {
        (0..<frames).map { _ in random.bipolar() }
    }

    /// Pink noise (Paul Kellet's filter), periodic in `frames` when `periodic`.
    public static func pink(_ frames: Int, random: inout SeededRandom, periodic: Bool = true) -> [Double] {
        let w = white(frames, random: &random)
        var b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0, b4 = 0.0, b5 = 0.0, b6 = 0.0
        let step: (Double) -> Double = { x in
            b0 = 0.99886 * b0 + x * 0.0555179; b1 = 0.99332 * b1 + x * 0.0750759
            b2 = 0.96900 * b2 + x * 0.1538520; b3 = 0.86650 * b3 + x * 0.3104856
            b4 = 0.55000 * b4 + x * 0.5329522; b5 = -0.7616 * b5 - x * 0.0168980
            let y = b0 + b1 + b2 + b3 + b4 + b5 + b6 + x * 0.5362
            b6 = x * 0.115926
            return y * 0.11
        }
        return periodic ? Periodic.filter(w, step) : w.map(step)
    }

    /// Brown(ian) noise: leaky-integrated white noise, for rumbles.
    public static func brown(_ frames: Int, random: inout SeededRandom, periodic: Bool = true) -> [Double] {
        let w = white(frames, random: &random)
        var y = 0.0
        let step: (Double) -> Double = { x in
            y = 0.997 * y + 0.06 * x
            return y
        }
        return periodic ? Periodic.filter(w, step) : w.map(step)
    }
}

extension Array where Element == Double {
    /// Filters through a biquad, periodically (loops) or from silence (one-shots).
    public func filtered(_ kind: Biquad.Kind, _ frequency: Double, q: Double = 0.7071, sampleRate: Double,
                         periodic: Bool) -> [Double] {
        var f = Biquad(kind, frequency: frequency, q: q, sampleRate: sampleRate)
        return periodic ? Periodic.filter(self) { f.process($0) } : self.map { f.process($0) }
    }

    /// Element-wise sum (the shorter array is treated as zero-padded).
    public func mixed(with other: [Double], gain: Double = 1) -> [Double] {
        var out = self.count >= other.count ? self : other.map { $0 * gain }
        if self.count >= other.count {
            for i in other.indices { out[i] += other[i] * gain }
        } else {
            for i in self.indices { out[i] += self[i] }
        }
        return out
    }

    /// Every element times `gain` (linear).
    public func scaled(_ gain: Double) -> [Double] { map { $0 * gain } }

    /// The largest |element| (0 for an empty array).
    public var peakMagnitude: Double { reduce(0) { Swift.max($0, abs($1)) } }
}
