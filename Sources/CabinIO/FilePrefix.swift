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
        var bytes = [UInt8](repeating: 0, count: max(0, maximumBytes))
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

    /// Up to `maximumBytes` from the end of `path` (where APEv2 and ID3v1 tags live); nil when
    /// it cannot be opened or read. The corresponding C functions are `open`, `lseek` and `read`.
    public static func readEnd(_ path: String, maximumBytes: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = lseek(fd, 0, SEEK_END)
        guard size >= 0, lseek(fd, max(0, size - off_t(maximumBytes)), SEEK_SET) >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(min(size, off_t(maximumBytes))))
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
