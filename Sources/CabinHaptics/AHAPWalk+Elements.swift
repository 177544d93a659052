import CabinJSON

extension AHAPWalk {
    static let eventKeys = JSONKeySet([
        "Time", "EventType", "EventDuration", "EventParameters", "EventWaveformPath",
        "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled",
    ])
    static let parameterKeys = JSONKeySet(["ParameterID", "Time", "ParameterValue"])
    static let curveKeys = JSONKeySet(["ParameterID", "Time", "ParameterCurveControlPoints"])
    static let pointKeys = JSONKeySet(["Time", "ParameterValue"])
    static let eventParameterKeys = JSONKeySet(["ParameterID", "ParameterValue"])
    /// Every event type and event parameter, made once (`allCases` makes an array a call).
    static let eventTypes = HapticEventType.allCases
    static let eventParameterIDs = HapticEventParameterID.allCases

    /// Reads an `Event` object; `nil` (with errors recorded) when it cannot be used.
    mutating func readEvent(_ value: Int, _ path: @autoclosure () -> JSONPath) -> HapticEvent? {
        guard let object = walker.object(value, path()) else { return nil }
        walker.warnUnknownKeys(object, known: Self.eventKeys, path())
        let doc = walker.doc
        let limits = walker.limits
        var type: HapticEventType?
        if let typeValue = walker.required("EventType", in: object, path()) {
            type = Self.eventType(doc, typeValue)
            if type == nil, let name = doc.string(typeValue, at: path().key("EventType"), in: &walker.diagnostics) {
                let guess = KeySuggestion.closest(to: name, in: Self.eventTypes.map(\.rawValue)).map { " (did you mean \($0)?)" } ?? ""
                walker.error("unknown EventType \(doc.excerpt(typeValue))\(guess): use HapticTransient, HapticContinuous, "
                             + "AudioContinuous or AudioCustom", at: typeValue, path: path().key("EventType"),
                             rule: "event-type")
            }
        }
        var time: Double?
        if let timeValue = walker.required("Time", in: object, path()) {
            time = walker.time(timeValue, path().key("Time"), what: "Time")
        }
        guard let type, let time else {
            // The event is unusable, but the rest of it is still read, so every problem in it is said at once.
            if let parametersValue = doc.member(object, "EventParameters"),
               let items = doc.array(parametersValue, at: path().key("EventParameters"), in: &walker.diagnostics) {
                _ = readEventParameters(items, path().key("EventParameters"))
            }
            return nil
        }
        var event = HapticEvent(type, time: time)
        func durationPath() -> JSONPath { path().key("EventDuration") }
        if type.isContinuous {
            guard let durationValue = walker.required("EventDuration", in: object, path()),
                  var duration = walker.time(durationValue, durationPath(), what: "EventDuration")
            else { return nil }
            if duration > limits.maxContinuousDuration {
                walker.warn("EventDuration \(doc.excerpt(durationValue)) s is longer than "
                            + "\(DocumentWalker.format(limits.maxContinuousDuration)) s; capped at "
                            + "\(DocumentWalker.format(limits.maxContinuousDuration)) s as Core Haptics does",
                            at: durationValue, path: durationPath(), rule: "duration-capped")
                duration = limits.maxContinuousDuration
            }
            if time + duration > limits.maxTime {
                walker.error("event ends at \(DocumentWalker.format(time + duration)) s, beyond the limit of "
                             + "\(DocumentWalker.format(limits.maxTime)) s", at: durationValue, path: durationPath(),
                             rule: "limit")
                return nil
            }
            if duration == 0 {
                walker.warn("\(type.rawValue) event with EventDuration 0: it plays nothing", at: durationValue,
                            path: durationPath(), rule: "zero-length")
            }
            event.duration = duration
        } else if let durationValue = doc.member(object, "EventDuration") {
            if type == .audioCustom {
                event.duration = walker.time(durationValue, durationPath(), what: "EventDuration") ?? 0
            } else {
                walker.warn("EventDuration is ignored for \(type.rawValue) events", at: durationValue,
                            path: durationPath(), rule: "ignored")
            }
        }
        if let parametersValue = doc.member(object, "EventParameters"),
           let items = doc.array(parametersValue, at: path().key("EventParameters"), in: &walker.diagnostics) {
            event.parameters = readEventParameters(items, path().key("EventParameters"), for: type)
        }
        func waveformPath() -> JSONPath { path().key("EventWaveformPath") }
        if type == .audioCustom {
            guard let pathValue = walker.required("EventWaveformPath", in: object, path()),
                  let waveform = doc.string(pathValue, at: waveformPath(), in: &walker.diagnostics)
            else { return nil }
            event.waveformPath = waveform
            event.waveformSource = WaveformSource(location: doc.location(pathValue), path: waveformPath())
            event.waveformUsesVolumeEnvelope = walker.optionalBool("EventWaveformUseVolumeEnvelope", in: object, path())
            event.waveformLoopEnabled = walker.optionalBool("EventWaveformLoopEnabled", in: object, path())
        } else if let pathValue = doc.member(object, "EventWaveformPath") {
            walker.warn("EventWaveformPath is ignored for \(type.rawValue) events", at: pathValue,
                        path: waveformPath(), rule: "ignored")
        }
        return event
    }

    /// The event type named by a string node, compared without making a string.
    private static func eventType(_ doc: JSONDocument, _ node: Int) -> HapticEventType? {
        guard doc.kind(node) == .string else { return nil }
        for type in eventTypes where doc.stringEquals(node, type.rawValue) { return type }
        return nil
    }

    /// The event parameter named by a string node, compared without making a string.
    private static func eventParameterID(_ doc: JSONDocument, _ node: Int) -> HapticEventParameterID? {
        for id in eventParameterIDs where doc.stringEquals(node, id.rawValue) { return id }
        return nil
    }

    private mutating func readEventParameters(_ items: Int, _ path: @autoclosure () -> JSONPath,
                                              for type: HapticEventType? = nil) -> [HapticEventParameterID: Double] {
        let doc = walker.doc
        var result = [HapticEventParameterID: Double](minimumCapacity: doc.count(items))
        for (index, item) in doc.elements(items).enumerated() {
            func itemPath() -> JSONPath { path().index(index) }
            guard let object = walker.object(item, itemPath()) else { continue }
            walker.warnUnknownKeys(object, known: Self.eventParameterKeys, itemPath())
            guard let idValue = walker.required("ParameterID", in: object, itemPath()),
                  doc.string(idValue, at: itemPath().key("ParameterID"), in: &walker.diagnostics) != nil,
                  let valueValue = walker.required("ParameterValue", in: object, itemPath())
            else { continue }
            guard let id = Self.eventParameterID(doc, idValue) else {
                let name = doc.stringValue(idValue)!
                let hint = HapticDynamicParameterID(rawValue: name) != nil
                    ? " (it is a dynamic parameter: use it in a Parameter or ParameterCurve)"
                    : Self.parameterGuess(name).map { " (did you mean \($0)?)" } ?? ""
                walker.warn("unknown event ParameterID \(doc.excerpt(idValue))\(hint); ignored", at: idValue,
                            path: itemPath().key("ParameterID"), rule: "unknown-parameter")
                // Its value is still checked: a value no parameter can take is a problem of its own.
                _ = doc.number(valueValue, at: itemPath().key("ParameterValue"), in: &walker.diagnostics)
                continue
            }
            guard let v = walker.clamped(valueValue, to: id.range, name: id.rawValue, itemPath().key("ParameterValue"))
            else { continue }
            if let type, !id.applies(to: type) {
                walker.warn("\(id.rawValue) does nothing on a \(type.rawValue) event (it is a"
                            + " \(type.isHaptic ? "sound" : "haptic") parameter)", at: idValue,
                            path: itemPath().key("ParameterID"), rule: "parameter-for-other-type")
            }
            if result[id] != nil {
                walker.warn("\(id.rawValue) is given more than once; the last one wins", at: idValue,
                            path: itemPath().key("ParameterID"), rule: "duplicate-parameter")
            }
            result[id] = v
        }
        return result
    }

    /// The event parameter meant by an unknown name: one a typo or two away
    /// (`HapticSharpnes`), or the name with a `Haptic` prefix other tools write
    /// (`HapticAttackTime` for `AttackTime`).
    static func parameterGuess(_ name: String) -> String? {
        if name.hasPrefix("Haptic"), let id = HapticEventParameterID(rawValue: String(name.dropFirst(6))) { return id.rawValue }
        return KeySuggestion.closest(to: name, in: eventParameterIDs.map(\.rawValue))
    }

    /// Reads the `ParameterID` of a `Parameter` or `ParameterCurve`.
    mutating func dynamicID(_ object: Int, _ path: @autoclosure () -> JSONPath) -> HapticDynamicParameterID? {
        let doc = walker.doc
        guard let idValue = walker.required("ParameterID", in: object, path()),
              let name = doc.string(idValue, at: path().key("ParameterID"), in: &walker.diagnostics)
        else { return nil }
        guard let id = HapticDynamicParameterID(rawValue: name) else {
            let hint = HapticEventParameterID(rawValue: name) != nil
                ? " (it is an event parameter: the dynamic one is \(name)Control)" : ""
            walker.warn("unknown dynamic ParameterID \(doc.excerpt(idValue))\(hint); ignored", at: idValue,
                        path: path().key("ParameterID"), rule: "unknown-parameter")
            return nil
        }
        return id
    }

    /// Reads a `Parameter` object (a dynamic-parameter step).
    mutating func readParameter(_ value: Int, _ path: @autoclosure () -> JSONPath) -> HapticDynamicParameter? {
        guard let object = walker.object(value, path()) else { return nil }
        walker.warnUnknownKeys(object, known: Self.parameterKeys, path())
        let id = dynamicID(object, path())
        let time = walker.required("Time", in: object, path())
            .flatMap { walker.time($0, path().key("Time"), what: "Time") }
        guard let valueValue = walker.required("ParameterValue", in: object, path()),
              let id, let time,
              let v = walker.clamped(valueValue, to: id.range, name: id.rawValue, path().key("ParameterValue"))
        else { return nil }
        return HapticDynamicParameter(id, time: time, value: v)
    }
}
