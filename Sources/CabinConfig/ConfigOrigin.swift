/// Where a setting's value came from, as `cabin config` says it.
public enum ConfigOrigin: Sendable, Equatable {
    /// Cabin's own default.
    case builtIn
    /// The config file, at a line when it is known.
    case file(path: String, line: Int?)
    /// An environment variable (`CABIN_DEVICE`).
    case environment(String)
    /// The state file: what the last session ended with.
    case state(path: String)
    /// A command-line option (`--period`).
    case option(String)

    /// `default`, `/home/me/.config/cabin/config.toml:3`, `environment CABIN_DEVICE`, `option --period`.
    public var description: String {
        switch self {
        case .builtIn: "default"
        case .file(let path, let line): line.map { "\(path):\($0)" } ?? path
        case .environment(let name): "environment \(name)"
        case .state(let path): "remembered (\(path))"
        case .option(let name): "option \(name)"
        }
    }

    /// The kind, for JSON: `default`, `file`, `environment`, `state`, `option`.
    public var kind: String {
        switch self {
        case .builtIn: "default"
        case .file: "file"
        case .environment: "environment"
        case .state: "state"
        case .option: "option"
        }
    }
}

/// A value and where it came from.
public struct Setting<Value: Sendable>: Sendable {
    /// The value in effect.
    public var value: Value
    /// Where it was set.
    public var origin: ConfigOrigin

    /// `value`, set at `origin`.
    public init(_ value: Value, _ origin: ConfigOrigin) {
        self.value = value
        self.origin = origin
    }
}

extension Setting: Equatable where Value: Equatable {}

/// A problem with a setting, as one line: `config.toml:3:10: error: play.period: must be a
/// power of two from 16 to 8192, not 100`. Errors stop the command; warnings (an unknown
/// key) are printed and the rest of the file applies.
public struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable {
        /// The value is refused: the command stops.
        case error
        /// Ignored (an unknown key): said, and the rest applies.
        case warning
    }
    /// How bad it is.
    public var severity: Severity
    /// The file, `environment CABIN_X` or `option --x`.
    public var source: String
    /// The 1-based line in the file (nil: not in a file, or not found).
    public var line: Int?
    /// The 1-based column on that line (nil: not known).
    public var column: Int?
    /// The key (`play.period`), or nil for the file as a whole (a TOML syntax error).
    public var key: String?
    /// What is wrong, one line (`must be a power of two …`).
    public var message: String

    /// A problem of `severity` with `key` in `source`, at `line` and `column` when known.
    public init(_ severity: Severity, source: String, line: Int? = nil, column: Int? = nil, key: String?, message: String) {
        (self.severity, self.source, self.line, self.column, self.key, self.message) = (severity, source, line, column, key, message)
    }

    /// `SOURCE[:LINE[:COL]]: SEVERITY: [KEY: ]MESSAGE`, one line.
    public var description: String {
        var place = source
        if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        return "\(place): \(severity.rawValue): " + (key.map { "\($0): " } ?? "") + message
    }
}
