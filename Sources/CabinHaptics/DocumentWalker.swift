import CabinJSON

/// Shared helpers for the haptic readers: typed lookups that record diagnostics, time and
/// range checks, and the lenient rules (defaults, clamping, unknown keys as warnings).
///
/// The readers walk the flat ``JSONDocument`` (nodes by index, no tree): values are node
/// indices into ``doc``.
struct DocumentWalker {
    var diagnostics: Diagnostics
    /// The parsed document (set by ``parse(_:)``).
    private(set) var doc = JSONDocument.empty
    let limits: HapticLimits
    /// Rule prefix: `ahap` or `haptic`.
    let format: String

    init(file: String, limits: HapticLimits, format: String) {
        diagnostics = Diagnostics(file: file)
        self.limits = limits
        self.format = format
    }

    func rule(_ name: String) -> String { "\(format).\(name)" }

    /// Parses `bytes` (lenient JSON) into ``doc``; the root node, or `nil` after a JSON error.
    mutating func parse(_ bytes: [UInt8]) -> Int? {
        guard let parsed = JSONParser.parseDocument(bytes, options: .lenient, diagnostics: &diagnostics)
        else { return nil }
        doc = parsed
        return parsed.root
    }

    /// Numbers for messages: `1` rather than `1.0`, otherwise Swift's shortest form.
    static func format(_ x: Double) -> String { NumberText.plain(x) }

    mutating func warn(_ message: String, at node: Int, path: JSONPath, rule name: String) {
        diagnostics.warning(message, at: doc.location(node), path: path, value: doc.excerpt(node), rule: rule(name))
    }

    mutating func error(_ message: String, at node: Int, path: JSONPath, rule name: String) {
        diagnostics.error(message, at: doc.location(node), path: path, value: doc.excerpt(node), rule: rule(name))
    }

    /// The node if it is an object, or an error.
    @inline(__always)
    mutating func object(_ node: Int, _ path: @autoclosure () -> JSONPath) -> Int? {
        doc.object(node, at: path(), in: &diagnostics)
    }

    /// Warns about every key of `object` not in `known` ("ignored, as Core Haptics does").
    mutating func warnUnknownKeys(_ object: Int, known: JSONKeySet, _ path: @autoclosure () -> JSONPath) {
        guard !doc.hasOnlyKeys(object, known) else { return }  // the usual case: no rule text made
        doc.warnUnknownKeys(object, known: known, at: path(), rule: rule("unknown-key"), in: &diagnostics,
                            note: "ignored")
    }

    /// A required member's value node, or an error at the object naming the missing key.
    mutating func required(_ key: String, in object: Int, _ path: @autoclosure () -> JSONPath) -> Int? {
        if let value = doc.member(object, key) { return value }
        diagnostics.error("missing required key \"\(key)\"", at: doc.location(object), path: path(),
                          rule: rule("missing-key"))
        return nil
    }

    /// A time in seconds: a number, ≥ 0, ≤ the time limit; otherwise an error.
    mutating func time(_ node: Int, _ path: @autoclosure () -> JSONPath, what: String = "time") -> Double? {
        guard let t = doc.number(node, at: path(), in: &diagnostics) else { return nil }
        if t < 0 {
            error("\(what) \(doc.excerpt(node)) is negative; times are seconds from the start (≥ 0)",
                  at: node, path: path(), rule: "negative-time")
            return nil
        }
        if t > limits.maxTime {
            error("\(what) \(doc.excerpt(node)) is beyond the limit of \(Self.format(limits.maxTime)) s",
                  at: node, path: path(), rule: "limit")
            return nil
        }
        return t
    }

    /// A number clamped to `range`, with a warning when it was outside.
    mutating func clamped(_ node: Int, to range: ClosedRange<Double>, name: String,
                          _ path: @autoclosure () -> JSONPath) -> Double? {
        guard let x = doc.number(node, at: path(), in: &diagnostics) else { return nil }
        let c = min(max(x, range.lowerBound), range.upperBound)
        if c != x {
            warn("\(name) \(doc.excerpt(node)) is outside \(Self.format(range.lowerBound))…"
                 + "\(Self.format(range.upperBound)); clamped to \(Self.format(c))",
                 at: node, path: path(), rule: "clamped")
        }
        return c
    }

    /// A boolean member if present.
    mutating func optionalBool(_ key: String, in object: Int, _ path: @autoclosure () -> JSONPath) -> Bool? {
        guard let node = doc.member(object, key) else { return nil }
        return doc.bool(node, at: path().key(key), in: &diagnostics)
    }

    /// Finishes a read: strict mode escalates warnings; the pattern survives only without errors.
    mutating func finish(_ pattern: HapticPattern?, mode: HapticReadOptions.Mode) -> HapticReadResult {
        if mode == .strict { diagnostics.escalateWarnings() }
        return HapticReadResult(pattern: diagnostics.hasErrors ? nil : pattern, diagnostics: diagnostics)
    }
}
