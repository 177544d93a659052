import CabinAudio

/// The SHOUTcast/Icecast ("ICY") side of a radio stream: the response headers that name the
/// station and the metadata interval, and the metadata blocks interleaved with the audio
/// every `icy-metaint` bytes (a length byte ×16, then `StreamTitle='…';…` padded with NULs),
/// which must be taken out before the audio reaches a decoder.
///
/// ```swift
/// var icy = ICYStreamReader(metaInterval: ICYStreamReader.metaInterval(headers))
/// let (audio, titles) = icy.split(bytes)
/// ```
///
/// Thread: a value; pure.
public struct ICYStreamReader: Sendable {
    /// Audio bytes between metadata blocks (nil: the server sends none).
    public let metaInterval: Int?
    private var audioLeft: Int
    /// Bytes of the current metadata block still to come (nil: reading audio; -1: the length byte).
    private var metaLeft: Int?
    private var meta: [UInt8] = []

    /// A reader for a response whose `icy-metaint` header gave `metaInterval` (nil or not
    /// positive: the stream has no metadata blocks, every byte is audio).
    public init(metaInterval: Int?) {
        self.metaInterval = metaInterval.flatMap { $0 > 0 ? $0 : nil }
        audioLeft = self.metaInterval ?? 0
    }

    /// Separates audio from metadata; returns the audio bytes and every `StreamTitle` that
    /// completed in `bytes` (in order).
    public mutating func split(_ bytes: [UInt8]) -> (audio: [UInt8], titles: [String]) {
        guard let interval = metaInterval else { return (bytes, []) }
        var audio: [UInt8] = []
        audio.reserveCapacity(bytes.count)
        var titles: [String] = []
        var i = 0
        while i < bytes.count {
            if let left = metaLeft {
                if left < 0 {
                    let length = Int(bytes[i]) * 16
                    i += 1
                    metaLeft = length
                    meta.removeAll(keepingCapacity: true)
                    if length == 0 { metaLeft = nil; audioLeft = interval }
                    continue
                }
                let take = min(left, bytes.count - i)
                meta.append(contentsOf: bytes[i..<(i + take)])
                i += take
                if take == left {
                    metaLeft = nil
                    audioLeft = interval
                    if let title = Self.streamTitle(in: meta) { titles.append(title) }
                } else {
                    metaLeft = left - take
                }
            } else {
                let take = min(audioLeft, bytes.count - i)
                audio.append(contentsOf: bytes[i..<(i + take)])
                i += take
                audioLeft -= take
                if audioLeft == 0 { metaLeft = -1 }
            }
        }
        return (audio, titles)
    }

    /// The `StreamTitle` of a metadata block: `StreamTitle='Artist - Song';StreamUrl='…';`
    /// (the title may itself hold apostrophes: it ends at `';`). Nil when there is none.
    public static func streamTitle(in block: [UInt8]) -> String? {
        let bytes = Array(block.prefix { $0 != 0 })
        let key = Array("StreamTitle='".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: key) }) else { return nil }
        let rest = bytes[(start + key.count)...]
        var end = rest.indices.first { rest[$0...].starts(with: Array("';".utf8)) } ?? rest.endIndex
        if end == rest.endIndex, rest.last == UInt8(ascii: "'") { end -= 1 }
        return String(decoding: rest[..<end], as: UTF8.self)
    }

    /// `icy-metaint` from response header lines (`Name: value`), if present and sane (1…1 MiB).
    public static func metaInterval(_ headers: [String]) -> Int? {
        guard let text = value("icy-metaint", in: headers), let n = Int(text), n > 0, n <= 1 << 20 else { return nil }
        return n
    }

    /// The station's name: `icy-name`, else `ice-name`, as one line of at most 256 characters.
    public static func stationName(_ headers: [String]) -> String? {
        (value("icy-name", in: headers) ?? value("ice-name", in: headers)).map { $0.singleLine() }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The value of header `name` (case-insensitive) in `headers`, trimmed.
    public static func value(_ name: String, in headers: [String]) -> String? {
        let key = name.lowercased() + ":"
        for line in headers where line.lowercased().hasPrefix(key) {
            return String(line.dropFirst(key.count).drop { $0 == " " || $0 == "\t" })
        }
        return nil
    }
}
