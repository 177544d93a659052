import Glibc

/// What `stat(2)` says of a path: its kind, size and identity (device and inode), for the
/// callers that must tell a folder from a file, find a link, measure a file or notice a
/// folder they have walked already.
///
/// ```swift
/// if let info = try? FileStatus(path: "/music"), info.isFolder { … }
/// let real = FileStatus.resolvedPath("link.wav")   // every link resolved
/// ```
///
/// Thread: a value type; any thread except the render thread (it reads the file system).
public struct FileStatus: Sendable, Equatable {
    /// A folder.
    public var isFolder: Bool
    /// A symbolic link (only when read with `followingLinks: false`).
    public var isLink: Bool
    /// Bytes.
    public var size: Int
    /// The device and inode: equal for the same file whatever the path.
    public var device: UInt64
    /// The inode number on `device` (`st_ino`).
    public var inode: UInt64

    /// The status of `path`: of what a link leads to, or of the link itself when not
    /// `followingLinks`. Throws the errno (`ENOENT`, `ENOTDIR`, `EACCES` …) when it cannot be
    /// read. The corresponding C functions are `stat` and `lstat`.
    public init(path: String, followingLinks: Bool = true) throws(SystemError) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
            throw SystemError(operation: "\(followingLinks ? "stat" : "lstat") \(path)", code: errno)
        }
        isFolder = info.st_mode & S_IFMT == S_IFDIR
        isLink = info.st_mode & S_IFMT == S_IFLNK
        size = Int(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// `path` with every link, `.` and `..` resolved, or nil when it cannot be (a part is
    /// missing or unreadable). The corresponding C function is `realpath`.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether this process may read `path`. The corresponding C function is `access`.
    public static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }
}

extension SystemError {
    /// Whether the path (or a folder on the way to it) does not exist (`ENOENT`, `ENOTDIR`).
    public var isNoSuchFile: Bool { code == ENOENT || code == ENOTDIR }

    /// The error `errno` holds now, after a call that failed (one that reports its
    /// failure only in `errno`, as `ForceFeedbackDevice.uploadEffect` does).
    public static func fromErrno(operation: String) -> SystemError {
        SystemError(operation: operation, code: errno)
    }
}

/// The names in folder `path` (`.` and `..` left out), in the order the file system lists
/// them; nil when it cannot be opened. The corresponding C functions are `opendir`,
/// `readdir` and `closedir`.
///
/// Thread: any thread except the render thread (it reads the file system and allocates).
public func directoryEntries(_ path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
