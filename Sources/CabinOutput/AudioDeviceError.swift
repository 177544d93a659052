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

    public var advice: String {
        switch self {
        case .notFound: "list playback devices with 'cabin devices'"
        case .busy: "close the program using it, or play through 'default' (the sound server)"
        case .permissionDenied: "add yourself to the 'audio' group, or play through 'default'"
        case .unsupportedConfiguration: "try 'plughw:…' or 'default', which convert rate and format"
        case .disconnected: "check that the sound server or device is back, then play again"
        case .failed: "see 'cabin devices'"
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

    public static func describe(_ e: AudioDeviceError) -> String {
        if e.kind == .disconnected
            && ((e.operation == "snd_pcm_open" && e.code == connectionRefused) || e.operation == "pw_context_connect") {
            // Refused at open: nothing went away, the sound server is not running.
            return "audio device \"\(e.device)\": no sound server answers (\(e.operation): \(e.detail)); "
                + "start PulseAudio or PipeWire, pick a device from 'cabin devices', or play silently with -D none"
        }
        return "\(happened(e)); \(e.advice)"
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
}
