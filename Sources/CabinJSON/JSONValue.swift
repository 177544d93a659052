/// A parsed JSON value together with where it starts in the source.
///
/// Objects keep their members in document order (duplicates included, so readers can
/// report them); numbers keep both their `Double` value and their exact source text.
///
/// Thread: a value type; any thread.
public struct JSONValue: Sendable, Hashable {
    /// What kind of value this is, with its payload.
    public enum Kind: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, with its text as written.
        case number(JSONNumber)
        /// A string, decoded (escapes resolved).
        case string(String)
        /// An array's elements, in order.
        case array([JSONValue])
        /// An object's members, in document order.
        case object(JSONObject)
    }

    /// The value itself.
    public var kind: Kind
    /// Where the value's first character is (the `{`, `[`, `"`, digit or letter).
    public var location: SourceLocation

    /// Creates a value.
    public init(_ kind: Kind, at location: SourceLocation = .start) {
        self.kind = kind
        self.location = location
    }

    /// The kind named with its article, for messages: `a number`, `an object`, `null`.
    public var typeName: String {
        let bare: JSONDocument.Kind = switch kind {
        case .null: .null
        case .bool: .bool
        case .number: .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
        return bare.typeName
    }

    /// A short, one-line rendering of the value for messages: strings quoted, numbers as
    /// written in the source, containers abbreviated (`{…}` / `[…]` with their size),
    /// at most 40 characters.
    public var excerpt: String {
        let text: String
        switch kind {
        case .null: text = "null"
        case .bool(let b): text = b ? "true" : "false"
        case .number(let n): text = n.text
        case .string(let s): text = Self.quoted(s)
        case .array(let items): text = items.isEmpty ? "[]" : "[…] (\(items.count) items)"
        case .object(let object): text = object.members.isEmpty ? "{}" : "{…} (\(object.members.count) keys)"
        }
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}

/// A JSON number: its value as a `Double` and its text exactly as written.
///
/// The parser keeps the text as a slice of the document's bytes (no string is made per
/// number); ``text`` makes the string when it is asked for. Two numbers are equal when
/// their values and texts are.
///
/// Thread: a value type; any thread.
public struct JSONNumber: Sendable, Hashable {
    /// The value (always finite: the parser rejects numbers that overflow a `Double`).
    public var value: Double
    /// The source text: a string when it is short (held inline, no allocation), else a slice
    /// of the document's bytes.
    private enum Source: Sendable {
        case string(String)
        case bytes(ArraySlice<UInt8>)
    }
    private var source: Source

    /// The source text, e.g. `1.0`, `-2e3`.
    public var text: String {
        get {
            switch source {
            case .string(let s): s
            case .bytes(let b): String(decoding: b, as: UTF8.self)
            }
        }
        set { source = .string(newValue) }
    }

    /// Creates a number.
    public init(_ value: Double, text: String? = nil) {
        self.value = value
        self.source = .string(text ?? "\(value)")
    }

    /// A number whose text is `bytes` (a slice of the parsed document).
    init(_ value: Double, source bytes: ArraySlice<UInt8>) {
        self.value = value
        // Up to 15 UTF-8 bytes a String is stored inline: cheaper than holding the document.
        self.source = bytes.count <= 15 ? .string(String(decoding: bytes, as: UTF8.self)) : .bytes(bytes)
    }

    /// Whether the source text has no fraction and no exponent (`1`, not `1.0` or `1e0`).
    public var isIntegerLiteral: Bool {
        !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// Whether the values and the texts are equal (`1` and `1.0` are not).
    public static func == (a: JSONNumber, b: JSONNumber) -> Bool {
        a.value == b.value && a.text == b.text
    }

    /// Hashes the value and the text, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(text)
    }
}

/// A JSON object: members in document order.
///
/// Thread: a value type; any thread.
public struct JSONObject: Sendable, Hashable {
    /// One `"key": value` pair.
    public struct Member: Sendable, Hashable {
        /// The key, decoded.
        public var key: String
        /// Where the key's opening quote is.
        public var keyLocation: SourceLocation
        /// The member's value, with its own location.
        public var value: JSONValue

        /// The member `key`: `value`, its key at `keyLocation`.
        public init(key: String, keyLocation: SourceLocation, value: JSONValue) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    /// The members in document order, duplicates included.
    public var members: [Member]

    /// An object of `members`, in their order (none: `{}`).
    public init(_ members: [Member] = []) {
        self.members = members
    }

    /// The value of the last member named `key` (last wins, as in most JSON libraries).
    public subscript(key: String) -> JSONValue? {
        var i = members.count - 1
        while i >= 0 {
            if members[i].key == key { return members[i].value }
            i -= 1
        }
        return nil
    }

    /// The last member named `key`.
    public func member(_ key: String) -> Member? {
        members.last(where: { $0.key == key })
    }

    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }
}
