import CabinIO
import Glibc

/// Where the live player's render loop writes: a sound device it pushes periods into, as
/// ALSA works (`PCMOutput`), or the deterministic `FakeAudioOutput` of tests.
///
/// The loop (`RenderLoop`) asks how much room there is, renders, writes, and waits for room
/// or a wake-up. A pull (callback) backend such as JACK or PipeWire's native API would not
/// implement this protocol: it would call the transport's `render` from its own callback —
/// the transport state machine (`PlaybackTransport`) renders a period whatever drives it.
///
/// Thread: the render thread owns an output once playback starts; `negotiated` and `device`
/// are fixed at open and may be read anywhere.
public protocol AudioOutput: AnyObject {
    /// The name it was opened with, for messages.
    var device: String { get }
    /// What the device agreed to.
    var negotiated: PCMNegotiated { get }
    /// Underruns recovered so far.
    var xrunCount: Int { get }
    /// Frames that can be written now; an underrun found here is recovered and counted.
    func availableFrames() throws(AudioDeviceError) -> Int
    /// Writes up to `frameCount` interleaved frames without blocking; returns how many were taken.
    func writeAvailable(_ samples: UnsafeBufferPointer<Float>, frameCount: Int) throws(AudioDeviceError) -> Int
    /// Starts playback (after a prefill).
    func start() throws(AudioDeviceError)
    /// Waits until a period can be written, `extraDescriptor` is readable, or the timeout.
    func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult
    /// Frames queued ahead of what is heard now, if known.
    func delayFrames() -> Int?
    /// Closes at once, dropping what is queued. Idempotent.
    func close()
}

extension PCMOutput: AudioOutput {}

/// How the render loop opens outputs and keeps time: ALSA devices and the monotonic clock
/// (`ALSABackend`), or a virtual clock that moves only when the loop waits (`FakeAudioBackend`).
///
/// The loop measures underruns and outages on this clock, so a fake clock makes them exact.
///
/// Thread: called on the render thread (and by `LivePlayer.init` on the control thread).
public protocol AudioOutputBackend: AnyObject, Sendable {
    /// Opens a device for non-blocking playback.
    func open(device: String, configuration: PCMConfiguration) throws(AudioDeviceError) -> any AudioOutput
    /// Seconds since an arbitrary origin, never going back.
    func now() -> Double
    /// Waits `seconds`, or until `wakeup` is readable; true if woken. (The reconnect backoff.)
    func sleep(seconds: Double, wakeup: EventFD) -> Bool
}

/// ALSA devices (`PCMOutput`, non-blocking) on the monotonic clock.
///
/// Thread: any thread.
public final class ALSABackend: AudioOutputBackend {
    public init() {}

    public func open(device: String, configuration: PCMConfiguration) throws(AudioDeviceError) -> any AudioOutput {
        try PCMOutput(device: device, configuration: configuration, nonBlocking: true)
    }

    public func now() -> Double { monotonicSeconds() }

    public func sleep(seconds: Double, wakeup: EventFD) -> Bool {
        var pfd = pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(seconds * 1000)) > 0 else { return false }
        wakeup.drain()
        return true
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
