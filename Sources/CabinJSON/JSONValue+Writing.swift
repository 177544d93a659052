/// Building values in code and writing them back out as JSON text.
///
/// Output is deterministic: members in their order, numbers in Swift's shortest
/// round-tripping form (or their source text when parsed), strings escaped per RFC 8259
/// (and DEL and the C1 controls escaped as well, so printed JSON cannot drive a terminal).
/// Pretty output indents by two spaces and keeps a container on one line when it holds
/// only scalars and fits in 100 columns.
///
/// Thread: pure; any thread except the render thread.
extension JSONValue {
    /// An object from key/value pairs, in the given order.
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        JSONValue(.object(JSONObject(members.map { JSONObject.Member(key: $0.0, keyLocation: .start, value: $0.1) })))
    }

    /// An array of `items`, in order.
    public static func array(_ items: [JSONValue]) -> JSONValue { JSONValue(.array(items)) }
    /// A string (escaped when written).
    public static func string(_ s: String) -> JSONValue { JSONValue(.string(s)) }
    /// `true` or `false`.
    public static func bool(_ b: Bool) -> JSONValue { JSONValue(.bool(b)) }
    /// `null`.
    public static var null: JSONValue { JSONValue(.null) }

    /// A number; must be finite (JSON has no NaN or infinity: non-finite values write `null`).
    public static func number(_ x: Double) -> JSONValue {
        JSONValue(.number(JSONNumber(x, text: x.isFinite ? "\(x)" : "null")))
    }

    /// An integer number, written without a fraction.
    public static func number(_ x: Int) -> JSONValue {
        JSONValue(.number(JSONNumber(Double(x), text: String(x))))
    }

    /// The value as JSON text, pretty-printed (default) or compact.
    public func serialized(pretty: Bool = true) -> String {
        var out = ""
        write(into: &out, indent: pretty ? 0 : nil)
        if pretty { out += "\n" }
        return out
    }

    private var isScalar: Bool {
        switch kind {
        case .array, .object: return false
        default: return true
        }
    }

    private func write(into out: inout String, indent: Int?) {
        switch kind {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.text
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            writeContainer(open: "[", close: "]", count: items.count, indent: indent, into: &out,
                           allScalar: items.allSatisfy(\.isScalar)) { i, out, inner in
                items[i].write(into: &out, indent: inner)
            }
        case .object(let object):
            let members = object.members
            writeContainer(open: "{", close: "}", count: members.count, indent: indent, into: &out,
                           allScalar: members.allSatisfy(\.value.isScalar)) { i, out, inner in
                Self.writeString(members[i].key, into: &out)
                out += indent == nil ? ":" : ": "
                members[i].value.write(into: &out, indent: inner)
            }
        }
    }

    private func writeContainer(
        open: String, close: String, count: Int, indent: Int?, into out: inout String, allScalar: Bool,
        element: (Int, inout String, Int?) -> Void
    ) {
        guard count > 0 else { out += open + close; return }
        if let indent, allScalar {
            var line = open
            for i in 0..<count {
                if i > 0 { line += ", " }
                element(i, &line, nil)
            }
            line += close
            if line.count + indent <= 100 { out += line; return }
        }
        out += open
        for i in 0..<count {
            if i > 0 { out += "," }
            if let indent { out += "\n" + String(repeating: " ", count: indent + 2) }
            element(i, &out, indent.map { $0 + 2 })
        }
        if let indent { out += "\n" + String(repeating: " ", count: indent) }
        out += close
    }

    /// `s` as a JSON string literal, quotes included (the writer's and the excerpts' escaping).
    static func quoted(_ s: String) -> String {
        var out = ""
        writeString(s, into: &out)
        return out
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C0 as RFC 8259 requires; DEL and C1 too, so the text is also safe on a terminal.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
