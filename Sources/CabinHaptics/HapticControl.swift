/// A point of a parameter curve or envelope: a time (seconds) and a value.
///
/// Thread: a value type; any thread.
public struct HapticControlPoint: Sendable, Hashable {
    public var time: Double
    public var value: Double

    public init(time: Double, value: Double) {
        self.time = time
        self.value = value
    }
}

/// A dynamic parameter (`Parameter` in AHAP): a step to `value` at `time`, in effect until
/// the next `Parameter` or `ParameterCurve` with the same ID.
///
/// Thread: a value type; any thread.
public struct HapticDynamicParameter: Sendable, Hashable {
    public var id: HapticDynamicParameterID
    public var time: Double
    public var value: Double

    public init(_ id: HapticDynamicParameterID, time: Double, value: Double) {
        self.id = id
        self.time = time
        self.value = value
    }
}

/// A parameter curve (`ParameterCurve` in AHAP): linear between control points.
///
/// Control-point times are **relative to `time`** (Apple's reading); the reader converts
/// Lofelt-style absolute times. The curve takes over from `time`, holds its first point's
/// value until that point, and holds its last value afterwards until the next `Parameter`
/// or `ParameterCurve` with the same ID.
///
/// Thread: a value type; any thread.
public struct HapticParameterCurve: Sendable, Hashable {
    public var id: HapticDynamicParameterID
    /// Start time in seconds.
    public var time: Double
    /// Points in ascending time, relative to `time`.
    public var controlPoints: [HapticControlPoint]

    public init(_ id: HapticDynamicParameterID, time: Double, controlPoints: [HapticControlPoint]) {
        self.id = id
        self.time = time
        self.controlPoints = controlPoints
    }

    /// The absolute time of the last control point.
    public var endTime: Double { time + (controlPoints.last?.time ?? 0) }
}
