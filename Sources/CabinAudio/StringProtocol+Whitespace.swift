extension StringProtocol {
    /// Without leading and trailing spaces and tabs: Foundation's
    /// `trimmingCharacters(in: .whitespaces)` (tab, Unicode category Zs, U+200B), by Unicode
    /// scalar as Foundation trims. Package-internal: not API. Any thread.
    package func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isTrimmedWhitespace }),
              let last = scalars.lastIndex(where: { !$0.isTrimmedWhitespace })
        else { return "" }
        // Nothing to trim (the usual case): the text as it is.
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return String(self) }
        var trimmed = ""
        trimmed.unicodeScalars.append(contentsOf: scalars[first...last])
        return trimmed
    }
}

extension Unicode.Scalar {
    /// In Foundation's `CharacterSet.whitespaces`.
    fileprivate var isTrimmedWhitespace: Bool {
        // In ASCII the only space separator is the space itself.
        if isASCII { return self == " " || self == "\t" }
        return self == "\u{200B}" || properties.generalCategory == .spaceSeparator
    }
}
