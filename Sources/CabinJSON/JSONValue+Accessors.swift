/// Typed accessors that record a diagnostic instead of throwing, so a document reader can
/// walk a whole document and report every problem at once.
///
/// Each returns `nil` and appends one error naming the path, the value and what was
/// expected, e.g. `Pattern[0].Event.Time: expected a number, found a string "0.5"`.
///
/// Thread: pure; any thread except the render thread.
extension JSONValue {
    /// The value as a `Double`, or an error if it is not a number.
    public func number(at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> Double? {
        if case .number(let n) = kind { return n.value }
        mismatch("a number", at: path(), in: &diagnostics)
        return nil
    }

    /// The value as an `Int`, or an error if it is not a number with an integral value
    /// (`3` and `3.0` are accepted) that fits in an `Int`.
    public func integer(at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> Int? {
        if case .number(let n) = kind {
            if n.value.rounded() == n.value, abs(n.value) < 9.0e15 { return Int(n.value) }
            diagnostics.error("expected an integer, found \(n.text)", at: location, path: path(),
                              value: n.text, rule: "json.type")
            return nil
        }
        mismatch("an integer", at: path(), in: &diagnostics)
        return nil
    }

    /// The value as a `String`, or an error if it is not a string.
    public func string(at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> String? {
        if case .string(let s) = kind { return s }
        mismatch("a string", at: path(), in: &diagnostics)
        return nil
    }

    /// The value as a `Bool`, or an error if it is not `true` or `false`.
    public func bool(at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> Bool? {
        if case .bool(let b) = kind { return b }
        mismatch("true or false", at: path(), in: &diagnostics)
        return nil
    }

    /// The value's elements, or an error if it is not an array.
    public func array(at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> [JSONValue]? {
        if case .array(let items) = kind { return items }
        mismatch("an array", at: path(), in: &diagnostics)
        return nil
    }

    /// The value as an object, or an error if it is not an object.
    public func object(at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> JSONObject? {
        if case .object(let object) = kind { return object }
        mismatch("an object", at: path(), in: &diagnostics)
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

    /// Whether every key is in `known` (nothing for ``warnUnknownKeys(known:at:rule:in:note:)``
    /// to say).
    public func hasOnlyKeys(_ known: Set<String>) -> Bool {
        members.allSatisfy { Self.isKnown($0.key, known) }
    }

    /// `known.contains(key)`; a small set is scanned (comparing short strings is cheaper than
    /// hashing them, and readers check every object of a document).
    @inline(__always)
    static func isKnown(_ key: String, _ known: Set<String>) -> Bool {
        guard known.count <= 16 else { return known.contains(key) }
        for k in known where k == key { return true }
        return false
    }

    /// Records a warning for every member whose key is not in `known`, naming the key and,
    /// when one is close (same letters ignoring case, or one edit away), the key meant.
    public func warnUnknownKeys(
        known: Set<String>, at path: @autoclosure () -> JSONPath, rule: String, in diagnostics: inout Diagnostics,
        note: String = "ignored"
    ) {
        for i in members.indices where !Self.isKnown(members[i].key, known) {
            let member = members[i]
            let shown = KeySuggestion.shortened(member.key)
            var message = "unknown key \"\(shown)\" \(note)"
            if let guess = KeySuggestion.closest(to: member.key, in: known) {
                message += " (did you mean \"\(guess)\"?)"
            }
            diagnostics.warning(message, at: member.keyLocation, path: path().key(shown),
                                value: "\"\(shown)\"", rule: rule)
        }
    }
}

/// Finds a likely intended name for a misspelt one (a key, a bus, a layer, a sound):
/// the closest known name at most `maxDistance` edits away, ignoring case.
///
/// A name whose length differs from every candidate's by more than `maxDistance` is not
/// compared at all (no edit distance can be that small), so a 10 MB key costs nothing.
///
/// Thread: pure; any thread.
public enum KeySuggestion {
    /// The name of `known` closest to `name` (case ignored) within `maxDistance` edits
    /// (Levenshtein: insertions, deletions, substitutions); of equally close ones, the
    /// first in sorted order; nil when none is that close.
    public static func closest<S: Sequence<String>>(to name: String, in known: S, maxDistance: Int = 2) -> String? {
        let lower = Array(name.lowercased())
        var best: (String, Int)?
        for candidate in known.sorted() {
            let other = Array(candidate.lowercased())
            guard abs(other.count - lower.count) <= maxDistance else { continue }
            let d = distance(lower, other)
            if d <= maxDistance, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }

    /// A name for a message: at most 40 characters (`…` marks the cut).
    public static func shortened(_ name: String) -> String {
        name.count > 40 ? String(name.prefix(39)) + "…" : name
    }

    /// Levenshtein distance with one row kept.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in 1...b.count {
                let above = row[j]
                row[j] = min(above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
