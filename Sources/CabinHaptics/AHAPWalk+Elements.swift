import CabinJSON

extension AHAPWalk {
    static let eventKeys: Set<String> = [
        "Time", "EventType", "EventDuration", "EventParameters", "EventWaveformPath",
        "EventWaveformUseVolumeEnvelope", "EventWaveformLoopEnabled",
    ]
    static let parameterKeys: Set<String> = ["ParameterID", "Time", "ParameterValue"]
    static let curveKeys: Set<String> = ["ParameterID", "Time", "ParameterCurveControlPoints"]
    static let pointKeys: Set<String> = ["Time", "ParameterValue"]
    static let eventParameterKeys: Set<String> = ["ParameterID", "ParameterValue"]

    /// Reads an `Event` object; `nil` (with errors recorded) when it cannot be used.
    mutating func readEvent(_ value: JSONValue, _ path: @autoclosure () -> JSONPath) -> HapticEvent? {
        guard let object = walker.object(value, path()) else { return nil }
        walker.warnUnknownKeys(object, known: Self.eventKeys, path())
        let limits = walker.limits
        var type: HapticEventType?
        if let typeValue = walker.required("EventType", in: object, objectValue: value, path()),
           let name = typeValue.string(at: path().key("EventType"), in: &walker.diagnostics) {
            type = HapticEventType(rawValue: name)
            if type == nil {
                walker.error("unknown EventType \(typeValue.excerpt): use HapticTransient, HapticContinuous, "
                             + "AudioContinuous or AudioCustom", at: typeValue, path: path().key("EventType"),
                             rule: "event-type")
            }
        }
        var time: Double?
        if let timeValue = walker.required("Time", in: object, objectValue: value, path()) {
            time = walker.time(timeValue, path().key("Time"), what: "Time")
        }
        guard let type, let time else { return nil }
        var event = HapticEvent(type, time: time)
        func durationPath() -> JSONPath { path().key("EventDuration") }
        if type.isContinuous {
            guard let durationValue = walker.required("EventDuration", in: object, objectValue: value, path()),
                  var duration = walker.time(durationValue, durationPath(), what: "EventDuration")
            else { return nil }
            if duration > limits.maxContinuousDuration {
                walker.warn("EventDuration \(durationValue.excerpt) s is longer than "
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
            event.duration = duration
        } else if let durationValue = object["EventDuration"] {
            if type == .audioCustom {
                event.duration = walker.time(durationValue, durationPath(), what: "EventDuration") ?? 0
            } else {
                walker.warn("EventDuration is ignored for \(type.rawValue) events", at: durationValue,
                            path: durationPath(), rule: "ignored")
            }
        }
        if let parametersValue = object["EventParameters"],
           let items = parametersValue.array(at: path().key("EventParameters"), in: &walker.diagnostics) {
            event.parameters = readEventParameters(items, path().key("EventParameters"))
        }
        func waveformPath() -> JSONPath { path().key("EventWaveformPath") }
        if type == .audioCustom {
            guard let pathValue = walker.required("EventWaveformPath", in: object, objectValue: value, path()),
                  let waveform = pathValue.string(at: waveformPath(), in: &walker.diagnostics)
            else { return nil }
            event.waveformPath = waveform
            event.waveformSource = WaveformSource(location: pathValue.location, path: waveformPath())
            event.waveformUsesVolumeEnvelope = walker.optionalBool("EventWaveformUseVolumeEnvelope", in: object, path())
            event.waveformLoopEnabled = walker.optionalBool("EventWaveformLoopEnabled", in: object, path())
        } else if let pathValue = object["EventWaveformPath"] {
            walker.warn("EventWaveformPath is ignored for \(type.rawValue) events", at: pathValue,
                        path: waveformPath(), rule: "ignored")
        }
        return event
    }

    private mutating func readEventParameters(_ items: [JSONValue], _ path: @autoclosure () -> JSONPath) -> [HapticEventParameterID: Double] {
        var result = [HapticEventParameterID: Double](minimumCapacity: items.count)
        for (index, item) in items.enumerated() {
            func itemPath() -> JSONPath { path().index(index) }
            guard let object = walker.object(item, itemPath()) else { continue }
            walker.warnUnknownKeys(object, known: Self.eventParameterKeys, itemPath())
            guard let idValue = walker.required("ParameterID", in: object, objectValue: item, itemPath()),
                  let name = idValue.string(at: itemPath().key("ParameterID"), in: &walker.diagnostics),
                  let valueValue = walker.required("ParameterValue", in: object, objectValue: item, itemPath())
            else { continue }
            guard let id = HapticEventParameterID(rawValue: name) else {
                let hint = HapticDynamicParameterID(rawValue: name) != nil
                    ? " (it is a dynamic parameter: use it in a Parameter or ParameterCurve)" : ""
                walker.warn("unknown event ParameterID \(idValue.excerpt)\(hint); ignored", at: idValue,
                            path: itemPath().key("ParameterID"), rule: "unknown-parameter")
                continue
            }
            guard let v = walker.clamped(valueValue, to: id.range, name: name, itemPath().key("ParameterValue"))
            else { continue }
            if result[id] != nil {
                walker.warn("\(name) is given more than once; the last one wins", at: idValue,
                            path: itemPath().key("ParameterID"), rule: "duplicate-parameter")
            }
            result[id] = v
        }
        return result
    }

    /// Reads the `ParameterID` of a `Parameter` or `ParameterCurve`.
    mutating func dynamicID(_ object: JSONObject, _ value: JSONValue, _ path: @autoclosure () -> JSONPath) -> HapticDynamicParameterID? {
        guard let idValue = walker.required("ParameterID", in: object, objectValue: value, path()),
              let name = idValue.string(at: path().key("ParameterID"), in: &walker.diagnostics)
        else { return nil }
        guard let id = HapticDynamicParameterID(rawValue: name) else {
            let hint = HapticEventParameterID(rawValue: name) != nil
                ? " (it is an event parameter: the dynamic one is \(name)Control)" : ""
            walker.warn("unknown dynamic ParameterID \(idValue.excerpt)\(hint); ignored", at: idValue,
                        path: path().key("ParameterID"), rule: "unknown-parameter")
            return nil
        }
        return id
    }

    /// Reads a `Parameter` object (a dynamic-parameter step).
    mutating func readParameter(_ value: JSONValue, _ path: @autoclosure () -> JSONPath) -> HapticDynamicParameter? {
        guard let object = walker.object(value, path()) else { return nil }
        walker.warnUnknownKeys(object, known: Self.parameterKeys, path())
        let id = dynamicID(object, value, path())
        let time = walker.required("Time", in: object, objectValue: value, path())
            .flatMap { walker.time($0, path().key("Time"), what: "Time") }
        guard let valueValue = walker.required("ParameterValue", in: object, objectValue: value, path()),
              let id, let time,
              let v = walker.clamped(valueValue, to: id.range, name: id.rawValue, path().key("ParameterValue"))
        else { return nil }
        return HapticDynamicParameter(id, time: time, value: v)
    }
}
