/// Path text as Foundation's `NSString` reads it (slashes collapsed, a trailing slash
/// ignored), without Foundation.
extension String {
    /// `a/b/c.ahap` → `c.ahap`; `/` → `/`.
    var lastPathComponent: String {
        let path = withFixedSlashes
        guard path.utf16.count > 1 else { return path }
        return String(path[path.startOfLastPathComponent...])
    }

    /// `a/b/c.ahap` → `a/b`; `c.ahap` → ``; `/c.ahap` → `/`.
    var deletingLastPathComponent: String {
        let path = withFixedSlashes
        if path == "/" || path.isEmpty { return path }
        let start = path.startOfLastPathComponent
        if start == path.startIndex { return "" }
        if start == path.index(after: path.startIndex) { return "/" }
        return String(path[..<path.index(before: start)])
    }

    /// Runs of slashes as one, no trailing slash (`/` stays).
    private var withFixedSlashes: String {
        if self == "/" { return self }
        var path = ""
        var afterSlash = false
        for character in self {
            if character == "/" && afterSlash { continue }
            afterSlash = character == "/"
            path.append(character)
        }
        if path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private var startOfLastPathComponent: Index {
        lastIndex(of: "/").map(index(after:)) ?? startIndex
    }
}
