import Testing
import CabinAudio

/// The limiter's running minimum (van Herk / Gil-Werman blocks) against the minimum of the
/// last `window` values taken directly, with runs of the current minimum pushed at once.
@Suite struct SlidingMinimumTests {
    @Test(arguments: [1, 2, 7, 72, 100])
    func isTheMinimumOfTheLastWindowValues(window: Int) {
        var random = SeededRandom(seed: UInt64(window))
        var steps: [(value: Double?, times: Int)] = [(0.5, 0)]
        for _ in 0..<4_000 {
            let r = random.unit()
            if r < 0.03 {
                // A run of the current minimum: short, around a window, around two, long.
                let lengths = [1, 3, window - 1, window, window + 1, 2 * window - 1, 2 * window, 2 * window + 5, 7 * window + 3]
                steps.append((nil, max(1, lengths[Int(random.unit() * Double(lengths.count)) % lengths.count])))
            } else if r < 0.06, let last = steps.last, last.value == nil {
                steps.append((nil, 1 + Int(random.unit() * Double(3 * window))))  // another run: the fast path
            } else {
                // Values with repeats (the follower holds and releases) and falls.
                let x = r < 0.5 ? (random.unit() * 8).rounded() / 8 : random.unit()
                steps.append((x, 0))
            }
        }
        let got = SlidingMinimumCheck.minima(window: window, steps: steps)
        var history: [Double] = []
        var firstDifference: Int?
        for (k, step) in steps.enumerated() {
            if let x = step.value {
                history.append(x)
            } else {
                let x = history.suffix(window).min()!
                history += repeatElement(x, count: step.times)
            }
            if history.count > 4 * window + 64 { history.removeFirst(history.count - window) }
            let expected = history.suffix(window).min()!
            if got[k] != expected, firstDifference == nil { firstDifference = k }
        }
        #expect(firstDifference == nil, "window \(window): step \(firstDifference ?? -1) differs")
        #expect(steps.contains { $0.value == nil })
    }
}
