/// One problem found in a document, with everything a user needs to fix it.
///
/// Its description is a single line in the compiler style that editors understand:
/// `FILE:LINE:COL: error: PATH: MESSAGE`, for example
/// `cabin.json:12:17: error: cues[3].over: "3x" is not a duration: use 1h2m3s, 90s, 250ms or m:s`.
///
/// Thread: a value type; any thread.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is: errors make a document unusable, warnings say what was accepted.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// Accepted, but worth saying (a quirk, an unknown key ignored).
        case warning
        /// The document cannot be used as it is.
        case error

        /// Whether `lhs` is less bad: a warning is less than an error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    /// How bad it is.
    public var severity: Severity
    /// The display name of the document (as given by the caller; no I/O happens here).
    public var file: String
    /// Where the offending value (or key, or character) starts.
    public var location: SourceLocation
    /// Where in the document's structure the problem is.
    public var path: JSONPath
    /// A short excerpt of the offending value as written, if there is one (`"3x"`, `-1`).
    public var value: String?
    /// What is wrong, for people; quotes the value where that helps.
    public var message: String
    /// A stable identifier of the rule broken, for tools and tests
    /// (`json.trailing-comma`, `ahap.unknown-key`, …).
    public var rule: String

    /// A diagnostic of `severity` at `location` (`path` in the document's structure) in
    /// `file`: `message` for people, `value` the excerpt it is about, `rule` the rule broken.
    public init(
        _ severity: Severity, file: String, location: SourceLocation, path: JSONPath,
        value: String? = nil, message: String, rule: String
    ) {
        self.severity = severity
        self.file = file
        self.location = location
        self.path = path
        self.value = value
        self.message = message
        self.rule = rule
    }

    /// 1-based line of `location`.
    public var line: Int { location.line }
    /// 1-based column of `location`.
    public var column: Int { location.column }
    /// Whether it is an error (not a warning).
    public var isError: Bool { severity == .error }

    /// `FILE:LINE:COL: SEVERITY: PATH: MESSAGE` on one line.
    public var description: String {
        let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "\(file):\(location.line):\(location.column): \(severity.rawValue): \(path): \(oneLine)"
    }

    /// The same diagnostic as an error (strict mode turns accepted quirks into errors).
    public func escalated() -> Diagnostic {
        var copy = self
        copy.severity = .error
        return copy
    }
}
