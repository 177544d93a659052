/// A parsed JSON document as one flat array of nodes (a "tape"): no object per value, no
/// reference count per value.
///
/// Every value is a node, addressed by its index (`Int`); the root is node 0. A container's
/// children follow it in document order (an object's as key, value, key, value …) and the
/// container records where its subtree ends, so walking skips a whole subtree in one step.
/// Strings are byte ranges of the document, decoded when asked for (a string with escapes
/// is decoded once while parsing); numbers keep their `Double` and their text's byte range.
/// Every node has its location (line and column worked out while parsing).
///
/// ``JSONParser/parseDocument(_:options:diagnostics:)`` makes one with the same checks and
/// the same diagnostics as the tree parser (which is this parser plus ``value(_:)``).
/// Readers that walk big documents (the haptic readers) use it directly; ``value(_:)``
/// turns any node into a ``JSONValue`` tree.
///
/// ```swift
/// var diagnostics = Diagnostics(file: "p.ahap")
/// if let doc = JSONParser.parseDocument(bytes, diagnostics: &diagnostics),
///    let pattern = doc.member(doc.root, "Pattern") {
///     for element in doc.elements(pattern) { print(doc.location(element)) }
/// }
/// ```
///
/// Thread: a value type; any thread except the render thread (allocates).
public struct JSONDocument: Sendable {
    /// What kind of value a node is.
    public enum Kind: UInt8, Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool
        /// A number.
        case number
        /// A string (keys are strings too).
        case string
        /// An array.
        case array
        /// An object.
        case object

        /// The kind named with its article, for messages: `a number`, `an object`, `null`
        /// (the one wording `JSONDocument` and `JSONValue` share).
        public var typeName: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// One node: 32 bytes, no references.
    struct Node: Sendable {
        var offset: UInt32
        var line: UInt32
        var column: UInt32
        var kind: Kind
        /// Strings: bit 0 = decoded text in `strings[count]` (escapes), bit 1 = not all ASCII;
        /// bools: bit 0 = true.
        var flags: UInt8
        /// Strings: the closing quote's offset; numbers: the end of the text; containers: the
        /// index of the node after the subtree.
        var end: UInt32
        /// Containers: elements or members; escaped strings: the index into `strings`.
        var count: UInt32
        /// Numbers: the value.
        var number: Double
    }

    /// The arrays, held once: a copy of the document (a reader passing it around, a
    /// ``Children`` sequence) costs one reference count, not one per array.
    final class Storage: Sendable {
        let bytes: [UInt8]
        let nodes: [Node]
        let strings: [String]

        init(bytes: [UInt8], nodes: [Node], strings: [String]) {
            self.bytes = bytes
            self.nodes = nodes
            self.strings = strings
        }
    }

    let storage: Storage

    /// The document's bytes as parsed.
    public var bytes: [UInt8] { storage.bytes }
    var nodes: [Node] {
        @inline(__always) get { storage.nodes }
    }
    /// The decoded text of strings with escapes.
    var strings: [String] {
        @inline(__always) get { storage.strings }
    }

    init(bytes: [UInt8], nodes: [Node], strings: [String]) {
        storage = Storage(bytes: bytes, nodes: nodes, strings: strings)
    }

    /// A document with no nodes: a reader's state before it has parsed one (no node of it
    /// may be asked for).
    public static let empty = JSONDocument(bytes: [], nodes: [], strings: [])

    /// The root value's node.
    public var root: Int { 0 }
    /// How many nodes (values and keys) the document has.
    public var nodeCount: Int { nodes.count }

    /// The node's kind.
    @inline(__always) public func kind(_ node: Int) -> Kind { nodes[node].kind }

    /// Where the node's first character is.
    public func location(_ node: Int) -> SourceLocation {
        let n = nodes[node]
        return SourceLocation(offset: Int(n.offset), line: Int(n.line), column: Int(n.column))
    }

    /// The node after `node`'s subtree (its next sibling, if it has one).
    @inline(__always) public func next(_ node: Int) -> Int {
        let n = nodes[node]
        return n.kind == .array || n.kind == .object ? Int(n.end) : node + 1
    }

    /// Elements of an array, members of an object (0 for scalars).
    public func count(_ node: Int) -> Int {
        let n = nodes[node]
        return n.kind == .array || n.kind == .object ? Int(n.count) : 0
    }

    // MARK: scalars

    /// The number, if the node is one.
    @inline(__always) public func numberValue(_ node: Int) -> Double? {
        let n = nodes[node]
        return n.kind == .number ? n.number : nil
    }

    /// The number's text as written (`1.0`, `-2e3`); empty for other kinds.
    public func numberText(_ node: Int) -> String {
        let n = nodes[node]
        guard n.kind == .number else { return "" }
        return String(decoding: bytes[Int(n.offset)..<Int(n.end)], as: UTF8.self)
    }

    /// The node as a ``JSONNumber`` (value and text), if it is a number.
    public func jsonNumber(_ node: Int) -> JSONNumber? {
        let n = nodes[node]
        guard n.kind == .number else { return nil }
        return JSONNumber(n.number, source: bytes[Int(n.offset)..<Int(n.end)])
    }

    /// Whether a number's text has no fraction and no exponent.
    public func isIntegerLiteral(_ node: Int) -> Bool {
        let n = nodes[node]
        guard n.kind == .number else { return false }
        return !bytes[Int(n.offset)..<Int(n.end)].contains {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        }
    }

    /// The boolean, if the node is one.
    public func boolValue(_ node: Int) -> Bool? {
        let n = nodes[node]
        return n.kind == .bool ? n.flags & 1 != 0 : nil
    }

    /// The string (decoded), if the node is one. Keys are string nodes too.
    public func stringValue(_ node: Int) -> String? {
        let n = nodes[node]
        guard n.kind == .string else { return nil }
        if n.flags & 1 != 0 { return strings[Int(n.count)] }
        return String(decoding: bytes[Int(n.offset) + 1..<Int(n.end)], as: UTF8.self)
    }

    /// Whether the string node's text is `text`, compared without making a string.
    @inline(__always) public func stringEquals(_ node: Int, _ text: String) -> Bool {
        let n = nodes[node]
        guard n.kind == .string else { return false }
        // Escaped or non-ASCII text compares as Swift strings do (canonical equivalence).
        if n.flags != 0 { return stringValue(node) == text }
        let start = Int(n.offset) + 1, end = Int(n.end)
        var text = text
        return text.withUTF8 { utf8 in
            guard utf8.count == end - start else { return false }
            return storage.bytes.withUnsafeBufferPointer { all in
                var i = 0
                while i < utf8.count {
                    if all[start + i] != utf8[i] { return false }
                    i += 1
                }
                return true
            }
        }
    }

    // MARK: containers

    /// The element nodes of an array (none for other kinds).
    public func elements(_ node: Int) -> Children {
        let n = nodes[node]
        guard n.kind == .array else { return Children(document: self, start: 0, end: 0, step: 1) }
        return Children(document: self, start: node + 1, end: Int(n.end), step: 1)
    }

    /// The key nodes of an object's members, in document order, duplicates included; each
    /// member's value is the node after its key (`key + 1`).
    public func members(_ node: Int) -> Children {
        let n = nodes[node]
        guard n.kind == .object else { return Children(document: self, start: 0, end: 0, step: 2) }
        return Children(document: self, start: node + 1, end: Int(n.end), step: 2)
    }

    /// The value node of the last member of `object` named `key` (last wins, as in the tree).
    public func member(_ object: Int, _ key: String) -> Int? {
        var found: Int?
        for k in members(object) where stringEquals(k, key) { found = k + 1 }
        return found
    }

    /// Child nodes of a container: elements, or member keys.
    public struct Children: Sequence, Sendable {
        let document: JSONDocument
        let start: Int
        let end: Int
        /// 1 for elements; 2 for members (a key, then its value's subtree).
        let step: Int

        /// Walks the children, stepping over each one's subtree.
        public struct Iterator: IteratorProtocol {
            let document: JSONDocument
            var current: Int
            let end: Int
            let step: Int

            /// The next child's node (for members, the key's), or nil after the last.
            @inline(__always) public mutating func next() -> Int? {
                guard current < end else { return nil }
                let node = current
                current = document.next(step == 2 ? node + 1 : node)
                return node
            }
        }

        /// An iterator from the first child.
        public func makeIterator() -> Iterator {
            Iterator(document: document, current: start, end: end, step: step)
        }
    }

    // MARK: for messages

    /// The kind named with its article: `a number`, `an object`, `null` (as ``JSONValue/typeName``).
    public func typeName(_ node: Int) -> String { nodes[node].kind.typeName }

    /// The one-line rendering for messages (as ``JSONValue/excerpt``).
    public func excerpt(_ node: Int) -> String {
        let n = nodes[node]
        let text: String
        switch n.kind {
        case .null: text = "null"
        case .bool: text = n.flags & 1 != 0 ? "true" : "false"
        case .number: text = numberText(node)
        case .string: text = JSONValue.quoted(stringValue(node) ?? "")
        case .array: text = n.count == 0 ? "[]" : "[…] (\(n.count) items)"
        case .object: text = n.count == 0 ? "{}" : "{…} (\(n.count) keys)"
        }
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }

    // MARK: the tree

    /// The node and its subtree as a ``JSONValue`` (what `JSONParser/parse(_:options:diagnostics:)` returns).
    public func value(_ node: Int) -> JSONValue {
        let n = nodes[node]
        let at = location(node)
        switch n.kind {
        case .null: return JSONValue(.null, at: at)
        case .bool: return JSONValue(.bool(n.flags & 1 != 0), at: at)
        case .number: return JSONValue(.number(jsonNumber(node)!), at: at)
        case .string: return JSONValue(.string(stringValue(node)!), at: at)
        case .array:
            var items: [JSONValue] = []
            items.reserveCapacity(Int(n.count))
            for element in elements(node) { items.append(value(element)) }
            return JSONValue(.array(items), at: at)
        case .object:
            var members: [JSONObject.Member] = []
            members.reserveCapacity(Int(n.count))
            for key in self.members(node) {
                members.append(JSONObject.Member(key: stringValue(key)!, keyLocation: location(key),
                                                 value: value(key + 1)))
            }
            return JSONValue(.object(JSONObject(members)), at: at)
        }
    }
}
