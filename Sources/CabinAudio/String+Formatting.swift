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
}
