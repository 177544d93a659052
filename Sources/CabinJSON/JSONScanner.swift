/// Thrown inside the scanner after an error that stops parsing has been recorded.
struct JSONStop: Error {}

/// The parser's state: position, line bookkeeping, current path, diagnostics, and the
/// nodes of the ``JSONDocument`` it builds.
///
/// Containers are parsed recursively; the depth limit is checked before each descent, so
/// the recursion is bounded by ``JSONParseOptions/maxDepth``.
struct JSONScanner {
    let bytes: [UInt8]
    let options: JSONParseOptions
    var diagnostics: Diagnostics
    var pos = 0
    var depth = 0
    /// Values parsed so far (checked against ``JSONParseOptions/maxValues``).
    var values = 0
    /// The path to the value being parsed: a key's node index (≥ 0) or an array index `i`
    /// as `-(i + 1)`; made into a ``JSONPath`` only for a diagnostic.
    var path: [Int] = []
    /// The document's nodes so far.
    var nodes: [JSONDocument.Node] = []
    /// Decoded text of strings with escapes.
    var strings: [String] = []
    private(set) var line = 1
    private(set) var lineStart = 0
    private var columnCache = (offset: 0, column: 1)
    /// Whether a byte ≥ 0x80 has been read on the current line (only strings hold them): while
    /// not, a column is the byte distance from the line's start.
    var lineHasNonASCII = false

    init(bytes: [UInt8], options: JSONParseOptions, file: String) {
        self.bytes = bytes
        self.options = options
        self.diagnostics = Diagnostics(file: file)
    }

    // MARK: locations and diagnostics

    /// The location of `offset`, which must be on the current line.
    mutating func location(_ offset: Int) -> SourceLocation {
        let target = min(max(offset, lineStart), bytes.count)
        if !lineHasNonASCII {
            return SourceLocation(offset: offset, line: line, column: target - lineStart + 1)
        }
        if columnCache.offset > target || columnCache.offset < lineStart {
            columnCache = (lineStart, 1)
        }
        var column = columnCache.column
        var i = columnCache.offset
        while i < target {
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        columnCache = (target, column)
        return SourceLocation(offset: offset, line: line, column: column)
    }

    /// The location of `offset` on an earlier line (`line`, starting at `lineStart`).
    func location(_ offset: Int, line: Int, lineStart: Int) -> SourceLocation {
        var column = 1
        for i in lineStart..<min(offset, bytes.count) where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(offset: offset, line: line, column: column)
    }

    var currentPath: JSONPath {
        JSONPath(path.map { step in
            step >= 0 ? .key(keyText(step)) : .index(-step - 1)
        })
    }

    /// The decoded text of the string node `node`.
    func keyText(_ node: Int) -> String {
        let n = nodes[node]
        if n.flags & 1 != 0 { return strings[Int(n.count)] }
        return String(decoding: bytes[Int(n.offset) + 1..<Int(n.end)], as: UTF8.self)
    }

    /// Appends a scalar node at `location`.
    mutating func append(_ kind: JSONDocument.Kind, at location: SourceLocation, flags: UInt8 = 0, end: Int = 0,
                         count: Int = 0, number: Double = 0) {
        nodes.append(JSONDocument.Node(
            offset: UInt32(truncatingIfNeeded: location.offset), line: UInt32(truncatingIfNeeded: location.line),
            column: UInt32(truncatingIfNeeded: location.column), kind: kind, flags: flags,
            end: UInt32(truncatingIfNeeded: end), count: UInt32(truncatingIfNeeded: count), number: number))
    }

    /// Records an error at `offset` and returns the error that stops parsing. `value` is the
    /// excerpt to record: by default the token at `offset`; pass `.some(nil)` for none.
    mutating func fail(_ message: String, at offset: Int, rule: String = "json.syntax",
                       value: String?? = .none) -> JSONStop {
        let excerpt: String? = switch value {
        case .none: token(at: offset)
        case .some(let given): given
        }
        diagnostics.error(message, at: location(offset), path: currentPath, value: excerpt, rule: rule)
        return JSONStop()
    }

    mutating func warn(_ message: String, at offset: Int, rule: String, value: String? = nil) {
        diagnostics.warning(message, at: location(offset), path: currentPath, value: value, rule: rule)
    }

    /// Up to 16 bytes of the token at `offset`, for messages (`"3x"`, `NaN`).
    func token(at offset: Int) -> String? {
        guard offset < bytes.count else { return nil }
        var end = offset
        while end < bytes.count, end - offset < 16 {
            let b = bytes[end]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == UInt8(ascii: ",")
                || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") || b == UInt8(ascii: ":") {
                if end == offset { end += 1 }
                break
            }
            end += 1
        }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// A byte for messages: `'x'` when printable ASCII, else `byte 0xAB`.
    func describe(byteAt offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the document" }
        let b = bytes[offset]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    // MARK: whitespace

    var atEnd: Bool { pos >= bytes.count }
    var peek: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09:
                pos += 1
            case 0x0A:
                pos += 1
                newLine()
            case 0x0D:
                pos += 1
                if pos < bytes.count, bytes[pos] == 0x0A { pos += 1 }
                newLine()
            default:
                return
            }
        }
    }

    private mutating func newLine() {
        line += 1
        lineStart = pos
        columnCache = (pos, 1)
        lineHasNonASCII = false
    }

    // MARK: document

    /// Parses the whole document; `nil` after an error that stops parsing.
    mutating func parseDocument() -> JSONDocument? {
        do {
            try parseDocumentThrowing()
            return JSONDocument(bytes: bytes, nodes: nodes, strings: strings)
        } catch {
            return nil
        }
    }

    private mutating func parseDocumentThrowing() throws(JSONStop) {
        // Node offsets are 32-bit: 4 GiB is the most any document can be.
        let maxBytes = min(options.maxDocumentBytes, Int(UInt32.max))
        if bytes.count > maxBytes {
            throw fail("document is \(bytes.count) bytes; the limit is \(maxBytes) bytes",
                       at: 0, rule: "json.size", value: .some(nil))
        }
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw fail("document is UTF-16 (it starts with a UTF-16 byte-order mark); JSON must be UTF-8",
                       at: 0, rule: "json.encoding", value: .some(nil))
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            if options.isLenient {
                warn("UTF-8 byte-order mark at the start of the document (accepted in lenient mode)",
                     at: 0, rule: "json.bom")
            } else {
                throw fail("UTF-8 byte-order mark is not allowed in strict JSON", at: 0,
                           rule: "json.bom", value: .some(nil))
            }
            pos = 3
            lineStart = 3
            columnCache = (3, 1)
        }
        let contentStart = pos
        skipWhitespace()
        if atEnd {
            throw fail("empty document: expected a JSON value", at: pos, rule: "json.empty", value: .some(nil))
        }
        if pos > contentStart, options.isLenient {
            diagnostics.warning("leading whitespace before the document (accepted in lenient mode)",
                                at: SourceLocation(offset: contentStart, line: 1, column: 1),
                                path: .root, rule: "json.leading-whitespace")
        }
        // Compact exports hold about a node per 10 bytes, pretty-printed patterns one per 15:
        // one allocation for most documents.
        nodes.reserveCapacity(min(bytes.count / 8, 1 << 22) + 4)
        try parseValue()
        skipWhitespace()
        if !atEnd {
            throw fail("unexpected \(describe(byteAt: pos)) after the end of the document", at: pos)
        }
    }
}
