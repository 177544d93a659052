/// A point of a parameter curve or envelope: a time (seconds) and a value.
///
/// Thread: a value type; any thread.
public struct HapticControlPoint: Sendable, Hashable {
    /// Seconds: relative to the curve's `time` in a ``HapticParameterCurve``, to the event's
    /// in an event's own envelope (``HapticEvent/intensityEnvelope``).
    public var time: Double
    /// The parameter's value there, in the parameter's own scale (see ``HapticDynamicParameterID``).
    public var value: Double

    /// A point at `time` seconds with `value`.
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
    /// The parameter it sets.
    public var id: HapticDynamicParameterID
    /// When it takes effect, in seconds from the pattern's start.
    public var time: Double
    /// The value it steps to, in the parameter's own scale (see ``HapticDynamicParameterID``).
    public var value: Double

    /// A step of parameter `id` to `value` at `time` seconds.
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
    /// The parameter it moves.
    public var id: HapticDynamicParameterID
    /// Start time in seconds.
    public var time: Double
    /// Points in ascending time, relative to `time`.
    public var controlPoints: [HapticControlPoint]

    /// A curve of parameter `id` from `time` seconds through `controlPoints` (times relative
    /// to `time`, ascending).
    public init(_ id: HapticDynamicParameterID, time: Double, controlPoints: [HapticControlPoint]) {
        self.id = id
        self.time = time
        self.controlPoints = controlPoints
    }

    /// The absolute time of the last control point.
    public var endTime: Double { time + (controlPoints.last?.time ?? 0) }
}
