import Glibc
import Synchronization

/// Why an output could not be written: the destination as the user named it and the real
/// cause from `errno` — never an internal temporary name.
///
/// Prints as one line, e.g. `out.wav: cannot write: no space left on the device`.
///
/// Thread: any (a value).
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination as the user named it ("standard output" for `-`).
    public var path: String
    /// The errno value (positive), or 0.
    public var code: Int32
    /// The cause in words.
    public var reason: String

    /// An error writing `path` with errno `code`; `detail` says the cause in words instead of
    /// the errno's own text (`reason(_:)`).
    public init(_ path: String, code: Int32, detail: String? = nil) {
        self.path = path
        self.code = code
        self.reason = detail ?? Self.reason(code)
    }

    /// An output the command refuses to write, e.g. because it is one of the inputs.
    public init(_ path: String, refusal: String) {
        self.path = path
        self.code = 0
        self.reason = refusal
    }

    public var description: String { "\(path): \(reason)" }

    /// The cause in words for an errno value met while writing a file.
    public static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC: "cannot write: no space left on the device"
        case EDQUOT: "cannot write: disk quota exceeded"
        case EROFS: "cannot write: read-only file system"
        case EACCES, EPERM: "cannot write: permission denied"
        case EISDIR: "is a directory; give a file name"
        case ENOENT: "cannot write: no such file or folder"
        case ENOTDIR: "cannot write: a part of the path is not a folder"
        case EFBIG: "cannot write: file too large for the file system"
        case EIO: "cannot write: input/output error"
        case EPIPE: "cannot write: the reader closed the stream"
        case ENXIO: "cannot write: no reader or device behind it"
        case ELOOP: "cannot write: too many levels of symbolic links"
        case ENAMETOOLONG: "cannot write: the name is too long"
        default: "cannot write: \(SystemError.describe(errno: code).lowercased())"
        }
    }
}

/// The temporaries being written by this process, so that a signal can remove them, and
/// the sweep of temporaries that dead processes left.
///
/// Thread: `register`/`unregister` on the control thread; `removeFromSignalHandler` in
/// signal context (it only loads atomics and calls `unlink`).
package enum OutputTemporaries {
    private static let slot0 = Atomic<Int>(0), slot1 = Atomic<Int>(0)
    private static let slot2 = Atomic<Int>(0), slot3 = Atomic<Int>(0)

    private static func slot<R>(_ i: Int, _ body: (borrowing Atomic<Int>) -> R) -> R {
        switch i {
        case 0: body(slot0)
        case 1: body(slot1)
        case 2: body(slot2)
        default: body(slot3)
        }
    }

    static func register(_ path: String) {
        let copy = strdup(path)!
        for i in 0..<4 where slot(i, { $0.compareExchange(expected: 0, desired: Int(bitPattern: copy), ordering: .sequentiallyConsistent).exchanged }) {
            return
        }
        free(copy)  // more than four outputs at once: the sweep cleans up after a SIGKILL.
    }

    static func unregister(_ path: String) {
        for i in 0..<4 {
            let value = slot(i) { $0.load(ordering: .sequentiallyConsistent) }
            guard value != 0, let pointer = UnsafeMutablePointer<CChar>(bitPattern: value),
                  String(cString: pointer) == path else { continue }
            if slot(i, { $0.compareExchange(expected: value, desired: 0, ordering: .sequentiallyConsistent).exchanged }) {
                free(pointer)
            }
        }
    }

    /// Removes every temporary being written (for a handler that then calls `_exit`).
    /// Async-signal-safe. The corresponding C function is `unlink`.
    package static func removeFromSignalHandler() {
        for i in 0..<4 {
            let value = slot(i) { $0.load(ordering: .sequentiallyConsistent) }
            if let pointer = UnsafeMutablePointer<CChar>(bitPattern: value) { unlink(pointer) }
        }
    }

    /// Removes `.FILE.PID.cabin-tmp` in `folder` whose process no longer runs. The
    /// corresponding C functions are `opendir`, `readdir` (`directoryEntries`), `kill` (signal 0)
    /// and `unlink`.
    static func sweep(folder: String, file: String) {
        guard let names = directoryEntries(folder.isEmpty ? "." : folder) else { return }
        let prefix = ".\(file).", suffix = ".cabin-tmp"
        for name in names {
            guard name.hasPrefix(prefix), name.hasSuffix(suffix),
                  name.count > prefix.count + suffix.count else { continue }
            let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let pid = Int32(digits),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink((folder.isEmpty ? "" : folder + "/") + name)
        }
    }
}
