import CabinIO
import CabinOutput
/// What happens while a session plays, for the CLI's status line, `--json` and embedders.
public enum PlayerEvent: Sendable, Equatable {
    /// Playback began on `device`.
    case started(PlaybackInfo)
    /// The timeline passed a mark (drive, rest, arrival …) at `time` seconds; `title` is the
    /// segment's title for people (`rest stop`), if the document gives one.
    case mark(name: String, time: Double, title: String?)
    /// The device ran dry (`count` so far); the session skipped `lostSeconds` to stay on time.
    case xrun(count: Int, time: Double, lostSeconds: Double)
    /// The device failed or went away; the player keeps retrying.
    case deviceError(String)
    /// The device is back; playback resumed at `time`.
    case deviceRestored(time: Double)
    /// A pause was taken (`LivePlayer.pause()`), at `time` seconds into the session.
    case paused(time: Double)
    /// Playback resumed from a pause, at `time` seconds into the session.
    case resumed(time: Double)
    /// A seek happened; `time` is where it went, in seconds into the session.
    case seeked(time: Double)
    /// A live event was triggered (`LivePlayer.trigger`).
    case triggered(name: String, time: Double)
    /// The listener's volume changed: the master's (`bus` nil) or a bus's, in dB (−∞:
    /// silence), and whether the master is muted.
    case volumeChanged(bus: String?, decibels: Double, muted: Bool)
    /// The session ended: `finished` (its end), `stopped` (asked to), or `failed` (the device
    /// never came back).
    case ended(reason: EndReason, time: Double, xruns: Int)
    /// A live stream's news: buffering, playing, a new title, a reconnection, an error.
    case radio(RadioEvent)
    /// The latency changed while playing (`LivePlayer.setLatency`): the frames now rendered
    /// at a time (PipeWire's quantum asked for) and kept queued at most.
    case latencyChanged(latency: OutputLatency, periodFrames: Int, bufferFrames: Int)

    /// Why a session ended; the raw value is the case's name (`--json`'s `reason`).
    public enum EndReason: String, Sendable, Equatable {
        /// It played to its end.
        case finished
        /// It was stopped (`LivePlayer.stop()`, `stopNow()`).
        case stopped
        /// The device was lost and did not come back within the reconnect timeout.
        case failed
    }
}

/// The negotiated stream, as the player opened it.
public struct PlaybackInfo: Sendable, Equatable {
    /// The device as the options name it (`LivePlayer.Options.device`; `none` on the silent
    /// clock).
    public var device: String
    /// The rate the device plays at, in Hz (the session was loaded at it).
    public var sampleRate: Int
    /// Frames per period: what the render thread mixes per wake-up.
    public var periodFrames: Int
    /// The device's buffer, in frames (several periods).
    public var bufferFrames: Int
    /// The sample format the device takes.
    public var format: SampleFormat
    /// "SCHED_FIFO 70" or "normal (reason)".
    public var scheduling: String
    /// Whether the render thread runs SCHED_FIFO (`scheduling` says at which priority, or
    /// why not).
    public var isRealtime: Bool
    /// Why nothing is heard, when the session plays on the system clock with no sound
    /// (`device` is `"none"`): "no sound device (no sound card, no sound server)" when
    /// `LivePlayer.open` fell back to it (`Options.whenNoSoundDevice`), or the device asked for.
    public var silentReason: String?

    /// The stream as described; `silentReason` nil when sound is heard.
    public init(device: String, sampleRate: Int, periodFrames: Int, bufferFrames: Int, format: SampleFormat,
                scheduling: String, isRealtime: Bool, silentReason: String? = nil) {
        (self.device, self.sampleRate, self.periodFrames, self.bufferFrames) = (device, sampleRate, periodFrames, bufferFrames)
        (self.format, self.scheduling, self.isRealtime, self.silentReason) = (format, scheduling, isRealtime, silentReason)
    }
}
