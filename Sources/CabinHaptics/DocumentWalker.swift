import CabinJSON

/// Shared helpers for the haptic readers: typed lookups that record diagnostics, time and
/// range checks, and the lenient rules (defaults, clamping, unknown keys as warnings).
struct DocumentWalker {
    var diagnostics: Diagnostics
    let limits: HapticLimits
    /// Rule prefix: `ahap` or `haptic`.
    let format: String

    init(file: String, limits: HapticLimits, format: String) {
        diagnostics = Diagnostics(file: file)
        self.limits = limits
        self.format = format
    }

    func rule(_ name: String) -> String { "\(format).\(name)" }

    /// Numbers for messages: `1` rather than `1.0`, otherwise Swift's shortest form.
    static func format(_ x: Double) -> String { NumberText.plain(x) }

    mutating func warn(_ message: String, at value: JSONValue, path: JSONPath, rule name: String) {
        diagnostics.warning(message, at: value.location, path: path, value: value.excerpt, rule: rule(name))
    }

    mutating func error(_ message: String, at value: JSONValue, path: JSONPath, rule name: String) {
        diagnostics.error(message, at: value.location, path: path, value: value.excerpt, rule: rule(name))
    }

    /// The object at `value`, or an error.
    mutating func object(_ value: JSONValue, _ path: @autoclosure () -> JSONPath) -> JSONObject? {
        value.object(at: path(), in: &diagnostics)
    }

    /// Warns about every key of `object` not in `known` ("ignored, as Core Haptics does").
    mutating func warnUnknownKeys(_ object: JSONObject, known: Set<String>, _ path: @autoclosure () -> JSONPath) {
        guard !object.hasOnlyKeys(known) else { return }  // the usual case: no rule text made
        object.warnUnknownKeys(known: known, at: path(), rule: rule("unknown-key"), in: &diagnostics,
                               note: "ignored")
    }

    /// A required member, or an error at the object naming the missing key.
    mutating func required(_ key: String, in object: JSONObject, objectValue: JSONValue,
                           _ path: @autoclosure () -> JSONPath) -> JSONValue? {
        if let value = object[key] { return value }
        diagnostics.error("missing required key \"\(key)\"", at: objectValue.location, path: path(),
                          rule: rule("missing-key"))
        return nil
    }

    /// A time in seconds: a number, ≥ 0, ≤ the time limit; otherwise an error.
    mutating func time(_ value: JSONValue, _ path: @autoclosure () -> JSONPath, what: String = "time") -> Double? {
        guard let t = value.number(at: path(), in: &diagnostics) else { return nil }
        if t < 0 {
            error("\(what) \(value.excerpt) is negative; times are seconds from the start (≥ 0)",
                  at: value, path: path(), rule: "negative-time")
            return nil
        }
        if t > limits.maxTime {
            error("\(what) \(value.excerpt) is beyond the limit of \(Self.format(limits.maxTime)) s",
                  at: value, path: path(), rule: "limit")
            return nil
        }
        return t
    }

    /// A number clamped to `range`, with a warning when it was outside.
    mutating func clamped(_ value: JSONValue, to range: ClosedRange<Double>, name: String,
                          _ path: @autoclosure () -> JSONPath) -> Double? {
        guard let x = value.number(at: path(), in: &diagnostics) else { return nil }
        let c = min(max(x, range.lowerBound), range.upperBound)
        if c != x {
            warn("\(name) \(value.excerpt) is outside \(Self.format(range.lowerBound))…"
                 + "\(Self.format(range.upperBound)); clamped to \(Self.format(c))",
                 at: value, path: path(), rule: "clamped")
        }
        return c
    }

    /// A boolean member if present.
    mutating func optionalBool(_ key: String, in object: JSONObject, _ path: @autoclosure () -> JSONPath) -> Bool? {
        object[key]?.bool(at: path().key(key), in: &diagnostics)
    }

    /// Finishes a read: strict mode escalates warnings; the pattern survives only without errors.
    mutating func finish(_ pattern: HapticPattern?, mode: HapticReadOptions.Mode) -> HapticReadResult {
        if mode == .strict { diagnostics.escalateWarnings() }
        return HapticReadResult(pattern: diagnostics.hasErrors ? nil : pattern, diagnostics: diagnostics)
    }
}
