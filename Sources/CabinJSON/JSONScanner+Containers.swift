extension JSONScanner {
    /// Parses any value at `pos` (whitespace already skipped).
    mutating func parseValue() throws(JSONStop) {
        guard let byte = peek else {
            throw fail("unexpected end of the document: expected a value", at: pos, value: .some(nil))
        }
        values += 1
        if values > options.maxValues {
            throw fail("more than \(options.maxValues) values: \(options.valueLimitReason ?? "the limit for this document")",
                       at: pos, rule: "json.values", value: .some(nil))
        }
        switch byte {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try parseNumber()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "i"):
            try parseLiteral()
        default:
            throw fail("unexpected \(describe(byteAt: pos)): expected a value", at: pos)
        }
    }

    /// Opens the container of `kind` whose bracket is at `pos` (one level deeper, the bracket
    /// consumed): its node.
    private mutating func open(_ kind: JSONDocument.Kind) throws(JSONStop) -> Int {
        if depth >= options.maxDepth {
            throw fail("nesting is deeper than \(options.maxDepth) levels", at: pos,
                       rule: "json.depth", value: .some(nil))
        }
        depth += 1
        let node = nodes.count
        append(kind, at: location(pos))
        pos += 1
        return node
    }

    /// Right after the opening bracket: whether the container is empty (`{}`, `[ ]`), then
    /// closed with its closer `closer` consumed.
    private mutating func closesEmpty(_ node: Int, _ closer: UInt8) -> Bool {
        skipWhitespace()
        guard peek == closer else { return false }
        pos += 1
        close(node, count: 0)
        return true
    }

    /// The container node at `node` ends before the next node and holds `count` children;
    /// one level up.
    private mutating func close(_ node: Int, count: Int) {
        depth -= 1
        nodes[node].end = UInt32(truncatingIfNeeded: nodes.count)
        nodes[node].count = UInt32(truncatingIfNeeded: count)
    }

    private mutating func parseObject() throws(JSONStop) {
        let node = try open(.object)
        if closesEmpty(node, UInt8(ascii: "}")) { return }
        var count = 0
        var seen: Set<String>?  // made once an object has many keys; small ones compare directly
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else {
                throw fail("expected a key in double quotes, found \(describe(byteAt: pos))", at: pos)
            }
            let keyLocation = location(pos)
            let keyNode = nodes.count
            try parseString()
            if isDuplicate(keyNode, in: node, count: count, &seen) {
                let key = keyText(keyNode)
                diagnostics.warning("duplicate key \"\(key)\"; the last one wins", at: keyLocation,
                                    path: currentPath.key(key), value: "\"\(key)\"",
                                    rule: "json.duplicate-key")
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else {
                throw fail("expected ':' after the key \"\(keyText(keyNode))\", found \(describe(byteAt: pos))", at: pos)
            }
            pos += 1
            skipWhitespace()
            try parseChild(keyNode)
            count += 1
            if try closes(UInt8(ascii: "}"), "object", afterKey: keyNode) { break }
        }
        close(node, count: count)
    }

    /// Whether the key at `keyNode` is already a key of the object at `object` (which has
    /// `count` members before it): compared one by one while there are few, through a set
    /// (made on the way) once there are many.
    private func isDuplicate(_ keyNode: Int, in object: Int, count: Int, _ seen: inout Set<String>?) -> Bool {
        if seen == nil {
            if count < 12 {
                var k = object + 1
                while k < keyNode {
                    if sameKey(k, keyNode) { return true }
                    let value = nodes[k + 1]
                    k = value.kind == .array || value.kind == .object ? Int(value.end) : k + 2
                }
                return false
            }
            var keys = Set<String>()
            var k = object + 1
            while k < keyNode {
                keys.insert(keyText(k))
                let value = nodes[k + 1]
                k = value.kind == .array || value.kind == .object ? Int(value.end) : k + 2
            }
            seen = keys
        }
        return !seen!.insert(keyText(keyNode)).inserted
    }

    /// Whether two key nodes have the same decoded text (bytes compared when neither has escapes).
    private func sameKey(_ a: Int, _ b: Int) -> Bool {
        let x = nodes[a], y = nodes[b]
        if x.flags != 0 || y.flags != 0 { return keyText(a) == keyText(b) }
        let n = Int(x.end - x.offset)
        guard n == Int(y.end - y.offset) else { return false }
        let xs = Int(x.offset), ys = Int(y.offset)
        for i in 1..<n where bytes[xs + i] != bytes[ys + i] { return false }
        return true
    }

    private mutating func parseArray() throws(JSONStop) {
        let node = try open(.array)
        if closesEmpty(node, UInt8(ascii: "]")) { return }
        var count = 0
        while true {
            skipWhitespace()
            try parseChild(-count - 1)
            count += 1
            if try closes(UInt8(ascii: "]"), "array", afterKey: nil) { break }
        }
        close(node, count: count)
    }

    /// The value of a member or an element, `step` on the path (the key's node, or −1 − the
    /// element's position), and the whitespace after it.
    private mutating func parseChild(_ step: Int) throws(JSONStop) {
        path.append(step)
        try parseValue()
        path.removeLast()
        skipWhitespace()
    }

    /// After a member or element: a `,` (and whitespace; the closer right after it is a
    /// trailing comma) continues the container, the closer `closer` ends it (consumed: true),
    /// anything else is the error "expected ',' or '}' after …" (the value of the key at
    /// `afterKey`, or an array element).
    private mutating func closes(_ closer: UInt8, _ container: String, afterKey: Int?) throws(JSONStop) -> Bool {
        if peek == UInt8(ascii: ",") {
            let comma = pos
            let commaLine = (line: line, start: lineStart)
            pos += 1
            skipWhitespace()
            guard peek == closer else { return false }
            trailingComma(at: location(comma, line: commaLine.line, lineStart: commaLine.start), container: container)
        } else if peek != closer {
            let what = afterKey.map { "the value of \"\(keyText($0))\"" } ?? "an array element"
            throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))' after \(what), found \(describe(byteAt: pos))",
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
