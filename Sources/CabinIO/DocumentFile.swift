import Glibc

/// Reading documents (sessions, haptic patterns, manifests) whole, with a size limit checked
/// before anything is read: one line per problem, naming the real cause.
///
/// ```swift
/// let bytes = try DocumentFile.read("drive.json")   // or "-" for standard input
/// ```
///
/// Thread: control thread only (blocking I/O).
public enum DocumentFile {
    /// The largest document read: 64 MiB (the JSON parser's own limit).
    public static let maximumBytes = 64 * 1024 * 1024

    /// Why a document could not be read: one line, starting with its path.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The bytes of `path` (`-`: standard input), at most `limit` of them. A directory, a
    /// missing file or a larger document is an error; reading stops at the limit, so
    /// `/dev/zero` or an endless pipe costs nothing. The corresponding C functions are
    /// `open`, `fstat` and `read`.
    ///
    /// `regularOnly`: anything but a regular file (a FIFO, a device) is refused without
    /// waiting — it is opened non-blocking and checked before a byte is read (the config
    /// file: a FIFO there must not hang every command).
    public static func read(_ path: String, limit: Int = maximumBytes, kind: String = "document",
                            regularOnly: Bool = false) throws(ReadError) -> [UInt8] {
        let name = path == "-" ? "standard input" : path
        var fd = STDIN_FILENO
        if path != "-" {
            fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
            guard fd >= 0 else { throw ReadError(description: "\(path): \(reason(errno))") }
        }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw ReadError(description: "\(name): is a directory, not a \(kind)") }
            if regularOnly && info.st_mode & S_IFMT != S_IFREG {
                throw ReadError(description: "\(name): is not a regular file (a FIFO or a device), not a \(kind)")
            }
            if info.st_mode & S_IFMT == S_IFREG && Int(info.st_size) > limit {
                throw ReadError(description: "\(name): is \(Int(info.st_size)) bytes; a \(kind) is at most \(limit) bytes")
            }
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(description: "\(name): \(reason(errno))")
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit {
                throw ReadError(description: "\(name): is more than \(limit) bytes; a \(kind) is at most \(limit) bytes")
            }
        }
    }

    /// The cause in words, for the errors a user can act on.
    public static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "is a directory"
        case ENOTDIR: "a part of the path is not a folder"
        case ELOOP: "too many levels of symbolic links"
        default: SystemError.describe(errno: code).lowercased()
        }
    }
}
