import CabinIO
import CabinOutput

/// Playing with no sound device, as mpv's `--ao=null` does: a session runs on the system's
/// monotonic clock with everything but the sound — timeline, marks, events, status,
/// control, rumble — and the frames are dropped. `cabin play -D none`, and `cabin play` on
/// a machine with no sound card and no sound server.
///
/// ```swift
/// var options = LivePlayer.Options(device: SilentClockBackend.device)
/// options.backend = SilentClockBackend()
/// ```
///
/// Thread: any thread.
public final class SilentClockBackend: AudioOutputBackend {
    /// The device name that asks for it (`-D none`).
    public static let device = "none"

    /// The silent clock; it keeps no state (each `open` makes a new clock).
    public init() {}

    public func devices() -> [OutputDevice] {
        [OutputDevice(name: Self.device, description: "No sound: the session plays on the system clock", scheme: Self.device)]
    }

    public func open(device: String, configuration: OutputConfiguration) throws(AudioDeviceError) -> OpenedOutput {
        .push(SilentClockOutput(device: device, configuration: configuration))
    }

    public func now() -> Double { MonotonicClock.seconds() }

    public func sleep(seconds: Double, wakeupDescriptor: Int32) -> Bool {
        EventFD.waitReadable(wakeupDescriptor, timeoutMilliseconds: Int32(seconds * 1000))
    }
}

/// A device with a buffer of `periodFrames × periodCount` that the monotonic clock plays
/// out at the sample rate, into nothing: the render loop paces itself on it as on a sound
/// card. `EmulatedDeviceBuffer` on the monotonic clock's ticks: started when full (ALSA's
/// start threshold) or by `start()`; running dry is an underrun, recovered and counted by
/// the next call, as a card does.
///
/// Thread: the render thread once playback starts (see `AudioOutput`).
public final class SilentClockOutput: AudioOutput {
    public let device: String
    public let negotiated: OutputFormat
    public var xrunCount: Int { buffer.xrunCount }
    public var playsSound: Bool { false }
    private var buffer: EmulatedDeviceBuffer
    /// The monotonic time of tick 0.
    private let origin = MonotonicClock.seconds()

    init(device: String, configuration: OutputConfiguration) {
        self.device = device
        negotiated = OutputFormat(granting: configuration)
        buffer = EmulatedDeviceBuffer(bufferFrames: negotiated.bufferFrames, periodFrames: negotiated.periodFrames)
    }

    /// Now, in frames of the sample rate since `origin`.
    private func now() -> Int64 { Int64((MonotonicClock.seconds() - origin) * Double(negotiated.sampleRate)) }

    /// Plays out what the clock has reached (an underrun is noted here); throws once closed.
    private func check(_ operation: String) throws(AudioDeviceError) {
        _ = buffer.advance(to: now())
        if buffer.state == .closed {
            throw AudioDeviceError(.failed, device: device, operation: operation, code: 9, detail: "closed")
        }
    }

    public func availableFrames() throws(AudioDeviceError) -> Int {
        try check("avail")
        _ = buffer.recoverIfUnderrun()
        return buffer.availableFrames
    }

    /// After an underrun, the write that finds it recovers and writes on.
    public func writeAvailable(_ samples: UnsafeBufferPointer<Float>, frameCount: Int) throws(AudioDeviceError) -> Int {
        try check("write")
        _ = buffer.recoverIfUnderrun()
        return buffer.write(frameCount, now: now())
    }

    public func start() throws(AudioDeviceError) {
        try check("start")
        buffer.start(now: now())
    }

    public func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult {
        try check("poll")
        if buffer.isReady {
            return EventFD.isReadable(extraDescriptor) ? .wakeup : .ready
        }
        // Until a period's room has played out (rounded up to the next millisecond).
        var milliseconds = timeoutMilliseconds
        if buffer.state == .running {
            let frames = buffer.framesUntilPeriodRoom
            milliseconds = min(milliseconds, Int32((frames * 1000 + negotiated.sampleRate - 1) / negotiated.sampleRate))
        }
        if EventFD.waitReadable(extraDescriptor, timeoutMilliseconds: milliseconds) { return .wakeup }
        return buffer.state == .running ? .ready : .timeout
    }

    public func delayFrames() -> Int? {
        _ = buffer.advance(to: now())
        return buffer.delayFrames
    }

    public func close() { buffer.close() }
}
