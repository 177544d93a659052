import CabinJSON

/// Reads AHAP (Apple Haptic and Audio Pattern) documents into a ``HapticPattern``.
///
/// Lenient mode (the default) loads what Core Haptics loads and says what it accepted:
/// trailing commas, a BOM, leading whitespace, `Version` as the integer `1` or missing,
/// unsorted events, curves before events, Lofelt-style absolute curve times, unknown keys,
/// out-of-range values (clamped), continuous events over 30 s (capped). Each is a warning
/// with file, line:column and JSON path. Strict mode turns every warning into an error.
///
/// Errors in both modes: malformed JSON, wrong types, missing required keys (`Pattern`,
/// `Time`, `EventType`, `EventDuration` of continuous events, `EventWaveformPath` of
/// AudioCustom, `ParameterID`, `ParameterValue`, `ParameterCurveControlPoints`), negative
/// times, an unknown `EventType` or `Version`, and ``HapticLimits`` exceeded.
///
/// Thread: pure; any thread except the render thread.
public enum AHAPReader {
    /// Reads AHAP `bytes`; `file` is only used in diagnostics.
    public static func read(_ bytes: [UInt8], file: String, options: HapticReadOptions = .lenient) -> HapticReadResult {
        var walk = AHAPWalk(file: file, limits: options.limits)
        let pattern = walk.read(bytes)
        return walk.walker.finish(pattern, mode: options.mode)
    }

    /// Reads AHAP text; see ``read(_:file:options:)``.
    public static func read(_ text: String, file: String, options: HapticReadOptions = .lenient) -> HapticReadResult {
        read(Array(text.utf8), file: file, options: options)
    }

    static let topLevelKeys: Set<String> = ["Version", "Pattern", "Metadata"]
    static let elementKeys: Set<String> = ["Event", "Parameter", "ParameterCurve"]
}

/// The walk over one AHAP document.
struct AHAPWalk {
    var walker: DocumentWalker
    var events: [HapticEvent] = []
    var parameters: [HapticDynamicParameter] = []
    var curves: [HapticParameterCurve] = []

    init(file: String, limits: HapticLimits) {
        walker = DocumentWalker(file: file, limits: limits, format: "ahap")
    }

    mutating func read(_ bytes: [UInt8]) -> HapticPattern? {
        guard let root = JSONParser.parse(bytes, options: .lenient, diagnostics: &walker.diagnostics),
              let object = walker.object(root, .root)
        else { return nil }
        walker.warnUnknownKeys(object, known: AHAPReader.topLevelKeys, .root)
        let version = readVersion(object, root: root)
        guard let patternValue = walker.required("Pattern", in: object, objectValue: root, .root),
              let elements = patternValue.array(at: JSONPath.root.key("Pattern"), in: &walker.diagnostics)
        else { return nil }
        readElements(elements)
        return HapticPattern(
            version: version,
            events: events.stableSorted { $0.time < $1.time },
            dynamicParameters: parameters.stableSorted { $0.time < $1.time },
            parameterCurves: curves.stableSorted { $0.time < $1.time })
    }

    private mutating func readVersion(_ object: JSONObject, root: JSONValue) -> Double? {
        guard let value = object["Version"] else {
            walker.diagnostics.warning("no \"Version\"; read as version 1.0", at: root.location, path: .root,
                                       rule: "ahap.version-missing")
            return nil
        }
        func path() -> JSONPath { JSONPath.root.key("Version") }
        guard let version = value.number(at: path(), in: &walker.diagnostics) else { return nil }
        guard version == 1 else {
            walker.error("unsupported Version \(value.excerpt): the supported version is 1.0",
                         at: value, path: path(), rule: "version")
            return nil
        }
        if case .number(let n) = value.kind, n.isIntegerLiteral {
            walker.warn("Version is the integer \(n.text); Core Haptics writes 1.0 (read as 1.0)",
                        at: value, path: path(), rule: "version-integer")
        }
        return version
    }

    private mutating func readElements(_ elements: [JSONValue]) {
        let limits = walker.limits
        let base = JSONPath.root.key("Pattern")
        var warnedCurveBeforeEvent = false
        var warnedUnsorted = false
        var controlCount = 0
        for (index, element) in elements.enumerated() {
            func path() -> JSONPath { base.index(index) }
            guard let object = walker.object(element, path()) else { continue }
            walker.warnUnknownKeys(object, known: AHAPReader.elementKeys, path())
            var first: JSONObject.Member?
            var presentCount = 0
            for i in object.members.indices {
                let key = object.members[i].key
                guard key == "Event" || key == "Parameter" || key == "ParameterCurve" else { continue }
                if first == nil { first = object.members[i] }
                presentCount += 1
            }
            guard let member = first else {
                walker.warn("element has no \"Event\", \"Parameter\" or \"ParameterCurve\"; ignored",
                            at: element, path: path(), rule: "empty-element")
                continue
            }
            if presentCount > 1 {
                let present = object.members.filter { AHAPReader.elementKeys.contains($0.key) }
                walker.error("element holds \(present.map { "\"\($0.key)\"" }.joined(separator: " and ")); "
                             + "each Pattern element holds exactly one", at: element, path: path(),
                             rule: "ambiguous-element")
                continue
            }
            func memberPath() -> JSONPath { path().key(member.key) }
            switch member.key {
            case "Event":
                if events.count >= limits.maxEvents {
                    walker.error("more than \(limits.maxEvents) events", at: member.value, path: memberPath(),
                                 rule: "limit")
                    return
                }
                guard let event = readEvent(member.value, memberPath()) else { continue }
                if !warnedUnsorted, let previous = events.last, event.time < previous.time {
                    warnedUnsorted = true
                    walker.warn("events are not in time order (this one at \(DocumentWalker.format(event.time)) s "
                                + "follows one at \(DocumentWalker.format(previous.time)) s); sorted by time",
                                at: member.value, path: memberPath(), rule: "unsorted-events")
                }
                events.append(event)
            default:
                controlCount += 1
                if controlCount > limits.maxControls {
                    walker.error("more than \(limits.maxControls) parameters and curves", at: member.value,
                                 path: memberPath(), rule: "limit")
                    return
                }
                if member.key == "Parameter" {
                    if let parameter = readParameter(member.value, memberPath()) { parameters.append(parameter) }
                } else {
                    guard let curve = readCurve(member.value, memberPath()) else { continue }
                    if events.isEmpty, !warnedCurveBeforeEvent,
                       elements[(index + 1)...].contains(where: { $0.objectValue?["Event"] != nil }) {
                        warnedCurveBeforeEvent = true
                        walker.warn("ParameterCurve comes before the events; accepted (curves apply pattern-wide)",
                                    at: member.value, path: memberPath(), rule: "curve-before-events")
                    }
                    curves.append(curve)
                }
            }
        }
    }
}

extension Array {
    /// Sorted by `areInIncreasingOrder`, keeping the original order of equal elements.
    func stableSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
        // Already in order (the usual case): nothing to move.
        if indices.dropFirst().allSatisfy({ !areInIncreasingOrder(self[$0], self[$0 - 1]) }) { return self }
        return enumerated().sorted { a, b in
            if areInIncreasingOrder(a.element, b.element) { return true }
            if areInIncreasingOrder(b.element, a.element) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }
}
