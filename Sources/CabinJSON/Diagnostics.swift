/// Collects every diagnostic for one document, so a reader can report all problems at once.
///
/// Readers pass it `inout` through their helpers; accessors such as
/// ``JSONValue/number(at:in:)`` append to it instead of throwing.
///
/// Thread: a value type; any thread, one owner at a time.
public struct Diagnostics: Sendable, Hashable, CustomStringConvertible, Sequence {
    /// The display name of the document every diagnostic here refers to.
    public var file: String
    /// All diagnostics in the order they were found.
    public private(set) var all: [Diagnostic] = []

    /// Creates an empty collector for the document called `file`.
    public init(file: String) {
        self.file = file
    }

    /// Appends a diagnostic (its file is kept as given).
    public mutating func append(_ diagnostic: Diagnostic) {
        all.append(diagnostic)
    }

    /// Appends many diagnostics.
    public mutating func append(contentsOf other: some Sequence<Diagnostic>) {
        all.append(contentsOf: other)
    }

    /// Records an error at `location`.
    public mutating func error(
        _ message: String, at location: SourceLocation, path: JSONPath,
        value: String? = nil, rule: String
    ) {
        append(Diagnostic(.error, file: file, location: location, path: path,
                          value: value, message: message, rule: rule))
    }

    /// Records a warning at `location`.
    public mutating func warning(
        _ message: String, at location: SourceLocation, path: JSONPath,
        value: String? = nil, rule: String
    ) {
        append(Diagnostic(.warning, file: file, location: location, path: path,
                          value: value, message: message, rule: rule))
    }

    /// Whether any error was recorded.
    public var hasErrors: Bool { all.contains(where: \.isError) }
    /// The errors, in the order they were found.
    public var errors: [Diagnostic] { all.filter(\.isError) }
    /// The warnings, in the order they were found.
    public var warnings: [Diagnostic] { all.filter { !$0.isError } }
    /// Whether nothing was recorded, error or warning.
    public var isEmpty: Bool { all.isEmpty }
    /// How many diagnostics were recorded, errors and warnings.
    public var count: Int { all.count }

    /// Every warning turned into an error (what strict mode does with accepted quirks).
    public mutating func escalateWarnings() {
        all = all.map { $0.escalated() }
    }

    /// The diagnostics ordered by position in the document (stable for equal positions).
    public var sortedByLocation: [Diagnostic] {
        all.enumerated().sorted {
            ($0.element.location.offset, $0.offset) < ($1.element.location.offset, $1.offset)
        }.map(\.element)
    }

    /// Iterates over `all`, in the order found.
    public func makeIterator() -> IndexingIterator<[Diagnostic]> {
        all.makeIterator()
    }

    /// The diagnostics as lines in document order for people: without warnings when `quiet`,
    /// and of each run of identical ones (same severity, rule and message) the first `first`,
    /// then one line `FILE: SEVERITY: and N more like it (RULE): MESSAGE` after them all.
    public func lines(quiet: Bool = false, first: Int = 3) -> [String] {
        var seen: [String: Int] = [:]
        var order: [(key: String, diagnostic: Diagnostic)] = []
        var lines: [String] = []
        for d in sortedByLocation where !(quiet && !d.isError) {
            let key = "\(d.severity.rawValue)\u{0}\(d.rule)\u{0}\(d.message)"
            let count = seen[key, default: 0] + 1
            seen[key] = count
            if count <= first { lines.append(d.description) } else if count == first + 1 { order.append((key, d)) }
        }
        for (key, d) in order {
            let oneLine = d.message.split(whereSeparator: \.isNewline).joined(separator: " ")
            lines.append("\(d.file): \(d.severity.rawValue): and \(seen[key]! - first) more like it (\(d.rule)): \(oneLine)")
        }
        return lines
    }

    /// One diagnostic per line, in document order.
    public var description: String {
        sortedByLocation.map(\.description).joined(separator: "\n")
    }
}
