/// A fixed set of key names that a document's keys are checked against without making a
/// string or touching a reference count per check: the names' UTF-8 laid end to end in one
/// buffer, compared byte for byte (a reader checks every object of a document against one).
///
/// ```swift
/// static let eventKeys = JSONKeySet(["Time", "EventType", "EventDuration"])
/// doc.hasOnlyKeys(object, Self.eventKeys)
/// ```
///
/// Thread: a value type; any thread.
public struct JSONKeySet: Sendable {
    /// The names as a set (for messages and suggestions).
    public let names: Set<String>
    private let utf8: [UInt8]
    /// Each name's start in `utf8`; the last entry is the end of the buffer.
    private let starts: [Int]

    /// A set of `names` (duplicates count once).
    public init(_ names: [String]) {
        self.names = Set(names)
        var utf8: [UInt8] = []
        var starts: [Int] = []
        for name in self.names.sorted() {
            starts.append(utf8.count)
            utf8.append(contentsOf: name.utf8)
        }
        starts.append(utf8.count)
        self.utf8 = utf8
        self.starts = starts
    }

    /// Whether one of the names is exactly `bytes[range]`.
    @inline(__always)
    func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        utf8.withUnsafeBufferPointer { names in
            starts.withUnsafeBufferPointer { starts in
                var k = 0
                while k + 1 < starts.count {
                    let start = starts[k], end = starts[k + 1]
                    k += 1
                    guard end - start == range.count else { continue }
                    var i = 0
                    while i < range.count, names[start + i] == bytes[range.lowerBound + i] { i += 1 }
                    if i == range.count { return true }
                }
                return false
            }
        }
    }
}

extension JSONDocument {
    /// Whether the string node `key` is one of `known` (as Swift compares strings).
    @inline(__always)
    public func isKnown(_ key: Int, _ known: JSONKeySet) -> Bool {
        let n = nodes[key]
        guard n.kind == .string else { return false }
        if n.flags != 0 { return stringValue(key).map { known.names.contains($0) } ?? false }
        return storage.bytes.withUnsafeBufferPointer { known.contains($0, Int(n.offset) + 1..<Int(n.end)) }
    }

    /// Whether every key of `object` is in `known`.
    public func hasOnlyKeys(_ object: Int, _ known: JSONKeySet) -> Bool {
        for key in members(object) where !isKnown(key, known) { return false }
        return true
    }

    /// Records a warning for every member of `object` whose key is not in `known` (as
    /// ``JSONObject/warnUnknownKeys(known:at:rule:in:note:)``).
    public func warnUnknownKeys(
        _ object: Int, known: JSONKeySet, at path: @autoclosure () -> JSONPath, rule: String,
        in diagnostics: inout Diagnostics, note: String = "ignored"
    ) {
        for keyNode in members(object) where !isKnown(keyNode, known) {
            let key = stringValue(keyNode) ?? ""
            let shown = KeySuggestion.shortened(key)
            var message = "unknown key \"\(shown)\" \(note)"
            if let guess = KeySuggestion.closest(to: key, in: known.names) {
                message += " (did you mean \"\(guess)\"?)"
            }
            diagnostics.warning(message, at: location(keyNode), path: path().key(shown),
                                value: "\"\(shown)\"", rule: rule)
        }
    }
}
