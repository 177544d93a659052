import CabinAudio

/// Where a sound comes from: the built-in library, a file beside the document, a
/// synthesizer, or a live internet station.
public enum SoundReference: Sendable, Equatable, CustomStringConvertible {
    /// A library name such as `engine/v6`, resolved through `Sounds/manifest.json`.
    case library(String)
    /// A path relative to the document's folder (never escaping it).
    case file(String)
    /// A synthesized source: `synth:NAME?option=value&…`, one of `Synth.kinds` (its seed is
    /// the compiler's to choose).
    case synth(Synth)
    /// A live stream: an `http://` or `https://` URL of an internet radio station (Ogg Opus,
    /// MP3 or Ogg Vorbis), played as it arrives; it has no fixed content or length.
    case station(String)
    /// The user's own music: a folder (written with a trailing `/`) or an M3U/M3U8/PLS
    /// playlist, relative to the document or absolute; decoded from disk while it plays
    /// (the radio's `PlaylistStation`), each track at the reference loudness.
    case playlist(String)
    /// Music generated while it plays: `gen:NAME`, one of CabinSoundDesign's
    /// `SoundGenerators` (`gen:lofi`, the lo-fi radio composed section by section, never
    /// the same twice); seeded like a scatter, streamed by the radio's `GeneratedStation`.
    case generated(String)

    /// True for a live stream (`station`).
    public var isLive: Bool { if case .station = self { true } else { false } }

    /// True for streamed sounds (stations and playlists): no samples are loaded before playing.
    public var isStreamed: Bool {
        switch self {
        case .station, .playlist, .generated: true
        case .library, .file, .synth: false
        }
    }

    /// As a document writes it.
    public var description: String {
        switch self {
        case .library(let name): name
        case .file(let path): path
        case .synth(let s): s.documentText
        case .station(let url): url
        case .playlist(let path): path
        case .generated(let name): "gen:" + name
        }
    }
}

extension Synth {
    /// `synth:NAME`, then every option the kind takes with its value:
    /// `synth:sine?frequency=440`, `synth:binaural?carrier=200&beat=10`.
    public var documentText: String {
        let options = kind.options.enumerated().map { "\($1.name)=\(SessionTime.format(number: values[$0]))" }
        return "synth:" + name + (options.isEmpty ? "" : "?" + options.joined(separator: "&"))
    }
}
