import Glibc

/// Small, exact measurements on sample arrays, for the tests.
///
/// Thread: pure functions; any thread (they allocate only for their results, never call
/// them on the render thread).
public enum SignalAnalysis {
    /// Root-mean-square level of `samples`.
    public static func rms<C: Collection>(_ samples: C) -> Double where C.Element == Float {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for s in samples { sum += Double(s) * Double(s) }
        return (sum / Double(samples.count)).squareRoot()
    }

    /// Largest absolute sample value.
    public static func peak<C: Collection>(_ samples: C) -> Double where C.Element == Float {
        var p = 0.0
        for s in samples { p = max(p, abs(Double(s))) }
        return p
    }

    /// Estimates the frequency of a steady tone by counting rising zero crossings with
    /// sub-sample (linear) interpolation between the first and the last crossing.
    /// Accurate to well under 0.1 % for a clean sine of a few hundred cycles.
    public static func zeroCrossingFrequency(_ samples: [Float], sampleRate: Double) -> Double? {
        var first: Double?
        var last = 0.0
        var crossings = 0
        for i in 1..<max(1, samples.count) where samples[i - 1] < 0 && samples[i] >= 0 {
            let a = Double(samples[i - 1]), b = Double(samples[i])
            let t = Double(i - 1) + (-a) / (b - a)
            if first == nil { first = t } else { crossings += 1 }
            last = t
        }
        guard let f = first, crossings > 0 else { return nil }
        return Double(crossings) * sampleRate / (last - f)
    }

    /// Signal-to-noise-and-distortion ratio in dB of a sine of known `frequency`: fits the
    /// best sine of that frequency (least squares, with phase) and compares the residual.
    public static func sinad(_ samples: [Float], frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        var ss = 0.0, cc = 0.0, sc = 0.0, xs = 0.0, xc = 0.0
        for (i, x) in samples.enumerated() {
            let s = sin(w * Double(i)), c = cos(w * Double(i))
            ss += s * s; cc += c * c; sc += s * c
            xs += Double(x) * s; xc += Double(x) * c
        }
        let det = ss * cc - sc * sc
        guard det != 0 else { return 0 }
        let a = (xs * cc - xc * sc) / det
        let b = (xc * ss - xs * sc) / det
        var sig = 0.0, noise = 0.0
        for (i, x) in samples.enumerated() {
            let fit = a * sin(w * Double(i)) + b * cos(w * Double(i))
            sig += fit * fit
            let r = Double(x) - fit
            noise += r * r
        }
        guard noise > 0 else { return .infinity }
        return 10 * log10(sig / noise)
    }
}

extension SignalAnalysis {
    /// Where `reference` begins in `recording` (both interleaved with `channels`), in frames:
    /// roughly at their onsets (the first sample above `threshold`), then exactly at the lag
    /// within ±256 frames of it whose next 0.2 s differ least (cross-correlation as the
    /// squared difference). nil when either never rises above the threshold.
    public static func alignment(of reference: [Float], in recording: [Float], channels: Int,
                                 threshold: Float = 1e-4, sampleRate: Int = 48000) -> Int? {
        guard let r = reference.firstIndex(where: { abs($0) > threshold }),
              let h = recording.firstIndex(where: { abs($0) > threshold }) else { return nil }
        let start = r / channels * channels
        let end = min(reference.count, start + sampleRate / 5 * channels)
        let rough = h / channels - r / channels
        var best = (lag: rough, error: Double.infinity)
        for lag in max(-start / channels, rough - 256)...(rough + 256) {
            var error = 0.0
            for i in start..<end {
                let j = i + lag * channels
                guard j < recording.count else { error = .infinity; break }
                let d = Double(recording[j] - reference[i])
                error += d * d
            }
            if error < best.error { best = (lag, error) }
        }
        return best.error.isFinite ? best.lag : nil
    }
}
