import Glibc

/// Estimates the true (inter-sample) peak of a stereo stream by 4× oversampling: for each
/// frame m it interpolates m + ¼, m + ½, m + ¾ with a 12-tap-per-phase windowed-sinc
/// polyphase filter (48 taps in all, like the ITU-R BS.1770 / libebur128 true-peak meter)
/// and returns the largest magnitude of the interval [m, m + 1) over both channels.
///
/// The interpolator needs six frames after m, so `push` reports the interval that began
/// `delay` frames before the frame just pushed.
///
/// Quiet shortcut: no interpolated value can exceed the window's largest sample times the
/// largest kernel's sum of |coefficients|. While all 12 frames in the window are below
/// `quietLevel` divided by that sum, the true peak is certainly below `quietLevel`, so
/// `push` skips the filter and returns 0. (The limiter only asks "above the ceiling?",
/// so its output is the same either way.)
///
/// Thread: render thread only after `init`.
struct TruePeakDetector {
    static let taps = 12
    /// Frames between the frame pushed and the interval reported.
    static let delay = 6

    /// Three phases × 12 taps: phase p (¼, ½, ¾) at `coefficients[p * 12 + j]`, tap j
    /// applying to frame m − 5 + j.
    private let coefficients: UnsafeMutablePointer<Float>
    /// Each channel's last 12 frames, written twice (at i and i + 12) so that a window is
    /// always contiguous.
    private let history: UnsafeMutablePointer<Float>
    private var index = 0
    /// Frames below `quietSample` in a row.
    private var quietRun = 0
    private var quietSample: Float = 0

    init(quietLevel: Double) {
        let n = TruePeakDetector.taps
        coefficients = .allocate(capacity: 3 * n)
        for p in 1...3 {
            let frac = Double(p) / 4
            var row = [Double](repeating: 0, count: n)
            for j in 0..<n {
                let u = frac - Double(j - 5)  // distance from the tap to the point
                let sinc = u == 0 ? 1 : sin(Double.pi * u) / (Double.pi * u)
                // Blackman-Harris-like raised cosine over ±6 frames.
                let w = 0.5 * (1 + cos(Double.pi * u / 6.5))
                row[j] = sinc * w
            }
            let sum = row.reduce(0, +)
            for j in 0..<n { coefficients[(p - 1) * n + j] = Float(row[j] / sum) }
        }
        // The bound must hold for the worst phase: use the smallest threshold.
        quietSample = Float(quietLevel) * 0.999 / Float(TruePeakDetector.largestGain(coefficients))
        history = .allocate(capacity: 4 * n)
        history.initialize(repeating: 0, count: 4 * n)
    }

    func deallocate() {
        coefficients.deallocate()
        history.deallocate()
    }

    /// Pushes frame (l, r); returns the true-peak estimate of the interval starting
    /// `delay` frames earlier.
    ///
    /// Render thread: safe.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func push(_ l: Float, _ r: Float) -> Double {
        let n = TruePeakDetector.taps
        let left = history, right = history + 2 * n
        left[index] = l; left[index + n] = l
        right[index] = r; right[index + n] = r
        index += 1
        if index == n { index = 0 }
        if max(abs(l), abs(r)) < quietSample {
            quietRun += 1
            if quietRun >= n { return 0 }
        } else {
            quietRun = 0
        }
        // Oldest of the last 12 frames is at `index`: window[j] = frame m − 5 + j.
        let wl = left + index, wr = right + index
        var peak = max(abs(wl[5]), abs(wr[5]))
        for p in 0..<3 {
            let c = coefficients + p * n
            var sl: Float = 0, sr: Float = 0
            for j in 0..<n {
                sl += c[j] * wl[j]
                sr += c[j] * wr[j]
            }
            peak = max(peak, max(abs(sl), abs(sr)))
        }
        return Double(peak)
    }

    /// True when pushing these `frameCount` interleaved frames would take the quiet
    /// shortcut on every one of them (each push returning 0): the last 11 frames pushed and
    /// all of these are below the quiet threshold.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func isQuiet(_ input: UnsafePointer<Float>, frameCount: Int) -> Bool {
        quietRun + 1 >= TruePeakDetector.taps
            && BlockMath.allBelow(input, count: 2 * frameCount, limit: quietSample)
    }

    /// Pushes frames for which `isQuiet` holds: the same state as `push` on each of them
    /// (all of which would return 0), without the filter.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func pushQuiet(_ input: UnsafePointer<Float>, frameCount: Int) {
        let n = TruePeakDetector.taps
        let left = history, right = history + 2 * n
        // Only the last 12 frames stay in the history; skip the ones they overwrite.
        let skipped = max(0, frameCount - n)
        index = (index + skipped) % n
        for i in skipped..<frameCount {
            let l = input[2 * i], r = input[2 * i + 1]
            left[index] = l; left[index + n] = l
            right[index] = r; right[index + n] = r
            index += 1
            if index == n { index = 0 }
        }
        quietRun += frameCount
    }

    /// The largest sum of |coefficients| over the three phases.
    private static func largestGain(_ c: UnsafeMutablePointer<Float>) -> Double {
        var largest = 1.0
        for p in 0..<3 {
            var sum = 0.0
            for j in 0..<taps { sum += Double(abs(c[p * taps + j])) }
            largest = max(largest, sum)
        }
        return largest
    }
}

/// Running minimum over the last `window` values (a monotonic wedge: O(1) amortised per
/// value, fixed storage).
///
/// Thread: render thread only after `init`.
struct SlidingMinimum {
    let window: Int
    private let values: UnsafeMutablePointer<Double>
    private let stamps: UnsafeMutablePointer<Int>
    private var head = 0, count = 0, time = 0

    init(window: Int) {
        self.window = window
        values = .allocate(capacity: window + 1)
        values.initialize(repeating: 0, count: window + 1)
        stamps = .allocate(capacity: window + 1)
        stamps.initialize(repeating: 0, count: window + 1)
    }

    func deallocate() {
        values.deallocate()
        stamps.deallocate()
    }

    /// Adds `x`; returns the minimum of the last `window` values.
    ///
    /// Render thread: safe.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func push(_ x: Double) -> Double {
        let capacity = window + 1
        // Drop larger-or-equal values from the back: they can never be the minimum again.
        while count > 0 && values[wrapped(head + count - 1, capacity)] >= x { count -= 1 }
        let back = wrapped(head + count, capacity)
        values[back] = x
        stamps[back] = time
        count += 1
        // Drop the front once it leaves the window.
        if stamps[head] <= time - window {
            head = wrapped(head + 1, capacity)
            count -= 1
        }
        time += 1
        return values[head]
    }

    /// The current minimum, if any value has been pushed.
    var minimum: Double? { count > 0 ? values[head] : nil }

    /// Pushes `x` `times` times, where `x` is the current minimum: the same state as that
    /// many `push(x)` calls (each drops every value, all ≥ x, and leaves x alone at the
    /// front).
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func pushMinimum(_ x: Double, times: Int) {
        guard times > 0 else { return }
        values[head] = x
        stamps[head] = time + times - 1
        count = 1
        time += times
    }

    /// `i mod capacity` for 0 ≤ i < 2·capacity (a compare instead of a division).
    @inline(__always) private func wrapped(_ i: Int, _ capacity: Int) -> Int {
        i >= capacity ? i - capacity : i
    }
}
