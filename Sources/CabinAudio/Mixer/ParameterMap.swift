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

    /// The output at parameter value `x`, for tests (the renderer evaluates its own flat
    /// copy with the same arithmetic; nothing else in Cabin calls this).
    package func callAsFunction(_ x: Double) -> Double {
        let flat = flattened
        return flat.withUnsafeBufferPointer {
            ParameterMap.evaluate($0.baseAddress!, count: points.count, at: x)
        }
    }

    /// The outputs at each value of `row`, as the renderer works out a moving parameter's
    /// block (`evaluate(_:count:row:frameCount:into:)`), for tests.
    package func callAsFunction(row: [Double]) -> [Double] {
        let flat = flattened
        var out = [Double](repeating: 0, count: row.count)
        flat.withUnsafeBufferPointer { f in
            row.withUnsafeBufferPointer { r in
                out.withUnsafeMutableBufferPointer { o in
                    ParameterMap.evaluate(f.baseAddress!, count: points.count, row: r.baseAddress!, frameCount: row.count,
                                          into: o.baseAddress!)
                }
            }
        }
        return out
    }

    /// The points as the renderer stores them: `[x, y, slope]` per point, where `slope` is
    /// that of the segment ending at the point (precomputed, so evaluating divides nothing).
    var flattened: [Double] {
        var flat: [Double] = []
        for (k, (x, y)) in points.enumerated() {
            var slope = 0.0
            if k > 0 {
                let (x0, y0) = points[k - 1]
                slope = x > x0 ? (y - y0) / (x - x0) : 0
            }
            flat += [x, y, slope]
        }
        return flat
    }

    /// Evaluates `flattened` points at `x`: y0 + slope·(x − x0) on the segment holding x,
    /// the end values outside.
    ///
    /// Render thread: safe (no allocation, no locks).
    @inline(__always)
    static func evaluate(_ flat: UnsafePointer<Double>, count: Int, at x: Double) -> Double {
        if x <= flat[0] || count == 1 { return flat[1] }
        var i = 1
        while i < count {
            let p = flat + 3 * i
            if x <= p[0] { return segment(p, at: x) }
            i += 1
        }
        return flat[3 * count - 2]
    }

    /// `evaluate` at each of `frameCount` values of `row`, into `out`. The segment a frame
    /// falls in is where the next frame's search starts (a moving parameter stays in one
    /// segment for many frames) and is checked both ways: it is the first point at or right
    /// of x, as `evaluate`'s scan finds it, so every value is `evaluate`'s.
    ///
    /// Render thread: safe (no allocation, no locks).
    @inline(__always)
    static func evaluate(_ flat: UnsafePointer<Double>, count: Int, row: UnsafePointer<Double>, frameCount: Int,
                         into out: UnsafeMutablePointer<Double>) {
        guard count > 1 else {
            for i in 0..<frameCount { out[i] = flat[1] }
            return
        }
        var k = 1
        for i in 0..<frameCount {
            let x = row[i]
            guard x > flat[0] else {
                out[i] = evaluate(flat, count: count, at: x)  // before the first point, or NaN
                continue
            }
            // Points are sorted: after these, every point left of k is below x, and x ≤ x_k.
            while k > 1 && x <= flat[3 * (k - 1)] { k -= 1 }
            while k < count && x > flat[3 * k] { k += 1 }
            guard k < count else {
                out[i] = flat[3 * count - 2]
                continue
            }
            out[i] = segment(flat + 3 * k, at: x)
        }
    }

    /// The value at `x` on the segment that ends at flattened point `p` (x ≤ p's x, and x
    /// above the point before it).
    @inline(__always)
    private static func segment(_ p: UnsafePointer<Double>, at x: Double) -> Double {
        // A vertical step (two points at one x) has slope 0: it takes the left value up to
        // x and the right one after it.
        p[2] == 0 && x == p[0] ? p[1] : p[-2] + p[2] * (x - p[-3])
    }

    /// Whether the two follow the same parameter through the same points, in order.
    public static func == (a: ParameterMap, b: ParameterMap) -> Bool {
        a.parameter == b.parameter && a.points.count == b.points.count
            && zip(a.points, b.points).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}
