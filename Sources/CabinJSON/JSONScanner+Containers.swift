extension JSONScanner {
    /// Parses any value at `pos` (whitespace already skipped).
    mutating func parseValue() throws(JSONStop) -> JSONValue {
        guard let byte = peek else {
            throw fail("unexpected end of the document: expected a value", at: pos, value: .some(nil))
        }
        values += 1
        if values > options.maxValues {
            throw fail("more than \(options.maxValues) values: \(options.valueLimitReason ?? "the limit for this document")",
                       at: pos, rule: "json.values", value: .some(nil))
        }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""):
            let start = location(pos)
            return JSONValue(.string(try parseString()), at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "i"):
            return try parseLiteral()
        default:
            throw fail("unexpected \(describe(byteAt: pos)): expected a value", at: pos)
        }
    }

    private mutating func enterContainer() throws(JSONStop) {
        if depth >= options.maxDepth {
            throw fail("nesting is deeper than \(options.maxDepth) levels", at: pos,
                       rule: "json.depth", value: .some(nil))
        }
        depth += 1
    }

    private mutating func parseObject() throws(JSONStop) -> JSONValue {
        try enterContainer()
        let start = location(pos)
        pos += 1
        var members: [JSONObject.Member] = []
        members.reserveCapacity(6)  // one allocation for most objects
        var seen: Set<String>?  // made once an object has many keys; small ones compare directly
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            pos += 1
            depth -= 1
            return JSONValue(.object(JSONObject()), at: start)
        }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                throw fail("expected a key in double quotes, found \(describe(byteAt: pos))", at: pos)
            }
            let keyLocation = location(pos)
            let key = try parseString()
            if isDuplicate(key, members, &seen) {
                diagnostics.warning("duplicate key \"\(key)\"; the last one wins", at: keyLocation,
                                    path: currentPath.key(key), value: "\"\(key)\"",
                                    rule: "json.duplicate-key")
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else {
                throw fail("expected ':' after the key \"\(key)\", found \(describe(byteAt: pos))", at: pos)
            }
            pos += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue()
            path.removeLast()
            members.append(JSONObject.Member(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            if try closes(UInt8(ascii: "}"), "object", after: "the value of \"\(key)\"") { break }
        }
        depth -= 1
        return JSONValue(.object(JSONObject(members)), at: start)
    }

    /// Whether `key` is already a key of `members`: compared one by one while there are few,
    /// through a set (made on the way) once there are many.
    private func isDuplicate(_ key: String, _ members: [JSONObject.Member], _ seen: inout Set<String>?) -> Bool {
        if seen == nil {
            if members.count < 12 { return members.contains { $0.key == key } }
            seen = Set(members.map(\.key))
        }
        return !seen!.insert(key).inserted
    }

    private mutating func parseArray() throws(JSONStop) -> JSONValue {
        try enterContainer()
        let start = location(pos)
        pos += 1
        var items: [JSONValue] = []
        items.reserveCapacity(4)
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            pos += 1
            depth -= 1
            return JSONValue(.array([]), at: start)
        }
        while true {
            skipWhitespace()
            path.append(.index(items.count))
            let value = try parseValue()
            path.removeLast()
            items.append(value)
            skipWhitespace()
            if try closes(UInt8(ascii: "]"), "array", after: "an array element") { break }
        }
        depth -= 1
        return JSONValue(.array(items), at: start)
    }

    /// After a member or element: a `,` (and whitespace; the closer right after it is a
    /// trailing comma) continues the container, the closer `closer` ends it (consumed: true),
    /// anything else is the error "expected ',' or '}' after …".
    private mutating func closes(_ closer: UInt8, _ container: String,
                                 after what: @autoclosure () -> String) throws(JSONStop) -> Bool {
        if peek == UInt8(ascii: ",") {
            let comma = pos
            let commaLine = (line: line, start: lineStart)
            pos += 1
            skipWhitespace()
            guard peek == closer else { return false }
            trailingComma(at: location(comma, line: commaLine.line, lineStart: commaLine.start), container: container)
        } else if peek != closer {
            throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))' after \(what()), found \(describe(byteAt: pos))",
                       at: pos)
        }
        pos += 1
        return true
    }

    /// A trailing comma: a warning in lenient mode, a (non-fatal) error in strict mode.
    private mutating func trailingComma(at comma: SourceLocation, container: String) {
        if options.isLenient {
            diagnostics.warning("trailing comma at the end of an \(container) (accepted in lenient mode)",
                                at: comma, path: currentPath, value: ",", rule: "json.trailing-comma")
        } else {
            diagnostics.error("trailing comma at the end of an \(container) is not allowed in strict JSON",
                              at: comma, path: currentPath, value: ",", rule: "json.trailing-comma")
        }
    }
}
