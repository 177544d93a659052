/// Why an audio device could not be used, as a kind the caller can act on, with the
/// device name and ALSA's own words. Prints as one line that says what to try.
public struct AudioDeviceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
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
    }

    public var kind: Kind
    /// The ALSA device name as given, e.g. `default`, `hw:0,0`.
    public var device: String
    /// The ALSA call that failed, e.g. `snd_pcm_open`.
    public var operation: String
    /// The negative errno ALSA returned, made positive (0 if none).
    public var code: Int32
    /// `snd_strerror`, plus the ALSA library's own message where it printed one.
    public var detail: String

    public init(_ kind: Kind, device: String, operation: String, code: Int32, detail: String) {
        self.kind = kind
        self.device = device
        self.operation = operation
        self.code = code
        self.detail = detail
    }

    /// What a user can do about it.
    public var advice: String {
        switch kind {
        case .notFound: "list playback devices with 'cabin devices'"
        case .busy: "close the program using it, or play through 'default' (the sound server)"
        case .permissionDenied: "add yourself to the 'audio' group, or play through 'default'"
        case .unsupportedConfiguration: "try 'plughw:…' or 'default', which convert rate and format"
        case .disconnected: "check that the sound server or device is back, then play again"
        case .failed: "see 'cabin devices'"
        }
    }

    private var kindText: String {
        switch kind {
        case .notFound: "not found"
        case .busy: "busy"
        case .permissionDenied: "permission denied"
        case .unsupportedConfiguration: "unsupported configuration"
        case .disconnected: "disconnected"
        case .failed: "failed"
        }
    }

    public var description: String {
        "audio device \"\(device)\": \(kindText) (\(operation): \(detail)); \(advice)"
    }
}
