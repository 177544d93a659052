import TOMLKit

/// The config file, `$XDG_CONFIG_HOME/cabin/config.toml`, read from its text:
///
/// ```toml
/// [play]
/// device = "pulse"          # -D; none: the system clock, no sound
/// period = 512              # --period
/// preset = "pomodoro"       # what `cabin play` plays with no session
///
/// [volume]
/// master = "80%"            # or "-6dB"; any bus too: radio = "-6dB"
/// remember = true           # start at the volumes the last session ended at
///
/// [presets.pomodoro]
/// focus = "50m"
///
/// [stations]
/// kexp = "https://kexp.example/kexp160.aac"   # cabin play --radio kexp
/// ```
///
/// TOML's syntax is TOMLKit's (toml++); a syntax error is one problem at its line and
/// column and nothing of the file applies. Every value is checked (an error each); an
/// unknown key is a warning and the rest applies. TOMLKit does not tell where a value was,
/// so ``KeyLocator`` finds the line of each key in the text for messages and `cabin config`.
///
/// Thread: pure; any thread except the render thread.
public struct ConfigFile: Sendable {
    /// The file's path, as named in problems and origins.
    public var path: String
    /// The settings it gives, those with bad values left out.
    public var layer = ConfigLayer()
    /// Every problem found (by `parse`, sorted by line and column).
    public var problems: [ConfigProblem] = []

    /// A file with nothing in it (none, or one that could not be read: see `problems`).
    public init(path: String, problems: [ConfigProblem] = []) {
        self.path = path
        self.problems = problems
    }

    /// Whether any problem is an error (a warning alone does not count).
    public var hasErrors: Bool { problems.contains { $0.severity == .error } }

    /// Reads `text` (the file at `path`, named in problems and origins).
    public static func parse(_ text: String, path: String) -> ConfigFile {
        var file = ConfigFile(path: path)
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            file.problems.append(ConfigProblem(.error, source: path, line: error.source.begin.line, column: error.source.begin.column,
                                               key: nil, message: "not TOML: \(error.description)"))
            return file
        } catch {
            file.problems.append(ConfigProblem(.error, source: path, key: nil, message: "not TOML: \(error)"))
            return file
        }
        let locator = KeyLocator(text)
        file.read(table, prefix: [], locator: locator)
        file.problems += file.layer.checkPresetOptions(stations: [:]) { key, _ in
            let position = locator.position(of: key.split(separator: ".").map(String.init))
            return (path, position?.line, position?.column)
        }
        file.problems.sort { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
        return file
    }

    private mutating func read(_ table: TOMLTable, prefix: [String], locator: KeyLocator) {
        for key in table.keys.sorted() {
            guard let item = table[key] else { continue }
            let path = prefix + [key]
            let position = locator.position(of: path)
            let value = item.tomlValue
            // Tables nest where the format has them ([presets.drive]); elsewhere a table is a value.
            if value.type == .table, let sub = value.table, path.count == 1 || (path.count == 2 && path[0] == "presets") {
                read(sub, prefix: path, locator: locator)
                continue
            }
            let configValue: ConfigValue
            switch value.type {
            case .string: configValue = .string(value.string ?? "")
            case .int: configValue = .integer(value.int ?? 0)
            case .double: configValue = value.double.map { .number($0) } ?? .other("number")
            case .bool: configValue = .boolean(value.bool ?? false)
            case .table: configValue = .other("table")
            case .array: configValue = .other("array")
            case .date, .time, .dateTime: configValue = .other("date or time")
            }
            if let (severity, message) = layer.set(path, configValue, origin: .file(path: self.path, line: position?.line)) {
                problems.append(ConfigProblem(severity, source: self.path, line: position?.line, column: position?.column,
                                              key: path.joined(separator: "."), message: message))
            }
        }
    }
}

/// Finds the line and column where a key is set in TOML text: table headers (`[a.b]`) and
/// `key = …` lines, bare or quoted keys, dotted keys. Used only to point at lines in
/// messages: a key it cannot find (inside an inline table, say) has no line.
public struct KeyLocator: Sendable {
    private var positions: [String: (line: Int, column: Int)] = [:]

    /// The positions of every key set in `text`, found once.
    public init(_ text: String) {
        var table: [String] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            let body = line.dropFirst(indent)
            if body.hasPrefix("[") {
                let header = body.hasPrefix("[[") ? body.dropFirst(2) : body.dropFirst()
                guard let end = header.firstIndex(of: "]") else { continue }
                table = KeyLocator.split(String(header[..<end]))
                let key = table.joined(separator: ".")
                if positions[key] == nil { positions[key] = (index + 1, indent + 1) }
            } else if let equals = KeyLocator.assignment(body) {
                let key = (table + KeyLocator.split(String(body[..<equals]))).joined(separator: ".")
                if positions[key] == nil { positions[key] = (index + 1, indent + 1) }
            }
        }
    }

    /// Where `key` (`["play", "period"]`) is set, if the text says so plainly.
    public func position(of key: [String]) -> (line: Int, column: Int)? {
        positions[key.joined(separator: ".")]
    }

    /// The index of the `=` of a `key = value` line (outside quotes), if it is one.
    static func assignment(_ body: Substring) -> Substring.Index? {
        guard let first = body.first, first != "#" else { return nil }
        var quote: Character?
        for i in body.indices {
            let c = body[i]
            if let q = quote { if c == q { quote = nil } } else if c == "\"" || c == "'" { quote = c } else if c == "=" { return i }
        }
        return nil
    }

    /// `a."b c".d` → `["a", "b c", "d"]`.
    static func split(_ key: String) -> [String] {
        var parts: [String] = [], current = "", quote: Character?
        for c in key {
            if let q = quote { if c == q { quote = nil } else { current.append(c) } }
            else if c == "\"" || c == "'" { quote = c }
            else if c == "." { parts.append(current.trimmingWhitespace()); current = "" }
            else { current.append(c) }
        }
        parts.append(current.trimmingWhitespace())
        return parts
    }
}
