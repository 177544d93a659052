/// A haptic pattern, whichever format it came from: events, dynamic parameters and curves.
///
/// Readers sort events, parameters and curves by time (stable, so document order breaks
/// ties). The compiler reads only the haptic events and the haptic controls; audio events
/// and audio controls are kept for writers.
///
/// Thread: a value type; any thread.
public struct HapticPattern: Sendable, Hashable {
    /// `Version` as read (AHAP), or `major` (`.haptic`); `nil` when the file had none.
    public var version: Double?
    /// The events (haptic and audio), sorted by time as read.
    public var events: [HapticEvent]
    /// The `Parameter` steps, sorted by time as read.
    public var dynamicParameters: [HapticDynamicParameter]
    /// The `ParameterCurve`s, sorted by time as read.
    public var parameterCurves: [HapticParameterCurve]
    /// AHAP's `Metadata` (`Project`, `Created`, `Description`, …: the string members as
    /// read), or a `.haptic` file's `metadata` as Lofelt's converter names it (`project` →
    /// `Project`, `author` → `Created`, `description` → `Description`); written back by
    /// ``AHAPWriter``. Nothing else reads it.
    public var metadata: [String: String]

    /// A pattern of the given parts, kept in the order given (the readers sort theirs).
    public init(
        version: Double? = 1, events: [HapticEvent] = [], dynamicParameters: [HapticDynamicParameter] = [],
        parameterCurves: [HapticParameterCurve] = [], metadata: [String: String] = [:]
    ) {
        self.version = version
        self.events = events
        self.dynamicParameters = dynamicParameters
        self.parameterCurves = parameterCurves
        self.metadata = metadata
    }

    /// The latest event end (continuous: `time + duration`; transient: `time`), in seconds.
    /// Curves and parameters do not lengthen a pattern: without an event they are not felt.
    public var duration: Double {
        events.map(\.endTime).max() ?? 0
    }

    /// Events of `type`.
    public func events(ofType type: HapticEventType) -> [HapticEvent] {
        events.filter { $0.type == type }
    }
}
