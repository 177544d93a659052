import CabinPlayback

/// Path text as Foundation's `NSString` reads it (slashes collapsed, a trailing slash
/// ignored), without Foundation: CabinPlayback's `PathText`, which `SessionSource` uses.
extension String {
    /// `a/b/c.ahap` → `c.ahap`; `/` → `/`.
    var lastPathComponent: String { PathText.lastComponent(of: self) }

    /// `a/b/c.ahap` → `a/b`; `c.ahap` → ``; `/c.ahap` → `/`.
    var deletingLastPathComponent: String { PathText.folder(of: self) }
}
