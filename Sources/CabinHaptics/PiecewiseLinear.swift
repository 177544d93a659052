/// A function of time, linear between sorted points, with either zero or held end values
/// outside them. Steps are two points at the same time.
///
/// Evaluation can ask for the right limit (the value from `t` on, the default) or the left
/// limit (the value just before `t`), which is how the compiler emits a step as two
/// breakpoints at the same time.
///
/// Thread: a value type; any thread.
struct PiecewiseLinear: Sendable, Hashable {
    enum Outside: Sendable, Hashable {
        /// 0 before the first point and from the last point on (an event envelope).
        case zero
        /// The first value before, the last value after (a control curve).
        case hold
    }

    var points: [HapticControlPoint]
    var outside: Outside

    init(_ points: [HapticControlPoint], outside: Outside) {
        self.points = points
        self.outside = outside
    }

    /// The value at `t`: the right limit, or the left limit when `left` is true.
    func value(at t: Double, left: Bool = false) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        if t < first.time || (left && t == first.time) {
            return outside == .zero ? 0 : first.value
        }
        if t > last.time || (!left && t == last.time) {
            return outside == .zero ? 0 : last.value
        }
        // Index of the last point with time < t (left) or ≤ t (right).
        var low = 0
        var high = points.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            let before = left ? points[mid].time < t : points[mid].time <= t
            if before { low = mid } else { high = mid - 1 }
        }
        let a = points[low]
        guard low + 1 < points.count else { return a.value }
        let b = points[low + 1]
        guard b.time > a.time else { return b.value }
        return a.value + (b.value - a.value) * (t - a.time) / (b.time - a.time)
    }

    /// The part between `start` and `end`, with times relative to `start` and interpolated
    /// end points (held values outside the points).
    func slice(from start: Double, to end: Double) -> [HapticControlPoint] {
        let held = PiecewiseLinear(points, outside: .hold)
        var result = [HapticControlPoint(time: 0, value: held.value(at: start))]
        for p in points where p.time > start && p.time < end {
            result.append(HapticControlPoint(time: p.time - start, value: p.value))
        }
        result.append(HapticControlPoint(time: end - start, value: held.value(at: end, left: true)))
        return result
    }
}
