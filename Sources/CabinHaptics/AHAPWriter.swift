import CabinJSON

/// Writes a ``HapticPattern`` as normalized AHAP text.
///
/// Normalized means: `"Version": 1.0`; events first, sorted by time, then `Parameter`s,
/// then `ParameterCurve`s (relative point times, at most 16 points each — longer curves are
/// split into consecutive curves); haptic events always state `HapticIntensity` and
/// `HapticSharpness`, other parameters only when given, in a fixed order; `Metadata` when the
/// pattern has any (`Project`, `Created`, `Description` first, then the others by name).
/// The output reads back in strict mode without a diagnostic.
///
/// Patterns read from AHAP round-trip exactly (read → write → read gives an equal pattern
/// and the same compiled stream). Patterns from `.haptic` carry event-local envelopes that
/// AHAP cannot express; they are written the way Lofelt's converter wrote them (see
/// ``HapticPattern/ahapCompatible()``): exact for every transient, and the continuous track
/// within ``HapticPattern/ahapCompatibleTolerance`` away from the event edges.
///
/// Thread: pure; any thread except the render thread.
public enum AHAPWriter {
    /// The AHAP document for `pattern` as a JSON value.
    public static func document(_ pattern: HapticPattern) -> JSONValue {
        let pattern = pattern.ahapCompatible()
        var elements: [JSONValue] = pattern.events.stableSorted { $0.time < $1.time }.map { .object([("Event", event($0))]) }
        for p in pattern.dynamicParameters.stableSorted(by: { $0.time < $1.time }) {
            elements.append(.object([("Parameter", .object([
                ("ParameterID", .string(p.id.rawValue)), ("Time", .number(p.time)), ("ParameterValue", .number(p.value)),
            ]))]))
        }
        for curve in pattern.parameterCurves.stableSorted(by: { $0.time < $1.time }) {
            for piece in split(curve) {
                elements.append(.object([("ParameterCurve", .object([
                    ("ParameterID", .string(piece.id.rawValue)), ("Time", .number(piece.time)),
                    ("ParameterCurveControlPoints", .array(piece.controlPoints.map {
                        .object([("Time", .number($0.time)), ("ParameterValue", .number($0.value))])
                    })),
                ]))]))
            }
        }
        var members: [(String, JSONValue)] = [("Version", .number(1.0))]
        if !pattern.metadata.isEmpty {
            let first = ["Project", "Created", "Description"]
            let names = first.filter { pattern.metadata[$0] != nil } + pattern.metadata.keys.filter { !first.contains($0) }.sorted()
            members.append(("Metadata", .object(names.map { ($0, .string(pattern.metadata[$0]!)) })))
        }
        members.append(("Pattern", .array(elements)))
        return .object(members)
    }

    /// The AHAP text for `pattern` (pretty-printed, ending with a newline).
    public static func write(_ pattern: HapticPattern) -> String {
        document(pattern).serialized()
    }

    private static func event(_ e: HapticEvent) -> JSONValue {
        var members: [(String, JSONValue)] = [("Time", .number(e.time)), ("EventType", .string(e.type.rawValue))]
        if e.type.isContinuous || (e.type == .audioCustom && e.duration > 0) {
            members.append(("EventDuration", .number(e.duration)))
        }
        var parameters = e.parameters
        if e.type.isHaptic {
            parameters[.hapticIntensity] = e.intensity
            parameters[.hapticSharpness] = e.sharpness
        }
        let ordered = HapticEventParameterID.allCases.compactMap { id in parameters[id].map { (id, $0) } }
        if !ordered.isEmpty {
            members.append(("EventParameters", .array(ordered.map {
                .object([("ParameterID", .string($0.0.rawValue)), ("ParameterValue", .number($0.1))])
            })))
        }
        if let path = e.waveformPath { members.append(("EventWaveformPath", .string(path))) }
        if let b = e.waveformUsesVolumeEnvelope { members.append(("EventWaveformUseVolumeEnvelope", .bool(b))) }
        if let b = e.waveformLoopEnabled { members.append(("EventWaveformLoopEnabled", .bool(b))) }
        return .object(members)
    }

    /// Splits a curve into curves of at most 16 points; each piece starts at its first
    /// point (relative time 0) and repeats the previous piece's last point, so the
    /// piecewise-linear function is unchanged.
    ///
    /// A curve whose first point's relative time equals its start time (> 0) would read back
    /// as Lofelt-style absolute times; it gets an extra first point at 0 with the same value,
    /// which changes nothing (a curve holds its first value until its first point).
    static func split(_ curve: HapticParameterCurve, maxPoints: Int = 16) -> [HapticParameterCurve] {
        var curve = curve
        if curve.time > 0, let first = curve.controlPoints.first, first.time == curve.time {
            curve.controlPoints.insert(HapticControlPoint(time: 0, value: first.value), at: 0)
        }
        guard curve.controlPoints.count > maxPoints else { return [curve] }
        var pieces: [HapticParameterCurve] = []
        var index = 0
        let points = curve.controlPoints
        while index < points.count - 1 || pieces.isEmpty {
            let end = min(points.count, index + maxPoints)
            let slice = Array(points[index..<end])
            let start = curve.time + slice[0].time
            let relative = slice.map { HapticControlPoint(time: $0.time - slice[0].time, value: $0.value) }
            pieces.append(HapticParameterCurve(curve.id, time: pieces.isEmpty ? curve.time : start,
                                               controlPoints: pieces.isEmpty ? slice : relative))
            index = end - 1
        }
        return pieces
    }
}
