import Glibc

/// The user's home folder, as the files Cabin keeps (state, speech cache) and reads (config)
/// are placed by default: `$HOME` when set to an absolute path, else the password database's
/// entry for this user — never `/` because `HOME` is unset. A home that does not exist is
/// never made: `exists` is false, and the caller goes without what it would keep there.
///
/// Thread: any. The corresponding C functions are `getenv`, `getpwuid_r` and `stat`.
package enum HomeDirectory {
    /// `$HOME` (absolute, trailing `/` dropped), else the password database's home for the
    /// real user id; nil when neither names one.
    package static var path: String? {
        if let home = getenv("HOME").map({ String(cString: $0) }), home.hasPrefix("/") {
            return home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
        }
        return passwordDatabaseHome
    }

    /// The home of the real user id in the password database (`getpwuid_r`), or nil.
    package static var passwordDatabaseHome: String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        let status = buffer.withUnsafeMutableBufferPointer { getpwuid_r(getuid(), &entry, $0.baseAddress!, $0.count, &result) }
        guard status == 0, result != nil, let dir = entry.pw_dir else { return nil }
        let home = String(cString: dir)
        return home.hasPrefix("/") ? home : nil
    }

    /// Whether `path` names a folder that exists (a missing home is not made).
    package static var exists: Bool {
        guard let path else { return false }
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
