/// Sample formats a device may take, in order of preference. The names are the ones ALSA and
/// PipeWire both use for them (`FLOAT_LE`, `S32_LE`, `S16_LE`), and the `started` event's.
public enum SampleFormat: String, Sendable, CaseIterable, Codable {
    /// 32-bit IEEE float, little-endian, −1…1.
    case float32 = "FLOAT_LE"
    /// 32-bit signed integer, little-endian.
    case s32 = "S32_LE"
    /// 16-bit signed integer, little-endian.
    case s16 = "S16_LE"

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

/// How much audio is kept queued on a device: what a period and a buffer are when the user
/// names neither.
///
/// Waking up, not mixing, is nearly all a bed's live cost: at `low` the render thread wakes
/// 188 times a second, at `relaxed` 16. Both keep a key or a control command heard within
/// 150 ms (a change waits at most one period for its render, then the rest of the buffer).
///
/// Thread: a value type; any thread.
public enum OutputLatency: String, Sendable, CaseIterable {
    /// 256 × 3 frames (16 ms at 48 kHz): for haptics on a device beside the sound, and
    /// anything that must follow the audio closely.
    case low
    /// 3,072 × 2 frames (128 ms at 48 kHz): for a session left playing. A sound server
    /// rounds it to its largest quantum (PipeWire: 2,048 frames by default).
    case relaxed

    /// Frames per period at 48 kHz (scaled with the rate by ``configuration(sampleRate:channelCount:)``).
    public var periodFrames: Int { self == .low ? 256 : 3072 }
    /// Periods per buffer.
    public var periodCount: Int { self == .low ? 3 : 2 }

    /// The device configuration for this latency at `sampleRate` (the period scaled from
    /// 48 kHz, rounded to a multiple of 16 frames).
    public func configuration(sampleRate: Int = 48000, channelCount: Int = 2) -> OutputConfiguration {
        let frames = max(16, (periodFrames * sampleRate / 48000 + 8) / 16 * 16)
        var configuration = OutputConfiguration(sampleRate: sampleRate, channelCount: channelCount, periodFrames: frames,
                                                periodCount: periodCount)
        configuration.latency = self
        return configuration
    }
}

/// What Cabin asks of a playback device, whatever its backend.
///
/// Thread: a value type; any thread.
public struct OutputConfiguration: Sendable, Equatable {
    /// Frames per second asked for, Hz.
    public var sampleRate: Int = 48000
    /// Channels asked for (2: stereo), interleaved.
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
    /// The latency the period and buffer were chosen for (``OutputLatency/configuration(sampleRate:channelCount:)``);
    /// nil when they were given as numbers.
    public var latency: OutputLatency?

    /// What to ask for: rate (Hz), channels, frames per period and periods per buffer; every
    /// format, best first, for music, no named latency.
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
    /// Frames per second it plays, Hz.
    public var sampleRate: Int
    /// Channels per frame, interleaved.
    public var channelCount: Int
    /// Frames per period: a push device's wake-up unit, a pull device's largest callback.
    public var periodFrames: Int
    /// Frames the device's buffer holds (periods × period frames for ALSA).
    public var bufferFrames: Int
    /// The sample format the device takes (Cabin converts to it).
    public var format: SampleFormat

    /// What a device agreed to: rate (Hz), channels, period and buffer (frames), format.
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

    /// A device that `name` opens, described in the backend's words, of backend `scheme`.
    public init(name: String, description: String, scheme: String) {
        self.name = name
        self.description = description
        self.scheme = scheme
    }
}
