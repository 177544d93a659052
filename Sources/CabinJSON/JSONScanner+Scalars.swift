import CCabinFastFloat

extension JSONScanner {
    /// Parses a string starting at the opening quote at `pos` and appends its node (a value
    /// or a key): its bytes checked, text made only when it has escapes.
    mutating func parseString() throws(JSONStop) {
        let start = pos
        let at = location(pos)
        pos += 1
        var buffer: [UInt8] = []
        var segmentStart = pos
        var escaped = false
        var ascii = true
        while true {
            guard pos < bytes.count else {
                throw fail("unterminated string", at: start, value: token(at: start))
            }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { break }
            if b >= 0x80 {
                ascii = false
                lineHasNonASCII = true
            } else if b < 0x20 {
                let hint = (b == 0x0A || b == 0x0D) ? "; strings cannot span lines (unterminated string?)" : ""
                throw fail("unescaped control character U+\(hex4(UInt32(b))) in a string\(hint)", at: pos,
                           value: .some(nil))
            }
            if b == UInt8(ascii: "\\") {
                if !escaped { buffer.reserveCapacity(pos - segmentStart + 16) }
                escaped = true
                buffer.append(contentsOf: bytes[segmentStart..<pos])
                try parseEscape(into: &buffer)
                segmentStart = pos
                continue
            }
            pos += 1
        }
        if escaped {
            buffer.append(contentsOf: bytes[segmentStart..<pos])
            guard let text = String(validating: buffer, as: UTF8.self) else {
                throw fail("invalid UTF-8 in a string", at: start, rule: "json.encoding", value: .some(nil))
            }
            append(.string, at: at, flags: 1, end: pos, count: strings.count)
            strings.append(text)
        } else {
            if !ascii, !Self.isValidUTF8(bytes, segmentStart..<pos) {
                throw fail("invalid UTF-8 in a string", at: start, rule: "json.encoding", value: .some(nil))
            }
            append(.string, at: at, flags: ascii ? 0 : 2, end: pos)
        }
        pos += 1
    }

    /// Whether `bytes[range]` is valid UTF-8 (as `String(validating:)` decides), without
    /// making a string.
    static func isValidUTF8(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        var iterator = bytes[range].makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Parses one escape sequence at `pos` (the backslash) and appends its UTF-8 bytes.
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONStop) {
        let escapeStart = pos
        guard pos + 1 < bytes.count else {
            throw fail("unterminated escape sequence at the end of the document", at: pos, value: "\\")
        }
        let c = bytes[pos + 1]
        pos += 2
        switch c {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hexQuad(escapeStart: escapeStart)
            if (0xD800...0xDBFF).contains(scalar) {
                guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u")
                else {
                    throw fail("unpaired UTF-16 surrogate \\u\(hex4(scalar)) in a string", at: escapeStart,
                               rule: "json.encoding", value: "\\u\(hex4(scalar))")
                }
                let lowStart = pos
                pos += 2
                let low = try hexQuad(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw fail("unpaired UTF-16 surrogate \\u\(hex4(scalar)) in a string", at: escapeStart,
                               rule: "json.encoding", value: "\\u\(hex4(scalar))")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw fail("unpaired UTF-16 surrogate \\u\(hex4(scalar)) in a string", at: escapeStart,
                           rule: "json.encoding", value: "\\u\(hex4(scalar))")
            }
            guard let unicode = Unicode.Scalar(scalar) else {
                throw fail("invalid escape \\u\(hex4(scalar))", at: escapeStart, value: .some(nil))
            }
            buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            throw fail("invalid escape sequence \\\(describe(byteAt: escapeStart + 1)) in a string; "
                       + "use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX", at: escapeStart, value: .some(nil))
        }
    }

    /// Reads four hex digits at `pos`.
    private mutating func hexQuad(escapeStart: Int) throws(JSONStop) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard pos < bytes.count, let digit = hexValue(bytes[pos]) else {
                throw fail("\\u must be followed by four hexadecimal digits", at: escapeStart, value: .some(nil))
            }
            value = value * 16 + digit
            pos += 1
        }
        return value
    }

    private func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    private func isDigit(_ offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] >= UInt8(ascii: "0") && bytes[offset] <= UInt8(ascii: "9")
    }

    /// Parses a number with RFC 8259 grammar; rejects non-finite results.
    mutating func parseNumber() throws(JSONStop) {
        let start = pos
        if bytes[pos] == UInt8(ascii: "-") {
            pos += 1
            guard isDigit(pos) else {
                if pos < bytes.count, bytes[pos] == UInt8(ascii: "I") || bytes[pos] == UInt8(ascii: "i") {
                    throw fail("\(token(at: start) ?? "-Infinity") is not valid JSON: numbers must be finite",
                               at: start, rule: "json.non-finite")
                }
                throw fail("'-' must be followed by a digit", at: start)
            }
        }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if isDigit(pos) {
                throw fail("leading zeros are not allowed in JSON numbers", at: start)
            }
        } else {
            while isDigit(pos) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard isDigit(pos) else { throw fail("expected a digit after the decimal point", at: start) }
            while isDigit(pos) { pos += 1 }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard isDigit(pos) else { throw fail("expected a digit in the exponent", at: start) }
            while isDigit(pos) { pos += 1 }
        }
        // The value, exact and rounded to nearest-even as strtod rounds (fast_float: Clinger's
        // fast path, Eisel–Lemire, big-integer digit comparison), from the bytes themselves.
        let end = pos
        var value = 0.0
        let outcome = bytes.withUnsafeBufferPointer { buffer in
            cabin_parse_double(buffer.baseAddress! + start, buffer.baseAddress! + end, &value)
        }
        guard outcome == .parsed else {
            // Past ±Double.greatestFiniteMagnitude: it rounds to ±infinity. (One below the least
            // subnormal rounds to ±0 and is kept, as strtod and Double(String) give it;
            // .notANumber cannot happen: the grammar was checked above.)
            let text = String(decoding: bytes[start..<pos], as: UTF8.self)
            throw fail("number \(text.count > 24 ? String(text.prefix(24)) + "…" : text) is out of range "
                       + "for a 64-bit float", at: start, rule: "json.number-range")
        }
        append(.number, at: location(start), end: pos, number: value)
    }

    /// Parses `true`, `false` or `null`; names `NaN` and `Infinity` as non-finite numbers.
    mutating func parseLiteral() throws(JSONStop) {
        let start = pos
        for (word, kind, flags) in [("true", JSONDocument.Kind.bool, UInt8(1)), ("false", .bool, 0), ("null", .null, 0)] {
            let utf8 = Array(word.utf8)
            if bytes.count - pos >= utf8.count, bytes[pos..<pos + utf8.count].elementsEqual(utf8) {
                pos += utf8.count
                append(kind, at: location(start), flags: flags)
                return
            }
        }
        let word = token(at: start) ?? ""
        if ["nan", "infinity", "inf"].contains(word.lowercased()) {
            throw fail("\(word) is not valid JSON: numbers must be finite", at: start, rule: "json.non-finite")
        }
        throw fail("unexpected \"\(word)\": expected a value (true, false, null, a number, a string, "
                   + "an array or an object)", at: start)
    }
}
