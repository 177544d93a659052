import Glibc

/// Text formatting for the package's reports and command output, without Foundation (so the
/// `cabin` executable does not load libFoundation and ICU). Package-internal: not API.
extension String {
    /// `printf`-style formatting of numbers: `String(cFormat: "%6.1f dB", level)`.
    ///
    /// The C library's `vsnprintf` in the C locale (always a decimal point), which is what
    /// Foundation's `String(format:)` produced for numbers. Arguments are numbers only (`%d`
    /// `%x` `%f` with flags and widths); put strings in by interpolation. Any thread, but it
    /// allocates: never on the render thread. The corresponding C function is `vsnprintf`.
    package init(cFormat format: String, _ arguments: any CVarArg...) {
        self.init(cFormat: format, arguments: arguments)
    }

    /// `init(cFormat:_:)` with the arguments in an array.
    package init(cFormat format: String, arguments: [any CVarArg]) {
        let length = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
        guard length > 0 else {
            self = ""
            return
        }
        self = String(unsafeUninitializedCapacity: length + 1) { buffer in
            withVaList(arguments) { list in
                buffer.withMemoryRebound(to: CChar.self) { _ = vsnprintf($0.baseAddress, $0.count, format, list) }
            }
            return length
        }
    }

    /// Space-padded or cut to `length` UTF-16 units, as Foundation's
    /// `padding(toLength:withPad: " ", startingAt: 0)` does. Any thread.
    package func padded(toLength length: Int) -> String {
        let units = utf16.count
        if units < length { return self + String(repeating: " ", count: length - units) }
        return units == length ? self : String(decoding: Array(utf16.prefix(length)), as: UTF16.self)
    }

    /// Space-padded on the left to `length` characters (numbers in columns); longer text
    /// as it is. Any thread.
    package func leftPadded(_ length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }

    /// The text with every control character (C0, DEL, C1: escapes, bells, newlines,
    /// carriage returns, tabs) written as a visible `\u{…}` escape, so text from outside —
    /// a document's title, a tag, a station's name — cannot move the cursor, retitle the
    /// window or start a new line when printed. Any thread.
    package var terminalSafe: String {
        guard unicodeScalars.contains(where: Self.isControl) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if Self.isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text from outside (a station's title or name, a tag) as one line for display: each run
    /// of control characters (newlines, tabs, escapes, C1, DEL) becomes one space, the ends
    /// are trimmed, and text longer than `limit` characters is cut with "…" — so one event
    /// stays one line and a 4 KB metadata block cannot fill the screen. Any thread.
    package func singleLine(limit: Int = 256) -> String {
        var out = ""
        var pendingSpace = false
        for scalar in unicodeScalars {
            if Self.isControl(scalar) || scalar == " " {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.unicodeScalars.append(" ") }
            pendingSpace = false
            out.unicodeScalars.append(scalar)
        }
        guard out.count > limit else { return out }
        return String(out.prefix(max(0, limit - 1))) + "…"
    }

    /// The text for XML 1.0 (an SVG's text and attribute values): `&`, `<`, `>` and `"`
    /// escaped, and the characters XML 1.0 does not allow (C0 controls other than tab, LF
    /// and CR; U+FFFE, U+FFFF) left out, so the document stays well-formed. Any thread.
    package var xmlEscaped: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
