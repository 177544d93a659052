import Glibc

/// The first bytes of a file (where tags live: ID3v2, FLAC metadata, Ogg headers), however
/// large the file is.
///
/// Thread: any thread but the render thread (blocking I/O).
public enum FilePrefix {
    /// Up to `maximumBytes` from the start of `path`; nil when it cannot be opened or read,
    /// or is not a regular file (a FIFO, `/dev/stdin`, `/dev/tty`, `/dev/urandom`: opened
    /// non-blocking and never read, so a playlist entry naming one cannot hang the start).
    /// The corresponding C functions are `open`, `fstat` and `read`.
    public static func read(_ path: String, maximumBytes: Int) -> [UInt8]? {
        let fd = openRegular(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readAll(fd, count: max(0, maximumBytes))
    }

    /// Up to `maximumBytes` from the end of `path` (where APEv2 and ID3v1 tags live); nil when
    /// it cannot be opened or read, or is not a regular file. The corresponding C functions
    /// are `open`, `fstat`, `lseek` and `read`.
    public static func readEnd(_ path: String, maximumBytes: Int) -> [UInt8]? {
        let fd = openRegular(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        guard size >= 0, lseek(fd, max(0, size - off_t(maximumBytes)), SEEK_SET) >= 0 else { return nil }
        return readAll(fd, count: Int(min(size, off_t(maximumBytes))))
    }

    /// `path` opened for reading when it is a regular file (blocking again once known to be
    /// one); −1 otherwise.
    private static func openRegular(_ path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return -1 }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return -1
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Up to `count` bytes from `fd`'s position (fewer at the end of the file); nil on an error.
    private static func readAll(_ fd: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var total = 0
        while total < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return nil }
            if got == 0 { break }
            total += got
        }
        bytes.removeSubrange(total...)
        return bytes
    }
}
