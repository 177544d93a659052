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
/// card. Started when full (ALSA's start threshold) or by `start()`; running dry is an
/// underrun, recovered and counted by the next call, as a card does.
///
/// Thread: the render thread once playback starts (see `AudioOutput`).
public final class SilentClockOutput: AudioOutput {
    public let device: String
    public let negotiated: OutputFormat
    public private(set) var xrunCount = 0
    public var playsSound: Bool { false }
    private enum State { case prepared, running, underrun, closed }
    private var state = State.prepared
    /// Frames written since the stream (re)started, and the monotonic time it started at.
    private var written: Int64 = 0
    private var startedAt = 0.0

    init(device: String, configuration: OutputConfiguration) {
        self.device = device
        negotiated = OutputFormat(granting: configuration)
    }

    /// Frames written and not yet played by the clock (an underrun is noted here).
    private func queuedFrames() -> Int {
        guard state == .running else { return state == .prepared ? Int(written) : 0 }
        let played = Int64((MonotonicClock.seconds() - startedAt) * Double(negotiated.sampleRate))
        if played > written { state = .underrun; return 0 }
        return Int(written - played)
    }

    private func check(_ operation: String) throws(AudioDeviceError) {
        if state == .closed {
            throw AudioDeviceError(.failed, device: device, operation: operation, code: 9, detail: "closed")
        }
    }

    private func recoverIfUnderrun() {
        _ = queuedFrames()
        guard state == .underrun else { return }
        xrunCount += 1
        written = 0
        state = .prepared
    }

    private func startRunning() {
        state = .running
        startedAt = MonotonicClock.seconds()
    }

    public func availableFrames() throws(AudioDeviceError) -> Int {
        try check("avail")
        recoverIfUnderrun()
        return negotiated.bufferFrames - queuedFrames()
    }

    public func writeAvailable(_ samples: UnsafeBufferPointer<Float>, frameCount: Int) throws(AudioDeviceError) -> Int {
        try check("write")
        recoverIfUnderrun()
        let n = max(0, min(frameCount, negotiated.bufferFrames - queuedFrames()))
        written += Int64(n)
        if state == .prepared && written >= Int64(negotiated.bufferFrames) { startRunning() }
        return n
    }

    public func start() throws(AudioDeviceError) {
        try check("start")
        if state == .prepared { startRunning() }
    }

    public func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult {
        try check("poll")
        let room = negotiated.bufferFrames - queuedFrames()
        if state == .underrun || (state == .running && room >= negotiated.periodFrames) {
            return EventFD.isReadable(extraDescriptor) ? .wakeup : .ready
        }
        // Until a period's room has played out (rounded up to the next millisecond).
        var milliseconds = timeoutMilliseconds
        if state == .running {
            let frames = negotiated.periodFrames - room
            milliseconds = min(milliseconds, Int32((frames * 1000 + negotiated.sampleRate - 1) / negotiated.sampleRate))
        }
        if EventFD.waitReadable(extraDescriptor, timeoutMilliseconds: milliseconds) { return .wakeup }
        return state == .running ? .ready : .timeout
    }

    public func delayFrames() -> Int? { state == .running ? queuedFrames() : 0 }

    public func close() { state = .closed }
}
