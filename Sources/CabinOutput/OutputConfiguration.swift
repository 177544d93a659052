/// Sample formats a device may take, in order of preference. The names are the ones ALSA and
/// PipeWire both use for them (`FLOAT_LE`, `S32_LE`, `S16_LE`), and the `started` event's.
public enum SampleFormat: String, Sendable, CaseIterable, Codable {
    case float32 = "FLOAT_LE", s32 = "S32_LE", s16 = "S16_LE"

    /// Bytes per sample of one channel.
    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
}

/// What a stream plays, for a sound server's policy (PipeWire's and PulseAudio's
/// `media.role`: a server may duck music under a notification, or route them apart).
public enum MediaRole: String, Sendable, Equatable {
    /// A session: `Music`.
    case music = "Music"
    /// A one-shot preview (`cabin sounds play`, `cabin haptics play --audio`): `Notification`.
    case notification = "Notification"
}

/// What Cabin asks of a playback device, whatever its backend.
///
/// Thread: a value type; any thread.
public struct OutputConfiguration: Sendable, Equatable {
    public var sampleRate: Int = 48000
    public var channelCount: Int = 2
    /// Frames per period: a push device's unit of wake-up, a pull device's callback size
    /// (PipeWire's quantum). Powers of two suit PipeWire and JACK.
    public var periodFrames: Int = 256
    /// Periods per buffer (2–3 for low latency).
    public var periodCount: Int = 3
    /// Formats to try, best first; the first the device takes is used.
    public var formats: [SampleFormat] = SampleFormat.allCases
    /// What plays (backends with a policy, PipeWire, tell it; ALSA ignores it).
    public var mediaRole: MediaRole = .music

    public init(sampleRate: Int = 48000, channelCount: Int = 2, periodFrames: Int = 256, periodCount: Int = 3) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.periodFrames = periodFrames
        self.periodCount = periodCount
    }

    /// Asking again for what a device agreed to (a reopened device after it was lost): the
    /// same rate, channels, period and buffer, its format first.
    public init(reopening format: OutputFormat) {
        self.init(sampleRate: format.sampleRate, channelCount: format.channelCount, periodFrames: format.periodFrames,
                  periodCount: max(2, format.bufferFrames / max(1, format.periodFrames)))
        formats = [format.format] + SampleFormat.allCases.filter { $0 != format.format }
    }
}

/// What the device agreed to.
///
/// Thread: a value type; any thread.
public struct OutputFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channelCount: Int
    public var periodFrames: Int
    public var bufferFrames: Int
    public var format: SampleFormat

    public init(sampleRate: Int, channelCount: Int, periodFrames: Int, bufferFrames: Int, format: SampleFormat) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.format = format
    }

    /// What a device that takes whatever it is asked agrees to (the silent clock, the fakes):
    /// the rate, channels and period asked, a buffer of `periodCount` periods, the first format.
    public init(granting configuration: OutputConfiguration) {
        self.init(sampleRate: configuration.sampleRate, channelCount: configuration.channelCount,
                  periodFrames: configuration.periodFrames, bufferFrames: configuration.periodFrames * configuration.periodCount,
                  format: configuration.formats.first ?? .float32)
    }
}

/// A playback device a backend can open, for `cabin devices` and pickers.
///
/// Thread: a value type; any thread.
public struct OutputDevice: Sendable, Equatable, Codable {
    /// What `-D` takes to open it: `default`, `hw:CARD=PCH,DEV=0`, `pipewire:alsa_output.usb…`.
    public var name: String
    /// The backend's words for it, if any (a card's long name), one line.
    public var description: String
    /// The backend's scheme (`alsa`, `none`, …; see `OutputRegistry`).
    public var scheme: String

    public init(name: String, description: String, scheme: String) {
        self.name = name
        self.description = description
        self.scheme = scheme
    }
}
