import CabinAudio
import CSndFile

/// What a sound file is, as libsndfile reads its header: container, encoding, channels,
/// rate and length.
public struct SoundFileInfo: Sendable, Equatable {
    /// The container, e.g. `WAV`, `FLAC`, `OGG`.
    public var container: String
    /// The encoding inside it, e.g. `PCM_16`, `PCM_24`, `FLOAT`, `VORBIS`, `OPUS`.
    public var encoding: String
    /// libsndfile's long name of the container, e.g. `WAV (Microsoft)`.
    public var containerDescription: String
    /// Channels, as the header declares them.
    public var channelCount: Int
    /// The sample rate, in Hz.
    public var sampleRate: Double
    /// The length in frames (per channel), as libsndfile reports it from the header.
    public var frameCount: Int64

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frameCount) / sampleRate : 0 }

    /// `WAV/PCM_16`, `OGG/OPUS` …: a short format label.
    public var formatLabel: String { "\(container)/\(encoding)" }

    init(_ info: SF_INFO) {
        let major = Int(info.format) & Int(SF_FORMAT_TYPEMASK)
        let sub = Int(info.format) & Int(SF_FORMAT_SUBMASK)
        container = SoundFileInfo.majorNames[major] ?? String(cFormat: "0x%06x", major)
        encoding = SoundFileInfo.subtypeNames[sub] ?? String(cFormat: "0x%04x", sub)
        containerDescription = SoundFileInfo.formatDescription(major) ?? container
        channelCount = Int(info.channels)
        sampleRate = Double(info.samplerate)
        frameCount = Int64(info.frames)
    }

    /// libsndfile's name for a major format. The corresponding C function is `sf_command`
    /// with `SFC_GET_FORMAT_INFO`.
    static func formatDescription(_ major: Int) -> String? {
        var fi = SF_FORMAT_INFO()
        fi.format = Int32(major)
        guard sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &fi, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
              let name = fi.name else { return nil }
        return String(cString: name)
    }

    static let majorNames: [Int: String] = [
        Int(SF_FORMAT_WAV): "WAV", Int(SF_FORMAT_AIFF): "AIFF", Int(SF_FORMAT_AU): "AU",
        Int(SF_FORMAT_RAW): "RAW", Int(SF_FORMAT_W64): "W64", Int(SF_FORMAT_WAVEX): "WAVEX",
        Int(SF_FORMAT_FLAC): "FLAC", Int(SF_FORMAT_OGG): "OGG", Int(SF_FORMAT_CAF): "CAF",
        Int(SF_FORMAT_RF64): "RF64", Int(SF_FORMAT_MPEG): "MPEG",
    ]

    static let subtypeNames: [Int: String] = [
        Int(SF_FORMAT_PCM_S8): "PCM_S8", Int(SF_FORMAT_PCM_16): "PCM_16",
        Int(SF_FORMAT_PCM_24): "PCM_24", Int(SF_FORMAT_PCM_32): "PCM_32",
        Int(SF_FORMAT_PCM_U8): "PCM_U8", Int(SF_FORMAT_FLOAT): "FLOAT",
        Int(SF_FORMAT_DOUBLE): "DOUBLE", Int(SF_FORMAT_ULAW): "ULAW", Int(SF_FORMAT_ALAW): "ALAW",
        Int(SF_FORMAT_VORBIS): "VORBIS", Int(SF_FORMAT_OPUS): "OPUS",
        Int(SF_FORMAT_MPEG_LAYER_III): "MP3",
    ]
}
