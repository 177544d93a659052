/// Typed accessors on document nodes that record a diagnostic instead of throwing: the same
/// messages, locations and rules as ``JSONValue``'s (`expected a number, found a string "0.5"`).
///
/// Thread: pure; any thread except the render thread.
extension JSONDocument {
    /// The number, or an error if the node is not one.
    @inline(__always)
    public func number(_ node: Int, at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> Double? {
        let n = nodes[node]
        if n.kind == .number { return n.number }
        mismatch(node, "a number", at: path(), in: &diagnostics)
        return nil
    }

    /// The number as an `Int`, or an error if it is not a number with an integral value.
    public func integer(_ node: Int, at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> Int? {
        let n = nodes[node]
        if n.kind == .number {
            if n.number.rounded() == n.number, abs(n.number) < 9.0e15 { return Int(n.number) }
            let text = numberText(node)
            diagnostics.error("expected an integer, found \(text)", at: location(node), path: path(),
                              value: text, rule: "json.type")
            return nil
        }
        mismatch(node, "an integer", at: path(), in: &diagnostics)
        return nil
    }

    /// The string, or an error if the node is not one.
    public func string(_ node: Int, at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> String? {
        if let s = stringValue(node) { return s }
        mismatch(node, "a string", at: path(), in: &diagnostics)
        return nil
    }

    /// The boolean, or an error if the node is not `true` or `false`.
    public func bool(_ node: Int, at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> Bool? {
        if let b = boolValue(node) { return b }
        mismatch(node, "true or false", at: path(), in: &diagnostics)
        return nil
    }

    /// The node itself if it is an array, or an error.
    @inline(__always)
    public func array(_ node: Int, at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> Int? {
        if nodes[node].kind == .array { return node }
        mismatch(node, "an array", at: path(), in: &diagnostics)
        return nil
    }

    /// The node itself if it is an object, or an error.
    @inline(__always)
    public func object(_ node: Int, at path: @autoclosure () -> JSONPath, in diagnostics: inout Diagnostics) -> Int? {
        if nodes[node].kind == .object { return node }
        mismatch(node, "an object", at: path(), in: &diagnostics)
        return nil
    }

    /// Records `expected …, found …` at the node.
    public func mismatch(_ node: Int, _ expected: String, at path: JSONPath, in diagnostics: inout Diagnostics) {
        let found: String
        switch nodes[node].kind {
        case .null, .bool: found = excerpt(node)
        default: found = "\(typeName(node)) \(excerpt(node))"
        }
        diagnostics.error("expected \(expected), found \(found)", at: location(node), path: path,
                          value: excerpt(node), rule: "json.type")
    }
}
