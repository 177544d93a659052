import Glibc

/// The first bytes of a file (where tags live: ID3v2, FLAC metadata, Ogg headers), however
/// large the file is.
///
/// Thread: any thread but the render thread (blocking I/O).
public enum FilePrefix {
    /// Up to `maximumBytes` from the start of `path`; nil when it cannot be opened or read.
    /// The corresponding C functions are `open` and `read`.
    public static func read(_ path: String, maximumBytes: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return readAll(fd, count: max(0, maximumBytes))
    }

    /// Up to `maximumBytes` from the end of `path` (where APEv2 and ID3v1 tags live); nil when
    /// it cannot be opened or read. The corresponding C functions are `open`, `lseek` and `read`.
    public static func readEnd(_ path: String, maximumBytes: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        guard size >= 0, lseek(fd, max(0, size - off_t(maximumBytes)), SEEK_SET) >= 0 else { return nil }
        return readAll(fd, count: Int(min(size, off_t(maximumBytes))))
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
