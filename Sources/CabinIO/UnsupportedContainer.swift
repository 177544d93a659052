import Glibc

/// Recognises audio containers that libsndfile cannot read, from their first bytes, so
/// the user hears "unsupported format: MP4/AAC" rather than "not a sound file".
enum UnsupportedContainer {
    /// The container's name if the file starts like one Cabin cannot read.
    static func sniff(_ path: String) -> String? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var head = [UInt8](repeating: 0, count: 16)
        let n = fread(&head, 1, head.count, f)
        return identify(Array(head.prefix(n)))
    }

    static func identify(_ b: [UInt8]) -> String? {
        func at(_ offset: Int, _ bytes: [UInt8]) -> Bool {
            b.count >= offset + bytes.count && Array(b[offset..<(offset + bytes.count)]) == bytes
        }
        if at(4, Array("ftyp".utf8)) { return "MP4/M4A (AAC or ALAC)" }
        if at(0, [0x1A, 0x45, 0xDF, 0xA3]) { return "Matroska/WebM" }
        if at(0, [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return "ASF/WMA" }
        if at(0, Array("MThd".utf8)) { return "MIDI (notes, not audio)" }
        if at(0, [0x0B, 0x77]) { return "AC-3" }
        if b.count >= 2 && b[0] == 0xFF && (b[1] & 0xF6) == 0xF0 { return "AAC (ADTS)" }
        if at(0, Array("OggS".utf8)) && at(28, Array("Speex".utf8)) { return "Ogg Speex" }
        return nil
    }
}
