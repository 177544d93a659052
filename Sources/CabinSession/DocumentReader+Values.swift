import CabinJSON

/// Conversions of single values, each recording a diagnostic instead of failing.
extension DocumentReader {
    /// A time: `"1h2m3.5s"`, `"90s"`, `"250ms"`, `"12:30"`, `"1:02:03"` or seconds.
    /// At most `SessionTime.maximum` (24 h).
    mutating func time(_ value: JSONValue, at path: JSONPath) -> Double? {
        var seconds: Double?
        switch value.kind {
        case .number(let n) where n.value >= 0 && n.value.isFinite: seconds = n.value
        case .string(let s): seconds = SessionTime.parse(s)
        default: break
        }
        guard let seconds else {
            diagnostics.error("\(value.excerpt) is not a duration: \(SessionTime.rule)", at: value.location, path: path,
                              value: value.excerpt, rule: "session.time")
            return nil
        }
        guard seconds <= SessionTime.maximum else {
            diagnostics.error("\(value.excerpt) is too long: \(SessionTime.maximumRule)", at: value.location, path: path,
                              value: value.excerpt, rule: "session.time")
            return nil
        }
        return seconds
    }

    /// A number within `range` (every number in a document has one), or a located error
    /// naming the range.
    mutating func number(_ value: JSONValue, at path: JSONPath, in range: ClosedRange<Double>, what: String,
                         rule: String) -> Double? {
        guard let v = value.number(at: path, in: &diagnostics) else { return nil }
        guard range.contains(v) else {
            diagnostics.error("\(what) \(value.excerpt) is outside \(NumberText.plain(range.lowerBound))…\(NumberText.plain(range.upperBound))",
                              at: value.location, path: path, value: value.excerpt, rule: rule)
            return nil
        }
        return v
    }

    /// Parameter values (and map points' parameter values) stay within ±1,000,000.
    static let parameterBound = 1_000_000.0

    /// A gain in dB: −120 (silence) … +24 (louder is always a mistake).
    mutating func decibels(_ value: JSONValue, at path: JSONPath) -> Double? {
        guard let v = value.number(at: path, in: &diagnostics) else { return nil }
        guard v <= 24 else {
            diagnostics.error("\(value.excerpt) dB is louder than +24 dB: gains are decibels, e.g. -6",
                              at: value.location, path: path, value: value.excerpt, rule: "session.gain")
            return nil
        }
        guard v >= -120 else {
            diagnostics.error("\(value.excerpt) dB is below -120 dB, which is already silence",
                              at: value.location, path: path, value: value.excerpt, rule: "session.gain")
            return nil
        }
        return v
    }

    /// A name, or a list of names.
    mutating func names(_ value: JSONValue, at path: JSONPath) -> [(String, JSONValue, JSONPath)] {
        if case .string(let s) = value.kind { return [(s, value, path)] }
        guard case .array(let items) = value.kind else {
            diagnostics.error("expected a name or a list of names, found \(value.typeName)", at: value.location,
                              path: path, value: value.excerpt, rule: "json.type")
            return []
        }
        var out: [(String, JSONValue, JSONPath)] = []
        for (i, item) in items.enumerated() {
            if let s = item.string(at: path.index(i), in: &diagnostics) { out.append((s, item, path.index(i))) }
        }
        return out
    }

    /// A name that must be one of `known` (a bus, layer or parameter), with a suggestion.
    mutating func reference(_ name: String, _ value: JSONValue, at path: JSONPath, kind: String,
                            known: [String]) -> Bool {
        if known.contains(name) { return true }
        var message = "no \(kind) named \"\(KeySuggestion.shortened(name))\""
        if let guess = KeySuggestion.closest(to: name, in: known) {
            message += " (did you mean \"\(guess)\"?)"
        } else if !known.isEmpty {
            message += "; \(kind)s: \(known.joined(separator: ", "))"
        }
        diagnostics.error(message, at: value.location, path: path, value: value.excerpt, rule: "session.reference")
        return false
    }

    /// A sound: `synth:NAME[?k=v&…]`, a path relative to the document (it has a sound-file
    /// extension or starts with `./`), or a library name such as `engine/v6`.
    mutating func sound(_ value: JSONValue, at path: JSONPath) -> SoundReference? {
        guard let text = value.string(at: path, in: &diagnostics) else { return nil }
        switch SoundReferenceParser.parse(text, stations: references?.stations ?? [:]) {
        case .success(let reference):
            // Kept even when it cannot be played, so nothing that names its layer gets a
            // second, misleading error.
            if case .synth = reference {} else if let why = references?.sound(reference) {
                diagnostics.error(why, at: value.location, path: path, value: value.excerpt, rule: "session.missing-sound")
            }
            return reference
        case .failure(let problem):
            diagnostics.error(problem.message, at: value.location, path: path, value: value.excerpt, rule: problem.rule)
            // A station by a name not configured is still a station: its layer stays, so
            // the cues that start it get no second error (the document is invalid anyway).
            return problem.rule == SoundReferenceParser.stationRule ? .station(text) : nil
        }
    }

}

extension JSONObject {
    /// Unknown keys in a session document are errors (a typo such as `fadein` would
    /// otherwise silently do nothing), with the key meant where one is close.
    func warnUnknownKeysAsErrors(known: Set<String>, at path: JSONPath, in diagnostics: inout Diagnostics) {
        var found = Diagnostics(file: diagnostics.file)
        warnUnknownKeys(known: known, at: path, rule: "session.unknown-key", in: &found,
                        note: "is not part of the session format")
        diagnostics.append(contentsOf: found.all.map { $0.escalated() })
    }
}
