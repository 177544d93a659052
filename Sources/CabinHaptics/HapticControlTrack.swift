/// The value of one dynamic parameter over time, from its `Parameter` steps and
/// `ParameterCurve`s.
///
/// Rule: at time t the source (step or curve) with the latest start ≤ t decides (document
/// order breaks ties: the later one wins). A step holds its value; a curve holds its first
/// value until its first point, is linear between points, and holds its last value after.
/// Before any source, the parameter's default applies (1 for intensity control, 0 for
/// sharpness control).
///
/// Thread: a value type; any thread.
struct HapticControlTrack: Sendable, Hashable {
    struct Source: Sendable, Hashable {
        var start: Double
        var curve: PiecewiseLinear
    }

    let defaultValue: Double
    let sources: [Source]

    init(_ id: HapticDynamicParameterID, pattern: HapticPattern) {
        defaultValue = id.defaultValue
        var sources: [Source] = []
        for p in pattern.dynamicParameters where p.id == id {
            sources.append(Source(start: p.time, curve: PiecewiseLinear(
                [HapticControlPoint(time: p.time, value: p.value)], outside: .hold)))
        }
        for c in pattern.parameterCurves where c.id == id {
            sources.append(Source(start: c.time, curve: PiecewiseLinear(
                c.controlPoints.map { HapticControlPoint(time: c.time + $0.time, value: $0.value) }, outside: .hold)))
        }
        self.sources = sources.stableSorted { $0.start < $1.start }
    }

    var isEmpty: Bool { sources.isEmpty }

    /// The value at `t` (right limit), or just before `t` when `left`.
    func value(at t: Double, left: Bool = false) -> Double {
        var low = 0
        var high = sources.count
        while low < high {  // first source starting after t (or at t, for the left limit)
            let mid = (low + high) / 2
            if left ? sources[mid].start < t : sources[mid].start <= t { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return defaultValue }
        return sources[low - 1].curve.value(at: t, left: left)
    }

    /// Every time at which the value may bend or step.
    var knotTimes: [Double] {
        sources.flatMap { [$0.start] + $0.curve.points.map(\.time) }
    }
}
