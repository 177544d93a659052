import Glibc

/// Whether a file is a sound rather than a session document, decided by its extension and
/// then its first bytes (never by a failed JSON parse): `cabin play song.flac` plays the
/// file as a one-layer session.
public enum AudioContainer {
    /// Extensions of the sound files Cabin reads, and of those it names as unsupported.
    public static let soundExtensions: Set<String> = ["wav", "wave", "flac", "opus", "ogg", "oga", "mp3", "aif", "aiff",
                                                      "aifc", "m4a", "mp4", "aac", "wma", "webm", "mka"]

    /// True when `path` names a sound file: a known extension, or (for other names) the
    /// first bytes of a sound container. `-` (standard input) is a document.
    public static func isSoundFile(_ path: String) -> Bool {
        guard path != "-" else { return false }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: "."), soundExtensions.contains(name[name.index(after: dot)...].lowercased()) {
            return true
        }
        guard let f = fopen(path, "rb") else { return false }
        defer { fclose(f) }
        var head = [UInt8](repeating: 0, count: 36)
        let n = fread(&head, 1, head.count, f)
        return isSoundHeader(Array(head.prefix(n)))
    }

    /// True when `bytes` (a file's first bytes) start a sound container: RIFF/WAVE, RF64,
    /// FLAC, Ogg, AIFF, MP3 (ID3 tag or frame sync), or one `UnsupportedContainer` names.
    public static func isSoundHeader(_ b: [UInt8]) -> Bool {
        func at(_ offset: Int, _ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return b.count >= offset + bytes.count && Array(b[offset..<(offset + bytes.count)]) == bytes
        }
        if (at(0, "RIFF") || at(0, "RF64")) && at(8, "WAVE") { return true }
        if at(0, "fLaC") || at(0, "OggS") || at(0, "ID3") { return true }
        if at(0, "FORM") && (at(8, "AIFF") || at(8, "AIFC")) { return true }
        if b.count >= 2 && b[0] == 0xFF && (b[1] & 0xE0) == 0xE0 { return true }   // MPEG audio frame sync
        return UnsupportedContainer.identify(b) != nil
    }
}
