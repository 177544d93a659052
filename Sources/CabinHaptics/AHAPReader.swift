import CabinJSON

/// Reads AHAP (Apple Haptic and Audio Pattern) documents into a ``HapticPattern``.
///
/// Lenient mode (the default) loads what Core Haptics loads and says what it accepted:
/// trailing commas, a BOM, leading whitespace, `Version` as the integer `1` or missing,
/// unsorted events, curves before events, Lofelt-style absolute curve times (see
/// ``HapticReadOptions/CurveTimes``), unknown keys,
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
        var walk = AHAPWalk(file: file, limits: options.limits, curveTimes: options.curveTimes)
        let pattern = walk.read(bytes)
        return walk.walker.finish(pattern, mode: options.mode)
    }

    /// Reads AHAP text; see ``read(_:file:options:)``.
    public static func read(_ text: String, file: String, options: HapticReadOptions = .lenient) -> HapticReadResult {
        read(Array(text.utf8), file: file, options: options)
    }

    static let topLevelKeys = JSONKeySet(["Version", "Pattern", "Metadata"])
    static let elementKeys = JSONKeySet(["Event", "Parameter", "ParameterCurve"])
}

/// The walk over one AHAP document.
struct AHAPWalk {
    var walker: DocumentWalker
    var events: [HapticEvent] = []
    var parameters: [HapticDynamicParameter] = []
    var curves: [HapticParameterCurve] = []
    /// Where each of `events` was written (its `Event` value and path), for lints.
    var eventNodes: [(node: Int, path: JSONPath)] = []
    let curveTimes: HapticReadOptions.CurveTimes

    init(file: String, limits: HapticLimits, curveTimes: HapticReadOptions.CurveTimes = .auto) {
        walker = DocumentWalker(file: file, limits: limits, format: "ahap")
        self.curveTimes = curveTimes
    }

    mutating func read(_ bytes: [UInt8]) -> HapticPattern? {
        guard let root = walker.parse(bytes), let object = walker.object(root, .root) else { return nil }
        walker.warnUnknownKeys(object, known: AHAPReader.topLevelKeys, .root)
        let version = readVersion(object)
        guard let patternValue = walker.required("Pattern", in: object, .root),
              let elements = walker.doc.array(patternValue, at: JSONPath.root.key("Pattern"), in: &walker.diagnostics)
        else { return nil }
        readElements(elements)
        let pattern = HapticPattern(
            version: version,
            events: events.stableSorted { $0.time < $1.time },
            dynamicParameters: parameters.stableSorted { $0.time < $1.time },
            parameterCurves: curves.stableSorted { $0.time < $1.time },
            metadata: readMetadata(object))
        lintTransients(pattern)
        return pattern
    }

    /// A transient the pattern's own `HapticIntensityControl` scales below half its
    /// authored intensity (a designed hit lost under a fade): a warning at the event.
    private mutating func lintTransients(_ pattern: HapticPattern) {
        let control = HapticControlTrack(.hapticIntensityControl, pattern: pattern)
        guard !control.isEmpty else { return }
        for (event, place) in zip(events, eventNodes) where event.type == .hapticTransient && event.intensity > 0 {
            let gain = control.value(at: event.time)
            guard gain < 0.5 else { continue }
            walker.warn("HapticTransient at \(DocumentWalker.format(event.time)) s plays at "
                        + "\(DocumentWalker.format((event.intensity * gain * 1000).rounded() / 1000)), less than half its "
                        + "HapticIntensity \(DocumentWalker.format(event.intensity)): the pattern's HapticIntensityControl is "
                        + "\(DocumentWalker.format((gain * 1000).rounded() / 1000)) there", at: place.node, path: place.path,
                        rule: "transient-under-curve")
        }
    }

    /// `Metadata`'s string members (a member of another kind is a warning and left out).
    private mutating func readMetadata(_ object: Int) -> [String: String] {
        let doc = walker.doc
        guard let value = doc.member(object, "Metadata"), let metadata = walker.object(value, JSONPath.root.key("Metadata"))
        else { return [:] }
        var result: [String: String] = [:]
        for key in doc.members(metadata) {
            guard let name = doc.stringValue(key) else { continue }
            if let text = doc.stringValue(key + 1) { result[name] = text } else {
                walker.warn("Metadata.\(KeySuggestion.shortened(name)) is not a string; left out", at: key + 1,
                            path: JSONPath.root.key("Metadata").key(name), rule: "metadata")
            }
        }
        return result
    }

    private mutating func readVersion(_ object: Int) -> Double? {
        let doc = walker.doc
        guard let value = doc.member(object, "Version") else {
            walker.diagnostics.warning("no \"Version\"; read as version 1.0", at: doc.location(object), path: .root,
                                       rule: "ahap.version-missing")
            return nil
        }
        func path() -> JSONPath { JSONPath.root.key("Version") }
        guard let version = doc.number(value, at: path(), in: &walker.diagnostics) else { return nil }
        guard version == 1 else {
            walker.error("unsupported Version \(doc.excerpt(value)): the supported version is 1.0",
                         at: value, path: path(), rule: "version")
            return nil
        }
        if doc.isIntegerLiteral(value) {
            walker.warn("Version is the integer \(doc.numberText(value)); Core Haptics writes 1.0 (read as 1.0)",
                        at: value, path: path(), rule: "version-integer")
        }
        return version
    }

    /// The kinds of Pattern element, by key.
    private enum ElementKind { case event, parameter, curve }

    private static func elementKind(_ doc: JSONDocument, _ key: Int) -> ElementKind? {
        if doc.stringEquals(key, "Event") { return .event }
        if doc.stringEquals(key, "Parameter") { return .parameter }
        if doc.stringEquals(key, "ParameterCurve") { return .curve }
        return nil
    }

    private mutating func readElements(_ elements: Int) {
        let doc = walker.doc
        let limits = walker.limits
        let base = JSONPath.root.key("Pattern")
        var warnedCurveBeforeEvent = false
        var warnedUnsorted = false
        var controlCount = 0
        events.reserveCapacity(min(doc.count(elements), limits.maxEvents))
        for (index, element) in doc.elements(elements).enumerated() {
            func path() -> JSONPath { base.index(index) }
            guard let object = walker.object(element, path()) else { continue }
            walker.warnUnknownKeys(object, known: AHAPReader.elementKeys, path())
            var first: (key: Int, kind: ElementKind)?
            var presentCount = 0
            for key in doc.members(object) {
                guard let kind = Self.elementKind(doc, key) else { continue }
                if first == nil { first = (key, kind) }
                presentCount += 1
            }
            guard let (memberKey, kind) = first else {
                walker.warn("element has no \"Event\", \"Parameter\" or \"ParameterCurve\"; ignored",
                            at: element, path: path(), rule: "empty-element")
                continue
            }
            if presentCount > 1 {
                let present = doc.members(object).filter { Self.elementKind(doc, $0) != nil }
                walker.error("element holds \(present.map { "\"\(doc.stringValue($0)!)\"" }.joined(separator: " and ")); "
                             + "each Pattern element holds exactly one", at: element, path: path(),
                             rule: "ambiguous-element")
                continue
            }
            let memberValue = memberKey + 1
            func memberPath() -> JSONPath { path().key(doc.stringValue(memberKey)!) }
            switch kind {
            case .event:
                if events.count >= limits.maxEvents {
                    walker.error("more than \(limits.maxEvents) events", at: memberValue, path: memberPath(),
                                 rule: "limit")
                    return
                }
                guard let event = readEvent(memberValue, memberPath()) else { continue }
                if !warnedUnsorted, let previous = events.last, event.time < previous.time {
                    warnedUnsorted = true
                    walker.warn("events are not in time order (this one at \(DocumentWalker.format(event.time)) s "
                                + "follows one at \(DocumentWalker.format(previous.time)) s); sorted by time",
                                at: memberValue, path: memberPath(), rule: "unsorted-events")
                }
                events.append(event)
                eventNodes.append((memberValue, memberPath()))
            case .parameter, .curve:
                controlCount += 1
                if controlCount > limits.maxControls {
                    walker.error("more than \(limits.maxControls) parameters and curves", at: memberValue,
                                 path: memberPath(), rule: "limit")
                    return
                }
                if kind == .parameter {
                    if let parameter = readParameter(memberValue, memberPath()) { parameters.append(parameter) }
                } else {
                    guard let curve = readCurve(memberValue, memberPath()) else { continue }
                    if events.isEmpty, !warnedCurveBeforeEvent,
                       doc.elements(elements).dropFirst(index + 1).contains(where: {
                           doc.kind($0) == .object && doc.member($0, "Event") != nil
                       }) {
                        warnedCurveBeforeEvent = true
                        walker.warn("ParameterCurve comes before the events; accepted (curves apply pattern-wide)",
                                    at: memberValue, path: memberPath(), rule: "curve-before-events")
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
