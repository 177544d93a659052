import Glibc

/// libsndfile gives every Ogg stream it writes a random serial number, so encoding the
/// same audio twice gives different bytes. Cabin rewrites the serial (and each page's CRC
/// with it) once the file is closed: a render written as `.opus` or `.ogg` is the same
/// file, byte for byte, every time, as its WAV is. The library generator derives the
/// serial from the sound's name; `SoundFileWriter` uses ``renderSerial``.
///
/// The rewrite walks the file page by page in place (one page, at most 65,307 bytes, in
/// memory); only page headers change.
///
/// Thread: control thread only (file I/O).
public enum OggSerialNumber {
    /// The serial `SoundFileWriter` gives every Ogg file it writes.
    public static let renderSerial = serial(for: "cabin")

    /// Sets the serial number of every page of the Ogg file at `path`.
    public static func rewrite(_ path: String, serial: UInt32) throws(SoundFileError) {
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw SoundFileError(.writeFailed, path: path, reason: OutputError.reason(errno)) }
        defer { close(fd) }
        try rewrite(descriptor: fd, name: path, serial: serial)
    }

    /// Sets the serial number of every page of the Ogg file open (read-write) on `descriptor`;
    /// `name` is used in messages. The corresponding C functions are `pread` and `pwrite`.
    public static func rewrite(descriptor fd: Int32, name: String, serial: UInt32) throws(SoundFileError) {
        var page = [UInt8](repeating: 0, count: 27 + 255 + 255 * 255)
        var offset: Int64 = 0
        while true {
            let header = readFully(fd, &page, at: 0, count: 27, offset: offset)
            if header == 0 { return }
            guard header == 27, page[0] == 0x4F, page[1] == 0x67, page[2] == 0x67, page[3] == 0x53 else {
                throw SoundFileError(.writeFailed, path: name, reason: "not an Ogg page at byte \(offset)")
            }
            let segments = Int(page[26])
            guard readFully(fd, &page, at: 27, count: segments, offset: offset + 27) == segments else {
                throw SoundFileError(.writeFailed, path: name, reason: "Ogg page cut short at byte \(offset)")
            }
            let body = (0..<segments).reduce(0) { $0 + Int(page[27 + $1]) }
            let length = 27 + segments + body
            guard readFully(fd, &page, at: 27 + segments, count: body, offset: offset + Int64(27 + segments)) == body else {
                throw SoundFileError(.writeFailed, path: name, reason: "Ogg page cut short at byte \(offset)")
            }
            for k in 0..<4 {
                page[14 + k] = UInt8(truncatingIfNeeded: serial >> (8 * UInt32(k)))
                page[22 + k] = 0
            }
            let crc = crc32(page[0..<length])
            for k in 0..<4 { page[22 + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k))) }
            let written = page.withUnsafeBytes { pwrite(fd, $0.baseAddress, 27, off_t(offset)) }
            guard written == 27 else {
                throw SoundFileError(.writeFailed, path: name, reason: OutputError.reason(written < 0 ? errno : EIO))
            }
            offset += Int64(length)
        }
    }

    /// A stable serial for a name (FNV-1a).
    public static func serial(for name: String) -> UInt32 {
        name.utf8.reduce(2_166_136_261) { ($0 ^ UInt32($1)) &* 16_777_619 }
    }

    /// Reads `count` bytes at file offset `offset` into `buffer[at...]`; returns how many
    /// were read (fewer only at the end of the file).
    private static func readFully(_ fd: Int32, _ buffer: inout [UInt8], at index: Int, count: Int, offset: Int64) -> Int {
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + index + done, count - done, off_t(offset) + off_t(done)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return done
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value 0.
    private static let table: [UInt32] = (0..<256).map { i in
        var r = UInt32(i) << 24
        for _ in 0..<8 { r = (r & 0x8000_0000) != 0 ? (r << 1) ^ 0x04C1_1DB7 : r << 1 }
        return r
    }

    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for b in bytes { crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(b)) & 0xFF)] }
        return crc
    }
}
