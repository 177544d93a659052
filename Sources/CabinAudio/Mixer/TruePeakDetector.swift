import Glibc

/// Estimates the true (inter-sample) peak of a stereo stream by 4× oversampling: for each
/// frame m it interpolates m + ¼, m + ½, m + ¾ with a 12-tap-per-phase windowed-sinc
/// polyphase filter (48 taps in all, like the ITU-R BS.1770 / libebur128 true-peak meter)
/// and takes the largest magnitude of the interval [m, m + 1) over both channels.
///
/// The interpolator needs six frames after m, so the estimate for the interval that began
/// `delay` frames before a frame comes with that frame.
///
/// Block-based: `measure` takes up to `chunkFrames` frames, deinterleaves them behind the
/// last 11 frames and interpolates eight frames at a time with SIMD vectors — each lane
/// doing exactly the scalar filter's operations in its order (`sum += c[j] * x[j]` from
/// j = 0, no fused multiply-add), so every estimate is bit-identical to the frame-by-frame
/// scalar filter.
///
/// Skipping: no interpolated value can exceed the window's largest sample times the largest
/// kernel's sum of |coefficients| (`gainBound`, 1.92). The caller says which estimates it
/// needs (those at or above a `threshold`); a group of eight frames whose 19-frame window
/// keeps every bound below it is not interpolated and reports 0. The same bound with the
/// ceiling as threshold is the quiet test the limiter uses to pass whole blocks.
///
/// Thread: render thread only after `init`.
struct TruePeakDetector {
    static let taps = 12
    /// Frames between the frame pushed and the interval reported.
    static let delay = 6
    /// Most frames `measure` takes at once.
    static let chunkFrames = 64
    /// Frames of history kept before a chunk (a window is 12 frames).
    static let history = taps - 1

    /// Three phases × 12 taps: phase p (¼, ½, ¾) at `coefficients[p * 12 + j]`, tap j
    /// applying to frame m − 5 + j.
    private let coefficients: UnsafeMutablePointer<Float>
    /// Each channel deinterleaved: the last 11 frames, then the chunk being measured (and
    /// room for a vector's overrun).
    private let left: UnsafeMutablePointer<Float>
    private let right: UnsafeMutablePointer<Float>
    /// max(|left|, |right|) per frame of `left`/`right`.
    private let magnitudes: UnsafeMutablePointer<Float>
    /// A sample below this gives an estimate below the quiet level.
    let quietSample: Float
    /// The largest sum of |coefficients| over the three phases (at least 1).
    let gainBound: Double

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
        gainBound = TruePeakDetector.largestGain(coefficients)
        // The bound must hold for the worst phase: use the smallest threshold.
        quietSample = Float(quietLevel) * 0.999 / Float(gainBound)
        let capacity = TruePeakDetector.history + TruePeakDetector.chunkFrames + 8
        left = .zeroed(capacity)
        right = .zeroed(capacity)
        magnitudes = .zeroed(capacity)
    }

    func deallocate() {
        coefficients.deallocate()
        left.deallocate()
        right.deallocate()
        magnitudes.deallocate()
    }

    /// Measures `frameCount` (1…`chunkFrames`) interleaved frames: `peaks[i]` is the true-peak
    /// estimate of the interval that began `delay` frames before frame i — exactly the
    /// scalar filter's — or 0 where it is certainly below `threshold`.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func measure(_ input: UnsafePointer<Float>, frameCount n: Int, threshold: Double,
                          into peaks: UnsafeMutablePointer<Float>) {
        let h = TruePeakDetector.history
        var i = 0
        while i + 8 <= n {
            let v = UnsafeRawPointer(input + 2 * i).loadUnaligned(as: SIMD16<Float>.self)
            let l = v.evenHalf, r = v.oddHalf
            store8(l, left + h + i)
            store8(r, right + h + i)
            var a = abs8(l)
            let b = abs8(r)
            a.replace(with: b, where: b .> a)
            store8(a, magnitudes + h + i)
            i += 8
        }
        while i < n {
            let l = input[2 * i], r = input[2 * i + 1]
            left[h + i] = l
            right[h + i] = r
            magnitudes[h + i] = max(abs(l), abs(r))
            i += 1
        }
        // A group is skipped when its window's largest sample, times the bound (with room
        // for the filter's rounding), stays below the threshold.
        let cut = threshold / (gainBound * (1 + 1e-5))
        var g = 0
        while g < n {
            let count = min(8, n - g)
            // The window [g, g + count + 11) in three overlapping vectors.
            var m = load8(magnitudes + g)
            let middle = load8(magnitudes + g + min(8, count + 3)), end = load8(magnitudes + g + count + 3)
            m.replace(with: middle, where: middle .> m)
            m.replace(with: end, where: end .> m)
            let largest = max(max(max(m[0], m[1]), max(m[2], m[3])), max(max(m[4], m[5]), max(m[6], m[7])))
            if Double(largest) < cut {
                for k in g..<(g + count) { peaks[k] = 0 }
            } else {
                interpolate(group: g, count: count, into: peaks)
            }
            g += 8
        }
        // Keep the last 11 frames for the next chunk.
        for k in 0..<h {
            left[k] = left[n + k]
            right[k] = right[n + k]
            magnitudes[k] = magnitudes[n + k]
        }
    }

    /// The exact estimates for frames g ..< g + count of the chunk, eight at a time.
    @inline(__always)
    private func interpolate(group g: Int, count: Int, into peaks: UnsafeMutablePointer<Float>) {
        let n = TruePeakDetector.taps
        let wl = left + g, wr = right + g
        var peak = abs8(load8(wl + 5))
        let centreRight = abs8(load8(wr + 5))
        peak.replace(with: centreRight, where: centreRight .> peak)
        // Taps outer, phases inner: each window vector is loaded once for the three phases;
        // every lane still sums its taps from j = 0 up, as the scalar filter does.
        let zero = SIMD8<Float>(repeating: 0)
        var l0 = zero, l1 = zero, l2 = zero, r0 = zero, r1 = zero, r2 = zero
        for j in 0..<n {
            let x = load8(wl + j), y = load8(wr + j)
            let c0 = SIMD8<Float>(repeating: coefficients[j])
            let c1 = SIMD8<Float>(repeating: coefficients[n + j])
            let c2 = SIMD8<Float>(repeating: coefficients[2 * n + j])
            l0 = l0 + c0 * x; l1 = l1 + c1 * x; l2 = l2 + c2 * x
            r0 = r0 + c0 * y; r1 = r1 + c1 * y; r2 = r2 + c2 * y
        }
        let a0 = abs8(l0), b0 = abs8(r0), a1 = abs8(l1), b1 = abs8(r1), a2 = abs8(l2), b2 = abs8(r2)
        peak.replace(with: a0, where: a0 .> peak); peak.replace(with: b0, where: b0 .> peak)
        peak.replace(with: a1, where: a1 .> peak); peak.replace(with: b1, where: b1 .> peak)
        peak.replace(with: a2, where: a2 .> peak); peak.replace(with: b2, where: b2 .> peak)
        for i in 0..<count { peaks[g + i] = peak[i] }
    }

    /// True when every estimate these `frameCount` interleaved frames would give is below the
    /// quiet level: the last 11 frames and all of these are below `quietSample`.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func isQuiet(_ input: UnsafePointer<Float>, frameCount: Int) -> Bool {
        BlockMath.allBelow(magnitudes, count: TruePeakDetector.history, limit: quietSample)
            && BlockMath.allBelow(input, count: 2 * frameCount, limit: quietSample)
    }

    /// Takes frames for which `isQuiet` holds without measuring them: the same state as
    /// `measure` leaves.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func pushQuiet(_ input: UnsafePointer<Float>, frameCount n: Int) {
        let h = TruePeakDetector.history
        // Shift the history by the frames that stay, then append the newest.
        let kept = max(0, h - n)
        for k in 0..<kept {
            left[k] = left[k + n]
            right[k] = right[k + n]
            magnitudes[k] = magnitudes[k + n]
        }
        for k in kept..<h {
            let i = n - h + k
            let l = input[2 * i], r = input[2 * i + 1]
            left[k] = l
            right[k] = r
            magnitudes[k] = max(abs(l), abs(r))
        }
    }

    @inline(__always) private func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always) private func store8(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
    }

    @inline(__always) private func abs8(_ v: SIMD8<Float>) -> SIMD8<Float> {
        unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
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

/// Running minimum over the last `window` values, by van Herk and Gil-Werman's blocks: time
/// is cut into blocks of `window` values; the minimum of a window is the smaller of the
/// previous block's suffix minimum where the window starts and the current block's running
/// (prefix) minimum. Two comparisons a value and one backward pass a block, with no branch
/// on the data (a monotonic wedge mispredicts its pops on a moving signal), fixed storage.
/// A minimum is a value of the window, so it is exactly the wedge's.
///
/// Thread: render thread only after `init`.
struct SlidingMinimum {
    let window: Int
    /// The current block's values so far (`values[0 ..< phase]`).
    private let values: UnsafeMutablePointer<Double>
    /// suffix[k] = min(values[k …] of the previous block); suffix[window] = +∞. All +∞ until a
    /// block ends (no values before the first).
    private let suffix: UnsafeMutablePointer<Double>
    private var phase = 0
    /// The minimum of the current block's values so far (+∞ at its start).
    private var prefix = Double.infinity
    /// The last minimum returned.
    private var last = Double.nan
    /// Whether `values` and `suffix[0 ..< window]` are all `last` (after `pushMinimum` of two
    /// windows or more, until the next `push`).
    private var uniform = false

    init(window: Int) {
        self.window = window
        values = .zeroed(window)
        suffix = .allocate(capacity: window + 1)
        suffix.initialize(repeating: .infinity, count: window + 1)
    }

    func deallocate() {
        values.deallocate()
        suffix.deallocate()
    }

    /// Adds `x`; returns the minimum of the last `window` values.
    ///
    /// Render thread: safe.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func push(_ x: Double) -> Double {
        var cursor = self.cursor
        let m = cursor.push(x)
        self.cursor = cursor
        return m
    }

    /// The state a loop pushing many values keeps in registers (`cursor`, then `cursor =`).
    struct Cursor {
        let window: Int
        let values: UnsafeMutablePointer<Double>
        let suffix: UnsafeMutablePointer<Double>
        var phase: Int
        var prefix: Double
        var last: Double

        /// `SlidingMinimum.push`.
        @inline(__always)
        mutating func push(_ x: Double) -> Double {
            values[phase] = x
            prefix = min(prefix, x)
            let m = min(suffix[phase &+ 1], prefix)
            phase &+= 1
            if phase == window {
                SlidingMinimum.endBlock(values, suffix, window)
                phase = 0
                prefix = .infinity
            }
            last = m
            return m
        }
    }

    var cursor: Cursor {
        get { Cursor(window: window, values: values, suffix: suffix, phase: phase, prefix: prefix, last: last) }
        set {
            phase = newValue.phase
            prefix = newValue.prefix
            last = newValue.last
            uniform = false
        }
    }

    /// A block of `values` is whole: its suffix minima become the ones windows start in.
    @inline(never)
    private static func endBlock(_ values: UnsafePointer<Double>, _ suffix: UnsafeMutablePointer<Double>, _ window: Int) {
        var s = Double.infinity
        var k = window
        while k > 0 {
            k &-= 1
            s = min(s, values[k])
            suffix[k] = s
        }
    }

    /// The current minimum, if any value has been pushed.
    var minimum: Double? { last.isNaN ? nil : last }

    /// Pushes `x` `times` times, where `x` is the current minimum: the same state as that
    /// many `push(x)` calls. Two windows of `x` or more leave every value the window or a
    /// block's end can read equal to `x`, so they are set in one pass (and further runs of
    /// the same `x` only move the phase).
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func pushMinimum(_ x: Double, times: Int) {
        guard times > 0 else { return }
        if !(uniform && x == last) {
            guard times >= 2 * window else {
                for _ in 0..<times { _ = push(x) }
                return
            }
            values.update(repeating: x, count: window)
            suffix.update(repeating: x, count: window)
            last = x
            uniform = true
        }
        phase = (phase + times) % window
        prefix = phase == 0 ? .infinity : x
    }
}

/// `SlidingMinimum` from outside, for its test.
package enum SlidingMinimumCheck {
    /// Feeds `steps` to a `SlidingMinimum(window:)`: a value is pushed (`push`), nil pushes the
    /// current minimum `times` times at once (`pushMinimum`). Returns the minimum after each
    /// step.
    package static func minima(window: Int, steps: [(value: Double?, times: Int)]) -> [Double] {
        var minima = SlidingMinimum(window: window)
        defer { minima.deallocate() }
        return steps.map { step in
            if let x = step.value {
                return minima.push(x)
            }
            let x = minima.minimum!
            minima.pushMinimum(x, times: step.times)
            return minima.minimum!
        }
    }
}
