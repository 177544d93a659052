import CabinAudio
import CabinJSON

/// How a loop's wrap compares with its body: the jump from the last frame back to the
/// first against the largest (and the 99.9th-percentile) frame-to-frame step inside the
/// loop. A seam is clean when its step is no larger than the body's own largest step.
///
/// Thread: a value; any thread except the render thread.
public struct LoopSeam: Sendable, Equatable, CustomStringConvertible {
    /// Largest |x[start] − x[end−1]| over the channels.
    public var seamStep: Double
    /// Largest |x[i+1] − x[i]| inside the loop, over the channels.
    public var bodyMaxStep: Double
    /// The 99.9th percentile of the body's steps (its "normal" motion), to 1/4096.
    public var bodyTypicalStep: Double
    /// Largest second difference across the wrap (a kink in slope), over the channels.
    public var seamBend = 0.0
    /// The 99.9th percentile of the body's second differences, to 1/4096.
    public var bodyTypicalBend = 0.0

    /// Stricter than `isSeamless`: the wrap's step and bend are both within the body's
    /// 99.9th percentiles, i.e. nothing at the seam stands out from ordinary motion.
    public var isInconspicuous: Bool { seamStep <= bodyTypicalStep && seamBend <= bodyTypicalBend }

    /// Whether the seam is clean: the wrap's step is no larger than the body's largest step.
    public var isSeamless: Bool { seamStep <= bodyMaxStep }

    /// Measures the loop `loopStart ..< loopEnd` of `buffer` (nil `loopEnd`: the buffer's
    /// end); the loop must be at least 2 frames and inside the buffer (a precondition).
    public static func measure(_ buffer: AudioBuffer, loopStart: Int = 0, loopEnd: Int? = nil) -> LoopSeam {
        let end = loopEnd ?? buffer.frameCount
        let ch = buffer.channelCount
        precondition(end - loopStart >= 2 && end <= buffer.frameCount)
        var seam = 0.0, bodyMax = 0.0, bend = 0.0
        // Steps and bends are at most 2 and 4; histograms of 1/4096 bins give percentiles
        // without a sort.
        var steps = Histogram(), bends = Histogram()
        buffer.samples.withUnsafeBufferPointer { s in
            func x(_ i: Int, _ c: Int) -> Double { Double(s[i * ch + c]) }
            for c in 0..<ch {
                seam = max(seam, abs(x(loopStart, c) - x(end - 1, c)))
                bend = max(bend, abs(x(loopStart + 1, c) - 2 * x(loopStart, c) + x(end - 1, c)),
                           abs(x(loopStart, c) - 2 * x(end - 1, c) + x(end - 2, c)))
                for i in loopStart..<(end - 1) {
                    let d = abs(x(i + 1, c) - x(i, c))
                    steps.add(d)
                    bodyMax = max(bodyMax, d)
                    if i + 2 < end { bends.add(abs(x(i + 2, c) - 2 * x(i + 1, c) + x(i, c))) }
                }
            }
        }
        var result = LoopSeam(seamStep: seam, bodyMaxStep: bodyMax, bodyTypicalStep: min(steps.percentile(0.999), bodyMax))
        result.seamBend = bend
        result.bodyTypicalBend = bends.percentile(0.999)
        return result
    }

    private struct Histogram {
        var bins = [Int](repeating: 0, count: 16385)
        var count = 0
        mutating func add(_ v: Double) {
            bins[min(bins.count - 1, Int(v * 4096))] += 1
            count += 1
        }
        func percentile(_ p: Double) -> Double {
            var below = 0
            for (bin, n) in bins.enumerated() {
                below += n
                if Double(below) >= Double(count) * p { return Double(bin + 1) / 4096 }
            }
            return Double(bins.count) / 4096
        }
    }

    /// The five measures on one line, rounded to 5 decimals: `seam step …, body max …,
    /// body 99.9% …; seam bend …, body 99.9% …`.
    public var description: String {
        "seam step \(Self.format(seamStep)), body max \(Self.format(bodyMaxStep)), body 99.9% \(Self.format(bodyTypicalStep)); "
            + "seam bend \(Self.format(seamBend)), body 99.9% \(Self.format(bodyTypicalBend))"
    }

    private static func format(_ x: Double) -> String { NumberText.decimals(x, 5) }
}

extension LoopSeam {
    /// The best place to splice a loop of fixed length in a decoded lossy file that holds
    /// the loop with its own tail before it and its head after it: the offset `d` (within
    /// ±`search` frames) for which the frames around `end + d` best match those around
    /// `start + d`, i.e. where the codec coded the head the same way both times. Playing
    /// `start + d ..< end + d` then wraps from one coding of the sound into the same one.
    public static func bestSplice(_ buffer: AudioBuffer, start: Int, end: Int, search: Int, window: Int = 32) -> Int {
        let ch = buffer.channelCount
        let low = max(-search, window - start), high = min(search, buffer.frameCount - end - window)
        guard low <= high else { return 0 }
        var best = 0, bestError = Double.infinity
        buffer.samples.withUnsafeBufferPointer { s in
            for d in low...high {
                var error = 0.0
                for k in -window..<window {
                    for c in 0..<ch {
                        let e = Double(s[(start + d + k) * ch + c] - s[(end + d + k) * ch + c])
                        error += e * e
                    }
                }
                if error < bestError { bestError = error; best = d }
            }
        }
        return best
    }
}
