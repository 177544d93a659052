/// Why an audio device could not be used: a kind every backend maps its failures into
/// (ALSA's and, later, PipeWire's), the device as named, and the backend's failing call and
/// words kept as detail.
public typealias AudioDeviceError = DeviceError<AudioDeviceFailure>

/// The ways a playback device fails, whatever its backend, as kinds the caller can act on.
public enum AudioDeviceFailure: DeviceFailure {
    /// No such PCM name or card.
    case notFound
    /// Another program holds the device.
    case busy
    /// The user may not open it.
    case permissionDenied
    /// It will not take the rate, format, channel count or period asked for.
    case unsupportedConfiguration
    /// It went away while in use (sound server died, USB unplugged).
    case disconnected
    /// Anything else.
    case failed

    /// What to try, in words that name no program: an app shows it as it is, or switches on
    /// the kind and says it its own way (the `cabin` CLI names its commands and flags).
    public var advice: String {
        switch self {
        case .notFound: "check the name against the machine's playback devices"
        case .busy: "close the program using it, or play through 'default' (the sound server)"
        case .permissionDenied: "add yourself to the 'audio' group, or play through 'default'"
        case .unsupportedConfiguration: "try 'plughw:…' or 'default', which convert rate and format"
        case .disconnected: "check that the sound server or device is back, then play again"
        case .failed: "check that it is one of the machine's playback devices"
        }
    }

    private var text: String {
        switch self {
        case .notFound: "not found"
        case .busy: "busy"
        case .permissionDenied: "permission denied"
        case .unsupportedConfiguration: "unsupported configuration"
        case .disconnected: "disconnected"
        case .failed: "failed"
        }
    }

    /// `ECONNREFUSED` on Linux (this module touches no C; the edge reports errno as is).
    static let connectionRefused: Int32 = 111

    /// The one line an ``AudioDeviceError`` prints: what failed, on which device, in the
    /// backend's words, then the advice (for no sound server, what to start instead).
    public static func describe(_ e: AudioDeviceError) -> String {
        if e.isNoSoundServer {
            return "\(noSoundServer(e)); start PulseAudio or PipeWire, choose another device, or play with no sound device (\"none\")"
        }
        return "\(happened(e)); \(e.advice)"
    }

    /// Refused at open: nothing went away, the sound server is not running.
    static func noSoundServer(_ e: AudioDeviceError) -> String {
        "audio device \"\(e.device)\": no sound server answers (\(e.operation): \(e.detail))"
    }

    /// What failed, without the advice (while Cabin is still retrying, "play again" is not
    /// the thing to do yet).
    static func happened(_ e: AudioDeviceError) -> String {
        "audio device \"\(e.device)\": \(e.kind.text) (\(e.operation): \(e.detail))"
    }
}

extension DeviceError where Failure == AudioDeviceFailure {
    /// The one line without the advice: what failed, on which device, in the backend's words.
    public var happened: String { AudioDeviceFailure.happened(self) }

    /// Whether the device was refused at open because no sound server answers (PulseAudio or
    /// PipeWire is not running): `kind` is `disconnected`, but nothing went away.
    public var isNoSoundServer: Bool {
        kind == .disconnected
            && ((operation == "snd_pcm_open" && code == AudioDeviceFailure.connectionRefused) || operation == "pw_context_connect")
    }
}
