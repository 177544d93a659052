import FoundationEssentials


/// libsndfile gives every Ogg stream it writes a random serial number, so encoding the
/// same audio twice gives different bytes. The library's files are committed, so the
/// generator rewrites the serial to one derived from the sound's name (and each page's
/// CRC with it): the same recipe then gives the same file, byte for byte.
///
/// Thread: control thread only (file I/O).
public enum OggSerialNumber {
    /// Sets the serial number of every page of the Ogg file at `path`.
    public static func rewrite(_ path: String, serial: UInt32) throws {
        let url = URL(fileURLWithPath: path)
        var bytes = [UInt8](try Data(contentsOf: url))
        var offset = 0
        while offset + 27 <= bytes.count {
            guard bytes[offset] == 0x4F, bytes[offset + 1] == 0x67, bytes[offset + 2] == 0x67, bytes[offset + 3] == 0x53 else {
                throw SoundFileError(.writeFailed, path: path, reason: "not an Ogg page at byte \(offset)")
            }
            let segments = Int(bytes[offset + 26])
            guard offset + 27 + segments <= bytes.count else { break }
            let body = (0..<segments).reduce(0) { $0 + Int(bytes[offset + 27 + $1]) }
            let length = 27 + segments + body
            guard offset + length <= bytes.count else { break }
            for k in 0..<4 {
                bytes[offset + 14 + k] = UInt8(truncatingIfNeeded: serial >> (8 * UInt32(k)))
                bytes[offset + 22 + k] = 0
            }
            let crc = crc32(bytes[offset..<(offset + length)])
            for k in 0..<4 { bytes[offset + 22 + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k))) }
            offset += length
        }
        let output = try OutputFile(path)
        try output.write(bytes)
        try output.commit()
    }

    /// A stable serial for a name (FNV-1a).
    public static func serial(for name: String) -> UInt32 {
        name.utf8.reduce(2_166_136_261) { ($0 ^ UInt32($1)) &* 16_777_619 }
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
