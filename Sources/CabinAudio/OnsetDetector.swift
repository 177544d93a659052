import Glibc

/// Where a sound's events begin, and what its spectrum is like while it plays.
///
/// Onsets are found as librosa's `onset_detect` and aubio's `specflux` find them: the
/// spectral flux of log-compressed magnitudes (`log(1 + 100·|X|)`, |X| relative to a
/// full-scale sine of the sound's peak; Hann frames of ~21 ms centred every 2 ms), taken as
/// SuperFlux takes it (Böck & Widmer 2013: each bin's rise over the largest of it and its two
/// neighbours two frames before, so a steady tone's frame-to-frame ripple is no onset),
/// normalised to 0…1, and a peak-picker with an adaptive threshold (librosa's defaults): a
/// frame is an onset when it is the largest of the 30 ms before it and the next frame, at
/// least ``Options/threshold`` above the mean of the 100 ms either side, and 30 ms after the
/// previous onset. A frame is 2 ms and a window 21 ms, so each onset is then placed to the
/// sample: within the window that saw it rise, at the instant `u` where the energy of the
/// next 4 ms over the 4 ms before is largest — where the sound starts something new.
///
/// ```swift
/// let onsets = OnsetDetector.detect(samples, sampleRate: 48_000)   // [Onset(time: 0.5, strength: 1)]
/// ```
///
/// Thread: pure functions; any thread except the render thread (allocates).
public enum OnsetDetector {
    /// The peak-picker's settings.
    public struct Options: Sendable, Hashable {
        /// How far above its local mean (100 ms either side) the normalised flux must peak,
        /// 0…1 (librosa's `delta`, 0.07): higher finds only the stronger onsets.
        public var threshold: Double
        /// The least time between two onsets (30 ms).
        public var minimumGap: Double

        /// Settings with `threshold` (0…1) and `minimumGap` (seconds).
        public init(threshold: Double = 0.07, minimumGap: Double = 0.03) {
            self.threshold = threshold
            self.minimumGap = minimumGap
        }
    }

    /// An onset: its time in seconds and its normalised flux peak (0…1, the strongest 1).
    public struct Onset: Sendable, Hashable {
        /// Seconds from the sound's start, placed to the sample.
        public var time: Double
        /// The normalised flux peak, 0…1 (the sound's strongest onset 1).
        public var strength: Double
    }

    /// The frames the detector looks at: every `hop` s, a frame centred there with its
    /// flux (normalised 0…1) and spectral centroid in Hz (0 in silence).
    public struct Frames: Sendable, Hashable {
        /// Seconds between frame centres (2 ms rounded to whole samples); frame `i` is centred at `i × hop`.
        public var hop: Double
        /// Each frame's spectral flux, normalised 0…1.
        public var flux: [Double]
        /// Each frame's spectral centroid in Hz (0 in silence).
        public var centroid: [Double]
        /// Each frame's power (mean square of its windowed samples).
        public var power: [Double]
    }

    /// The onsets of a mono `samples` at `sampleRate`, in time order.
    public static func detect(_ samples: [Float], sampleRate: Double, options: Options = .init()) -> [Onset] {
        detect(samples, sampleRate: sampleRate, frames: frames(samples, sampleRate: sampleRate), options: options)
    }

    /// The same, from frames already analysed.
    public static func detect(_ samples: [Float], sampleRate: Double, frames: Frames, options: Options = .init()) -> [Onset] {
        let flux = frames.flux
        let hopSamples = frames.hop * sampleRate
        func count(_ seconds: Double) -> Int { max(1, Int((seconds / frames.hop).rounded())) }
        let preMax = count(0.03), average = count(0.1), wait = count(options.minimumGap)
        var energy = [Double](repeating: 0, count: samples.count + 1)
        for (i, x) in samples.enumerated() { energy[i + 1] = energy[i] + Double(x) * Double(x) }
        var onsets: [Onset] = []
        var last = Int.min / 2
        for i in flux.indices where flux[i] > 0 && i - last > wait {
            let window = flux[max(0, i - preMax)...min(flux.count - 1, i + 1)]
            guard flux[i] >= window.max()! else { continue }
            let around = flux[max(0, i - average)...min(flux.count - 1, i + average)]
            guard flux[i] >= around.reduce(0, +) / Double(around.count) + options.threshold else { continue }
            let centre = Int((Double(i) * hopSamples).rounded())
            let half = frameLength(sampleRate) / 2
            let time = Double(rise(energy, from: centre - half - Int(hopSamples), to: centre + half, sampleRate: sampleRate)) / sampleRate
            if let previous = onsets.last, time - previous.time < options.minimumGap {
                if flux[i] > previous.strength { onsets[onsets.count - 1] = Onset(time: time, strength: flux[i]) }
            } else {
                onsets.append(Onset(time: time, strength: flux[i]))
            }
            last = i
        }
        return onsets
    }

    /// The frame length for a rate: the power of two nearest 21.3 ms (1024 at 48 kHz).
    static func frameLength(_ sampleRate: Double) -> Int {
        var n = 64
        while Double(n) * 1.5 < 0.021_333 * sampleRate { n *= 2 }
        return n
    }

    /// The sample in `from..<to` where the energy of the next 4 ms over the 4 ms before is
    /// largest (`energy` is the running sum of squares).
    static func rise(_ energy: [Double], from: Int, to: Int, sampleRate: Double) -> Int {
        let n = energy.count - 1
        let w = max(1, Int(0.004 * sampleRate))
        let floor = 1e-12 * Double(w) + (energy[n] / Double(max(1, n))) * Double(w) * 1e-6
        var best = max(0, from), bestRatio = -Double.infinity
        for u in max(0, from)..<max(max(0, from) + 1, min(n, to)) {
            let next = energy[min(n, u + w)] - energy[u]
            let before = energy[u] - energy[max(0, u - w)]
            let ratio = (next + floor) / (before + floor)
            if ratio > bestRatio {
                bestRatio = ratio
                best = u
            }
        }
        return best
    }

    /// The analysis frames of `samples` (see the type).
    public static func frames(_ samples: [Float], sampleRate: Double) -> Frames {
        let n = frameLength(sampleRate)
        let hop = max(1, Int((0.002 * sampleRate).rounded()))
        let count = samples.isEmpty ? 0 : samples.count / hop + 1
        let window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
        // The last two frames' levels, each max-filtered over 3 bins (SuperFlux's reference).
        var history = [[Double]](repeating: [Double](repeating: 0, count: n / 2 + 1), count: 2)
        var level = [Double](repeating: 0, count: n / 2 + 1)
        let peak = Double(samples.reduce(Float(0)) { max($0, abs($1)) })
        let scale = 4 / (Double(n) * max(peak, 1e-12))
        var flux = [Double](repeating: 0, count: count)
        var centroid = [Double](repeating: 0, count: count)
        var power = [Double](repeating: 0, count: count)
        var re = [Double](repeating: 0, count: n), im = re
        for f in 0..<count {
            let start = f * hop - n / 2
            var sum = 0.0
            for k in 0..<n {
                let j = start + k
                re[k] = j >= 0 && j < samples.count ? Double(samples[j]) * window[k] : 0
                im[k] = 0
                sum += re[k] * re[k]
            }
            power[f] = sum / Double(n)
            FFT.transform(&re, &im)
            var rise = 0.0, weighted = 0.0, total = 0.0
            let reference = history[f % 2]   // two frames back
            for b in 0...(n / 2) {
                let magnitude = (re[b] * re[b] + im[b] * im[b]).squareRoot()
                level[b] = log(1 + 100 * magnitude * scale)
                rise += max(0, level[b] - reference[b])
                weighted += magnitude * magnitude * Double(b) * sampleRate / Double(n)
                total += magnitude * magnitude
            }
            for b in 0...(n / 2) {
                history[f % 2][b] = max(level[b], b > 0 ? level[b - 1] : 0, b < n / 2 ? level[b + 1] : 0)
            }
            flux[f] = rise
            centroid[f] = total > 1e-20 ? weighted / total : 0
        }
        // The first frames rise from nothing: their flux is the level they start at.
        let low = flux.min() ?? 0, high = flux.max() ?? 0
        if high > low { flux = flux.map { ($0 - low) / (high - low) } } else { flux = flux.map { _ in 0 } }
        return Frames(hop: Double(hop) / sampleRate, flux: flux, centroid: centroid, power: power)
    }
}
