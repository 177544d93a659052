import CabinAudio

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

    public var isSeamless: Bool { seamStep <= bodyMaxStep }

    public static func measure(_ buffer: AudioBuffer, loopStart: Int = 0, loopEnd: Int? = nil) -> LoopSeam {
        let end = loopEnd ?? buffer.frameCount
        let ch = buffer.channelCount
        precondition(end - loopStart >= 2 && end <= buffer.frameCount)
        var seam = 0.0, bodyMax = 0.0
        // Steps are at most 2; a histogram of 1/4096 bins gives the percentile without a sort.
        let bins = 8192
        var histogram = [Int](repeating: 0, count: bins + 1)
        var count = 0
        buffer.samples.withUnsafeBufferPointer { s in
            for c in 0..<ch {
                seam = max(seam, Double(abs(s[loopStart * ch + c] - s[(end - 1) * ch + c])))
                for i in loopStart..<(end - 1) {
                    let d = abs(s[(i + 1) * ch + c] - s[i * ch + c])
                    histogram[min(bins, Int(d * 4096))] += 1
                    count += 1
                    bodyMax = max(bodyMax, Double(d))
                }
            }
        }
        var below = 0, typical = 0.0
        for (bin, n) in histogram.enumerated() {
            below += n
            if Double(below) >= Double(count) * 0.999 { typical = Double(bin + 1) / 4096; break }
        }
        return LoopSeam(seamStep: seam, bodyMaxStep: bodyMax, bodyTypicalStep: min(typical, bodyMax))
    }

    public var description: String {
        "seam step \(Self.format(seamStep)), body max \(Self.format(bodyMaxStep)), body 99.9% \(Self.format(bodyTypicalStep))"
    }

    private static func format(_ x: Double) -> String { String(Double(Int(x * 1e5)) / 1e5) }
}
