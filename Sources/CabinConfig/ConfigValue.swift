/// A value as a source gives it, before it is checked: the config file's TOML types, or the
/// text of an environment variable or an option.
public enum ConfigValue: Sendable, Equatable {
    /// A TOML string, or the text of a variable or an option.
    case string(String)
    /// A TOML integer.
    case integer(Int)
    /// A TOML float.
    case number(Double)
    /// A TOML boolean.
    case boolean(Bool)
    /// A TOML type no setting takes (a date, an array, a table where a value goes).
    case other(String)

    /// The value as text (`50` for an integer), for settings that read text.
    public var text: String? {
        switch self {
        case .string(let s): s
        case .integer(let i): String(i)
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .boolean, .other: nil
        }
    }

    /// The value as it was written, for messages.
    var shown: String {
        switch self {
        case .string(let s): "'\(s)'"
        case .integer(let i): String(i)
        case .number(let d): String(d)
        case .boolean(let b): String(b)
        case .other(let type): "a \(type)"
        }
    }

    /// A whole number: an integer, or text that is one (environment variables, options).
    var integer: Int? {
        switch self {
        case .integer(let i): i
        case .string(let s): Int(s.trimmingWhitespace())
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? Int(d) : nil
        case .boolean, .other: nil
        }
    }

    /// true/false, or text that says so (`1`, `yes`, `on` …).
    var boolean: Bool? {
        switch self {
        case .boolean(let b): b
        case .string(let s):
            switch s.trimmingWhitespace().lowercased() {
            case "true", "yes", "on", "1": true
            case "false", "no", "off", "0": false
            default: nil
            }
        case .integer(let i): i == 0 ? false : i == 1 ? true : nil
        case .number, .other: nil
        }
    }
}
