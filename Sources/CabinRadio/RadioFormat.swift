import CabinAudio

/// What a radio stream carries, decided from its content type and its first bytes — bytes
/// win (servers mislabel), except that an HTML page is never audio.
///
/// Thread: a value; pure.
public enum RadioFormat: String, Sendable, Equatable {
    /// Ogg pages (Opus or Vorbis inside; the codec is known at the first packet).
    case ogg
    /// MPEG audio frames (MP3), possibly after an ID3 tag.
    case mp3

    /// What `detect` found.
    public enum Detection: Sendable, Equatable {
        /// A format the station decodes.
        case format(RadioFormat)
        /// One line: why this is not a stream Cabin can play.
        case notPlayable(String)
    }

    /// Bytes looked at before deciding.
    public static let sniffBytes = 16

    /// The format, a one-line reason it is not a playable stream, or nil when more bytes
    /// are needed (`isComplete`: the stream ended, decide with what there is).
    public static func detect(contentType: String?, head: [UInt8], isComplete: Bool = false) -> Detection? {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
        let lowered = String(decoding: head.prefix(64), as: UTF8.self).lowercased().trimmingWhitespace()
        if type == "text/html" || type == "application/xhtml+xml" || lowered.hasPrefix("<!doctype") || lowered.hasPrefix("<html") {
            return .notPlayable("an HTML page, not an audio stream")
        }
        if head.count < sniffBytes && !isComplete { return nil }
        if head.starts(with: Array("OggS".utf8)) { return .format(.ogg) }
        if head.starts(with: Array("ID3".utf8)) || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0) {
            return .format(.mp3)
        }
        if head.isEmpty { return .notPlayable("the server sent no audio") }
        switch type {
        case "audio/mpeg", "audio/mp3", "audio/x-mpeg": return .format(.mp3)
        case "application/ogg", "audio/ogg", "audio/opus", "audio/vorbis", "audio/x-ogg": return .format(.ogg)
        case "audio/aac", "audio/aacp", "audio/x-aac", "audio/mp4", "audio/x-m4a":
            return .notPlayable("\(type) (AAC) is not supported: stations in Ogg Opus, MP3 or Ogg Vorbis are")
        case "audio/flac", "audio/x-flac", "audio/wav", "audio/x-wav":
            return .notPlayable("\(type) is not a supported stream codec: stations in Ogg Opus, MP3 or Ogg Vorbis are")
        default:
            let shown = type.isEmpty ? "no content type" : "content type \(type)"
            return .notPlayable("not an audio stream (\(shown); it starts with neither an Ogg page nor an MP3 frame)")
        }
    }
}
