import CabinIO

/// A track's loudness tags, as gains in dB that bring it to the library's reference
/// loudness (−23 LUFS): ReplayGain 2.0 (`REPLAYGAIN_TRACK_GAIN`, `REPLAYGAIN_ALBUM_GAIN`,
/// whose reference is −18 LUFS, so 5 dB come off) and Opus's R128 tags (`R128_TRACK_GAIN`,
/// `R128_ALBUM_GAIN`: Q7.8 fixed point, already relative to −23 LUFS).
///
/// Read from where the formats keep them: FLAC's Vorbis comment block, the comment packet
/// of Ogg Vorbis (`\u{3}vorbis`) and Ogg Opus (`OpusTags`), and ID3v2 `TXXX` frames (MP3,
/// and ID3 ahead of a FLAC). A pure parser over the file's first bytes.
///
/// Thread: any.
public struct TrackGainTags: Sendable, Equatable {
    /// The track's gain in dB (to the reference loudness), nil when untagged.
    public var track: Double?
    /// The album's gain in dB, nil when untagged.
    public var album: Double?

    /// ReplayGain 2.0's reference loudness (LUFS); R128 tags and the library use −23.
    public static let replayGainReference = -18.0
    /// How much of a file is read for its tags.
    public static let prefixBytes = 1 << 20

    /// Gains in dB, nil for those not tagged.
    public init(track: Double? = nil, album: Double? = nil) {
        self.track = track
        self.album = album
    }

    /// The tags of the file at `path` (none when it has none or cannot be read): those at its
    /// start (`parse`), else an APEv2 tag at its end (`parseEnd`), else, for an MP3, the
    /// ReplayGain of its LAME/Info header as libmpg123 reads it.
    public static func read(_ path: String, referenceLoudness: Double = -23) -> TrackGainTags {
        guard let bytes = FilePrefix.read(path, maximumBytes: prefixBytes) else { return TrackGainTags() }
        var tags = parse(bytes, referenceLoudness: referenceLoudness)
        if tags.track == nil && tags.album == nil, let end = FilePrefix.readEnd(path, maximumBytes: endBytes) {
            tags = parseEnd(end, referenceLoudness: referenceLoudness)
        }
        if tags.track == nil && tags.album == nil && !bytes.isEmpty && !isOggOrFLAC(bytes) {
            let shift = referenceLoudness - replayGainReference
            tags.track = MP3FeedDecoder.headerReplayGain(bytes, album: false).map { $0 + shift }
            tags.album = MP3FeedDecoder.headerReplayGain(bytes, album: true).map { $0 + shift }
            // libmpg123 answers the track's gain for the album when only that is there.
            if tags.album == tags.track { tags.album = nil }
        }
        return tags
    }

    /// How much of a file's end is read for an APEv2 tag.
    public static let endBytes = 1 << 16

    static func isOggOrFLAC(_ bytes: [UInt8]) -> Bool {
        var b = bytes[...]
        if b.starts(with: Array("ID3".utf8)) { b = b.dropFirst(id3Comments(b).1) }
        return b.starts(with: Array("fLaC".utf8)) || b.starts(with: Array("OggS".utf8)) || b.starts(with: Array("RIFF".utf8))
            || b.starts(with: Array("FORM".utf8))
    }

    /// The gain tags of an APEv2 tag at the end of a file (`bytes`: its last bytes; an ID3v1
    /// tag after it is allowed), as foobar2000 and mp3gain write them (`REPLAYGAIN_TRACK_GAIN`).
    public static func parseEnd(_ bytes: [UInt8], referenceLoudness: Double = -23) -> TrackGainTags {
        gains(apeComments(bytes), referenceLoudness: referenceLoudness)
    }

    /// The text items of an APEv2 tag (key → value) ending `bytes`.
    static func apeComments(_ bytes: [UInt8]) -> [(String, String)] {
        let b = bytes[...]
        var end = b.count
        if end >= 128, b[(end - 128)..<(end - 125)].elementsEqual("TAG".utf8) { end -= 128 }
        guard end >= 32, b[(end - 32)..<(end - 24)].elementsEqual("APETAGEX".utf8),
              let size = le32(b, end - 20), let count = le32(b, end - 16), size >= 32, size <= end else { return [] }
        let footer = end - 32
        var at = end - size
        var out: [(String, String)] = []
        for _ in 0..<min(count, 10_000) {
            guard let n = le32(b, at), let flags = le32(b, at + 4), n >= 0 else { break }
            let keyStart = at + 8
            guard keyStart < footer, let nul = b[keyStart..<footer].firstIndex(of: 0) else { break }
            let valueEnd = nul + 1 + n
            guard valueEnd <= footer else { break }
            if flags & 0x6 == 0 {  // UTF-8 text (not binary, not a locator)
                out.append((String(decoding: b[keyStart..<nul], as: UTF8.self), String(decoding: b[(nul + 1)..<valueEnd], as: UTF8.self)))
            }
            at = valueEnd
        }
        return out
    }

    /// The tags in a file's first bytes.
    public static func parse(_ bytes: [UInt8], referenceLoudness: Double = -23) -> TrackGainTags {
        var comments: [(String, String)] = []
        var b = bytes[...]
        if b.starts(with: Array("ID3".utf8)) {
            let (frames, end) = id3Comments(b)
            comments += frames
            b = b.dropFirst(end)
        }
        if b.starts(with: Array("fLaC".utf8)) {
            comments += flacComments(b)
        } else if b.starts(with: Array("OggS".utf8)) {
            comments += oggComments(Array(b))
        }
        return gains(comments, referenceLoudness: referenceLoudness)
    }

    /// The gains among `comments` (key → value).
    static func gains(_ comments: [(String, String)], referenceLoudness: Double) -> TrackGainTags {
        var tags = TrackGainTags()
        let rgShift = referenceLoudness - replayGainReference
        let r128Shift = referenceLoudness - (-23.0)
        for (key, value) in comments {
            switch key.uppercased() {
            case "REPLAYGAIN_TRACK_GAIN": if tags.track == nil, let v = leadingNumber(value) { tags.track = v + rgShift }
            case "REPLAYGAIN_ALBUM_GAIN": if tags.album == nil, let v = leadingNumber(value) { tags.album = v + rgShift }
            case "R128_TRACK_GAIN": if let v = Int(value.trimmingCharacters()) { tags.track = Double(v) / 256 + r128Shift }
            case "R128_ALBUM_GAIN": if let v = Int(value.trimmingCharacters()) { tags.album = Double(v) / 256 + r128Shift }
            default: break
            }
        }
        // Gains beyond ±60 dB are damaged tags, not music.
        if let t = tags.track, !(abs(t) <= 60) { tags.track = nil }
        if let a = tags.album, !(abs(a) <= 60) { tags.album = nil }
        return tags
    }

    /// `-6.54 dB` → −6.54.
    static func leadingNumber(_ text: String) -> Double? {
        let t = text.trimmingCharacters()
        let number = t.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
        return Double(number).flatMap { $0.isFinite ? $0 : nil }
    }

    static func le32(_ b: ArraySlice<UInt8>, _ at: Int) -> Int? {
        let i = b.startIndex + at
        guard at >= 0, i + 4 <= b.endIndex else { return nil }
        return Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
    }

    /// A Vorbis comment block (vendor, then `KEY=value` strings), as in FLAC and Ogg.
    static func vorbisComments(_ b: ArraySlice<UInt8>) -> [(String, String)] {
        guard let vendor = le32(b, 0), let count = le32(b, 4 + vendor) else { return [] }
        var at = 8 + vendor
        var out: [(String, String)] = []
        for _ in 0..<min(count, 10_000) {
            guard let n = le32(b, at), n >= 0, b.startIndex + at + 4 + n <= b.endIndex else { break }
            let start = b.startIndex + at + 4
            let text = String(decoding: b[start..<(start + n)], as: UTF8.self)
            if let eq = text.firstIndex(of: "=") { out.append((String(text[..<eq]), String(text[text.index(after: eq)...]))) }
            at += 4 + n
        }
        return out
    }

    /// FLAC metadata blocks up to the last; type 4 is the Vorbis comment.
    static func flacComments(_ b: ArraySlice<UInt8>) -> [(String, String)] {
        var at = b.startIndex + 4
        while at + 4 <= b.endIndex {
            let header = b[at]
            let length = Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3])
            let body = at + 4
            guard body + length <= b.endIndex else { return [] }
            if header & 0x7F == 4 { return vorbisComments(b[body..<(body + length)]) }
            if header & 0x80 != 0 { return [] }
            at = body + length
        }
        return []
    }

    /// The second packet of the first Ogg stream: Vorbis's or Opus's comment header.
    static func oggComments(_ bytes: [UInt8]) -> [(String, String)] {
        let reader = OggPacketReader()
        reader.feed(bytes)
        var serial: Int32?
        var index = 0
        while let packet = reader.nextPacket() {
            if serial == nil { serial = packet.serial }
            guard packet.serial == serial else { continue }
            index += 1
            guard index == 2 else { continue }
            let p = packet.bytes[...]
            if p.starts(with: Array("OpusTags".utf8)) { return vorbisComments(p.dropFirst(8)) }
            if p.starts(with: [3] + Array("vorbis".utf8)) { return vorbisComments(p.dropFirst(7)) }
            return []
        }
        return []
    }

    /// ID3v2.3/2.4 `TXXX` frames (description → value), and where the tag ends.
    static func id3Comments(_ b: ArraySlice<UInt8>) -> ([(String, String)], Int) {
        let s = b.startIndex
        guard b.count >= 10 else { return ([], 0) }
        let version = b[s + 3]
        let size = Int(b[s + 6] & 0x7F) << 21 | Int(b[s + 7] & 0x7F) << 14 | Int(b[s + 8] & 0x7F) << 7 | Int(b[s + 9] & 0x7F)
        let end = min(b.endIndex, s + 10 + size)
        var at = s + 10
        if b[s + 5] & 0x40 != 0, at + 4 <= end {   // an extended header
            let n = version == 4
                ? Int(b[at] & 0x7F) << 21 | Int(b[at + 1] & 0x7F) << 14 | Int(b[at + 2] & 0x7F) << 7 | Int(b[at + 3] & 0x7F)
                : Int(b[at]) << 24 | Int(b[at + 1]) << 16 | Int(b[at + 2]) << 8 | Int(b[at + 3]) + 4
            at += n
        }
        var out: [(String, String)] = []
        while version >= 3, at + 10 <= end, b[at] != 0 {
            let id = String(decoding: b[at..<(at + 4)], as: UTF8.self)
            let n = version == 4
                ? Int(b[at + 4] & 0x7F) << 21 | Int(b[at + 5] & 0x7F) << 14 | Int(b[at + 6] & 0x7F) << 7 | Int(b[at + 7] & 0x7F)
                : Int(b[at + 4]) << 24 | Int(b[at + 5]) << 16 | Int(b[at + 6]) << 8 | Int(b[at + 7])
            let body = at + 10
            guard n >= 0, body + n <= end else { break }
            if id == "TXXX", n > 1 {
                let fields = id3Text(b[(body + 1)..<(body + n)], encoding: b[body])
                if fields.count >= 2 { out.append((fields[0], fields[1])) }
            }
            at = body + n
        }
        return (out, 10 + size)
    }

    /// The NUL-separated strings of an ID3 text frame in `encoding` (0 Latin-1, 1 UTF-16
    /// with BOM, 2 UTF-16BE, 3 UTF-8).
    static func id3Text(_ b: ArraySlice<UInt8>, encoding: UInt8) -> [String] {
        if encoding == 1 || encoding == 2 {
            var units: [UInt16] = []
            var i = b.startIndex
            while i + 1 < b.endIndex { units.append(UInt16(b[i]) << 8 | UInt16(b[i + 1])); i += 2 }
            var out: [String] = [], current: [UInt16] = [], bigEndian = encoding == 2
            for u in units {
                if u == 0xFEFF { bigEndian = true; continue }
                if u == 0xFFFE { bigEndian = false; continue }
                if u == 0 { out.append(String(decoding: current, as: UTF16.self)); current = []; continue }
                current.append(bigEndian ? u : u.byteSwapped)
            }
            out.append(String(decoding: current, as: UTF16.self))
            return out
        }
        return b.split(separator: 0, omittingEmptySubsequences: false).map { part in
            encoding == 3 ? String(decoding: part, as: UTF8.self) : String(part.map { Character(Unicode.Scalar($0)) })
        }
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
