/// A piecewise-linear map from a parameter's value to a pitch ratio or a gain in dB:
/// `[[parameterValue, output], …]` as in a session document's `pitch` / `gain` maps.
///
/// Outside the first and last points the output holds the end value. Points are sorted
/// by parameter value when the map is made.
///
/// Thread: a plain value; any thread. The mixer copies its points into preallocated
/// storage when it is made, so the render thread reads them without touching an `Array`.
public struct ParameterMap: Sendable, Equatable {
    /// The parameter the map follows.
    public var parameter: ParameterID
    /// `(parameterValue, output)` pairs, sorted by parameter value.
    public private(set) var points: [(Double, Double)]

    /// Creates a map; `points` must not be empty.
    public init(parameter: ParameterID, points: [(Double, Double)]) {
        precondition(!points.isEmpty, "a parameter map needs at least one point")
        self.parameter = parameter
        self.points = points.sorted { $0.0 < $1.0 }
    }

    /// The output at parameter value `x` (control-side convenience; the renderer uses
    /// `ParameterMap.evaluate(points:count:at:)` on its own copy).
    public func callAsFunction(_ x: Double) -> Double {
        let flat = points.flatMap { [$0.0, $0.1] }
        return flat.withUnsafeBufferPointer {
            ParameterMap.evaluate($0.baseAddress!, count: points.count, at: x)
        }
    }

    /// Evaluates flat `[x0, y0, x1, y1, …]` points at `x`.
    ///
    /// Render thread: safe (no allocation, no locks).
    @inline(__always)
    static func evaluate(_ flat: UnsafePointer<Double>, count: Int, at x: Double) -> Double {
        if x <= flat[0] || count == 1 { return flat[1] }
        var i = 1
        while i < count {
            let x1 = flat[2 * i]
            if x <= x1 {
                let x0 = flat[2 * i - 2], y0 = flat[2 * i - 1], y1 = flat[2 * i + 1]
                let span = x1 - x0
                return span > 0 ? y0 + (y1 - y0) * (x - x0) / span : y1
            }
            i += 1
        }
        return flat[2 * count - 1]
    }

    public static func == (a: ParameterMap, b: ParameterMap) -> Bool {
        a.parameter == b.parameter && a.points.count == b.points.count
            && zip(a.points, b.points).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}
