/// Typed accessors that record a diagnostic instead of throwing, so a document reader can
/// walk a whole document and report every problem at once.
///
/// Each returns `nil` and appends one error naming the path, the value and what was
/// expected, e.g. `Pattern[0].Event.Time: expected a number, found a string "0.5"`.
///
/// Thread: pure; any thread except the render thread.
extension JSONValue {
    /// The value as a `Double`, or an error if it is not a number.
    public func number(at path: JSONPath, in diagnostics: inout Diagnostics) -> Double? {
        if case .number(let n) = kind { return n.value }
        mismatch("a number", at: path, in: &diagnostics)
        return nil
    }

    /// The value as an `Int`, or an error if it is not a number with an integral value
    /// (`3` and `3.0` are accepted) that fits in an `Int`.
    public func integer(at path: JSONPath, in diagnostics: inout Diagnostics) -> Int? {
        if case .number(let n) = kind {
            if n.value.rounded() == n.value, abs(n.value) < 9.0e15 { return Int(n.value) }
            diagnostics.error("expected an integer, found \(n.text)", at: location, path: path,
                              value: n.text, rule: "json.type")
            return nil
        }
        mismatch("an integer", at: path, in: &diagnostics)
        return nil
    }

    /// The value as a `String`, or an error if it is not a string.
    public func string(at path: JSONPath, in diagnostics: inout Diagnostics) -> String? {
        if case .string(let s) = kind { return s }
        mismatch("a string", at: path, in: &diagnostics)
        return nil
    }

    /// The value as a `Bool`, or an error if it is not `true` or `false`.
    public func bool(at path: JSONPath, in diagnostics: inout Diagnostics) -> Bool? {
        if case .bool(let b) = kind { return b }
        mismatch("true or false", at: path, in: &diagnostics)
        return nil
    }

    /// The value's elements, or an error if it is not an array.
    public func array(at path: JSONPath, in diagnostics: inout Diagnostics) -> [JSONValue]? {
        if case .array(let items) = kind { return items }
        mismatch("an array", at: path, in: &diagnostics)
        return nil
    }

    /// The value as an object, or an error if it is not an object.
    public func object(at path: JSONPath, in diagnostics: inout Diagnostics) -> JSONObject? {
        if case .object(let object) = kind { return object }
        mismatch("an object", at: path, in: &diagnostics)
        return nil
    }

    /// Records `expected …, found …` at this value.
    public func mismatch(_ expected: String, at path: JSONPath, in diagnostics: inout Diagnostics) {
        let found: String
        switch kind {
        case .null, .bool: found = excerpt
        default: found = "\(typeName) \(excerpt)"
        }
        diagnostics.error("expected \(expected), found \(found)", at: location, path: path,
                          value: excerpt, rule: "json.type")
    }

    /// The number payload, if this is a number (no diagnostic).
    public var numberValue: Double? {
        if case .number(let n) = kind { return n.value }
        return nil
    }

    /// The string payload, if this is a string (no diagnostic).
    public var stringValue: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    /// The object payload, if this is an object (no diagnostic).
    public var objectValue: JSONObject? {
        if case .object(let o) = kind { return o }
        return nil
    }

    /// The elements, if this is an array (no diagnostic).
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = kind { return a }
        return nil
    }
}

extension JSONObject {
    /// The member named `key`, or an error at `objectLocation` saying it is missing.
    public func required(
        _ key: String, at path: JSONPath, objectLocation: SourceLocation, in diagnostics: inout Diagnostics
    ) -> JSONValue? {
        if let value = self[key] { return value }
        diagnostics.error("missing required key \"\(key)\"", at: objectLocation, path: path,
                          rule: "json.missing-key")
        return nil
    }

    /// The members whose keys are not in `known`, in document order.
    public func unknownMembers(known: Set<String>) -> [Member] {
        members.filter { !known.contains($0.key) }
    }

    /// Records a warning for every member whose key is not in `known`, naming the key and,
    /// when one is close (same letters ignoring case, or one edit away), the key meant.
    public func warnUnknownKeys(
        known: Set<String>, at path: JSONPath, rule: String, in diagnostics: inout Diagnostics,
        note: String = "ignored"
    ) {
        for member in unknownMembers(known: known) {
            var message = "unknown key \"\(member.key)\" \(note)"
            if let guess = KeySuggestion.closest(to: member.key, in: known) {
                message += " (did you mean \"\(guess)\"?)"
            }
            diagnostics.warning(message, at: member.keyLocation, path: path.key(member.key),
                                value: "\"\(member.key)\"", rule: rule)
        }
    }
}

/// Finds a likely intended key for a misspelt one.
enum KeySuggestion {
    static func closest(to key: String, in known: Set<String>) -> String? {
        let lower = key.lowercased()
        var best: (String, Int)?
        for candidate in known.sorted() {
            let d = distance(Array(lower), Array(candidate.lowercased()))
            if d <= 2, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1,
                                 previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
