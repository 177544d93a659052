/// Parses JSON bytes into a ``JSONValue`` tree with a location on every value and key.
///
/// Strict mode is RFC 8259 JSON. Lenient mode also accepts what real files in the wild
/// contain, reporting each as a warning: trailing commas in objects and arrays, a UTF-8
/// byte-order mark, and leading whitespace before the document (valid JSON, but noted so
/// a reader can tell a hand-edited file). In both modes duplicate keys are a warning (the
/// last one wins), and these are errors with a location:
/// - syntax errors (the parser stops at the first one; nothing after it is reliable);
/// - `NaN`, `Infinity`, `-Infinity`, a bare `-`, leading zeros, numbers that overflow a
///   `Double` (JSON numbers must be finite);
/// - nesting deeper than ``JSONParseOptions/maxDepth`` (default 512);
/// - documents larger than ``JSONParseOptions/maxDocumentBytes`` (default 64 MiB);
/// - more values (scalars and containers) than ``JSONParseOptions/maxValues`` (default no
///   limit): the tree costs about 150 bytes a value, so a reader that knows how much its
///   format can hold stops a huge document as it parses, not after building its tree;
/// - invalid UTF-8 inside strings, unpaired UTF-16 surrogate escapes, raw control characters.
///
/// The parser never traps and never loops forever on any input (a seeded fuzz test feeds it
/// random and mutated bytes).
///
/// Thread: pure; any thread except the render thread (allocates).
public enum JSONParser {
    /// Parses `bytes`, appending every diagnostic to `diagnostics`.
    ///
    /// - Returns: the root value, or `nil` if there was an error that stopped parsing.
    ///   Errors that do not stop parsing (a trailing comma in strict mode) are recorded and
    ///   the value is still returned; check `diagnostics.hasErrors`.
    public static func parse(
        _ bytes: [UInt8], options: JSONParseOptions = .strict, diagnostics: inout Diagnostics
    ) -> JSONValue? {
        parseDocument(bytes, options: options, diagnostics: &diagnostics).map { $0.value($0.root) }
    }

    /// Parses `bytes` into a flat ``JSONDocument`` (no tree), with the same checks and
    /// diagnostics as `parse(_:options:diagnostics:)`: for readers of big documents.
    ///
    /// - Returns: the document, or `nil` if there was an error that stopped parsing.
    public static func parseDocument(
        _ bytes: [UInt8], options: JSONParseOptions = .strict, diagnostics: inout Diagnostics
    ) -> JSONDocument? {
        var scanner = JSONScanner(bytes: bytes, options: options, file: diagnostics.file)
        let document = scanner.parseDocument()
        diagnostics.append(contentsOf: scanner.diagnostics.all)
        return document
    }

    /// Parses UTF-8 text; see the byte-array overload.
    public static func parse(
        _ text: String, options: JSONParseOptions = .strict, diagnostics: inout Diagnostics
    ) -> JSONValue? {
        parse(Array(text.utf8), options: options, diagnostics: &diagnostics)
    }

    /// Parses `bytes` into a value and a fresh collector for `file`.
    public static func parse(
        _ bytes: [UInt8], file: String, options: JSONParseOptions = .strict
    ) -> (value: JSONValue?, diagnostics: Diagnostics) {
        var diagnostics = Diagnostics(file: file)
        let value = parse(bytes, options: options, diagnostics: &diagnostics)
        return (value, diagnostics)
    }

    /// Parses `text` into a value and a fresh collector for `file`.
    public static func parse(
        _ text: String, file: String, options: JSONParseOptions = .strict
    ) -> (value: JSONValue?, diagnostics: Diagnostics) {
        parse(Array(text.utf8), file: file, options: options)
    }
}

/// How forgiving the parser is, and its hard limits.
///
/// Thread: a value type; any thread.
public struct JSONParseOptions: Sendable, Hashable {
    /// Strict RFC 8259 JSON, or lenient (quirks accepted with warnings).
    public enum Mode: Sendable, Hashable {
        /// RFC 8259 only: every quirk is an error.
        case strict
        /// Trailing commas, a byte-order mark and leading whitespace accepted, each with a
        /// warning.
        case lenient
    }

    /// Strict or lenient.
    public var mode: Mode
    /// The deepest nesting of arrays and objects accepted (the root container is depth 1).
    public var maxDepth: Int
    /// The largest document accepted, in bytes.
    public var maxDocumentBytes: Int
    /// The most values (every scalar, array and object) a document may hold; parsing stops
    /// at the first one past it.
    public var maxValues: Int
    /// The limit in the reader's words, ending the error line ("more than N values: …").
    public var valueLimitReason: String?

    /// Options of `mode` with the given limits (by default 512 levels, 64 MiB, any number of
    /// values); with `valueLimitReason` nil the value-limit error ends "the limit for this
    /// document".
    public init(mode: Mode, maxDepth: Int = 512, maxDocumentBytes: Int = 64 * 1024 * 1024,
                maxValues: Int = .max, valueLimitReason: String? = nil) {
        self.mode = mode
        self.maxDepth = maxDepth
        self.maxDocumentBytes = maxDocumentBytes
        self.maxValues = maxValues
        self.valueLimitReason = valueLimitReason
    }

    /// RFC 8259 JSON with the default limits.
    public static let strict = JSONParseOptions(mode: .strict)
    /// Trailing commas, a BOM and leading whitespace accepted with warnings; default limits.
    public static let lenient = JSONParseOptions(mode: .lenient)

    /// Whether the mode is `lenient`.
    public var isLenient: Bool { mode == .lenient }
}
