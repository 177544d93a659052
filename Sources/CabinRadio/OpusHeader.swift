import Glibc

/// An Ogg Opus identification header (`OpusHead`, RFC 7845 §5.1).
///
/// Thread: a value; pure.
public struct OpusHeader: Sendable, Equatable {
    /// Output channels (1 or more).
    public var channels: Int
    /// Frames (at 48 kHz) to drop from the start of the decoded stream.
    public var preSkip: Int
    /// The output gain (Q7.8 dB in the header) as a linear factor.
    public var gain: Float
    /// The channel mapping family (0: mono or stereo in one stream; 1: Vorbis order, multistream).
    public var mappingFamily: Int

    /// The header in packet `b`, or nil when `b` is not an `OpusHead` of a version this reads.
    public init?(_ b: [UInt8]) {
        guard b.count >= 19, b.starts(with: Array("OpusHead".utf8)), b[8] & 0xF0 == 0 else { return nil }
        channels = Int(b[9])
        preSkip = Int(b[10]) | Int(b[11]) << 8
        let q78 = Int16(bitPattern: UInt16(b[16]) | UInt16(b[17]) << 8)
        gain = Float(pow(10, Double(q78) / (20 * 256)))
        mappingFamily = Int(b[18])
        guard channels > 0 else { return nil }
    }
}

/// Vorbis-style comments (`TITLE=…`), as Opus (`OpusTags`) and Vorbis carry them.
///
/// Thread: pure.
public enum VorbisComments {
    /// The comments after `magic`: a vendor string, then a count of `NAME=value` strings
    /// (little-endian 32-bit lengths). Stops quietly at a damaged length.
    public static func parse(_ b: [UInt8], after magic: [UInt8]) -> [String] {
        guard b.starts(with: magic) else { return [] }
        var i = magic.count
        func u32() -> Int? {
            guard i + 4 <= b.count else { return nil }
            defer { i += 4 }
            return Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
        }
        guard let vendor = u32(), i + vendor <= b.count else { return [] }
        i += vendor
        guard let count = u32() else { return [] }
        var out: [String] = []
        for _ in 0..<min(count, 1000) {
            guard let n = u32(), i + n <= b.count else { break }
            out.append(String(decoding: b[i..<(i + n)], as: UTF8.self))
            i += n
        }
        return out
    }

    /// "ARTIST - TITLE", or TITLE alone; nil without a TITLE.
    public static func title(_ comments: [String]) -> String? {
        func value(_ key: String) -> String? {
            comments.first { $0.uppercased().hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        guard let title = value("TITLE"), !title.isEmpty else { return nil }
        if let artist = value("ARTIST"), !artist.isEmpty { return "\(artist) - \(title)" }
        return title
    }
}
