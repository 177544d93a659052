/// What a push device's `wait` saw.
public enum OutputWaitResult: Sendable, Equatable {
    /// At least a period can be written.
    case ready
    /// The extra descriptor is readable (shutdown or a command).
    case wakeup
    /// Nothing happened within the timeout.
    case timeout
}

/// A device Cabin pushes periods into, as ALSA works (`PCMOutput`), the silent clock
/// (`SilentClockOutput`) or the deterministic fake of tests: the push driver (`RenderLoop`)
/// asks how much room there is, renders, writes, and waits for room or a wake-up.
///
/// Thread: the render thread owns an output once playback starts; `negotiated` and `device`
/// are fixed at open and may be read anywhere.
public protocol AudioOutput: AnyObject {
    /// The name it was opened with, for messages.
    var device: String { get }
    /// What the device agreed to.
    var negotiated: OutputFormat { get }
    /// Underruns recovered so far.
    var xrunCount: Int { get }
    /// False for a device that only keeps time and plays nothing (the silent clock): a real
    /// haptics device beside it then paces the session.
    var playsSound: Bool { get }
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

extension AudioOutput {
    /// True: a device plays sound unless it says otherwise.
    public var playsSound: Bool { true }
}

/// The render a pull device calls: fill `frameCount` interleaved frames into the buffer
/// (`frameCount × negotiated.channelCount` samples). It runs on the device's own real-time
/// thread: it must not allocate, lock, throw or do I/O.
public typealias PullRender = (_ samples: UnsafeMutableBufferPointer<Float>, _ frameCount: Int) -> Void

/// A device that calls Cabin when it wants audio, from its own real-time thread, as
/// PipeWire's `pw_stream`, JACK and an app's own audio callback work. The pull driver
/// (`PullDriver`) serves it from the same transport the push driver uses.
///
/// Thread: `start`, `failure`, `delayFrames` and `close` from one controlling thread; the
/// render closure on the device's thread; `negotiated` and `device` anywhere.
public protocol PullOutput: AnyObject {
    /// The name it was opened with, for messages.
    var device: String { get }
    /// What the device agreed to; `periodFrames` is the largest block a callback asks for.
    var negotiated: OutputFormat { get }
    /// Underruns (callbacks the device had to skip or fill late) so far.
    var xrunCount: Int { get }
    /// Frames of the device's timeline that went by with no callback for them (the device
    /// played silence: a late callback's missed cycles), so far. The pull driver skips the
    /// session by them, so it stays on the device's clock and ends on time. Read on the
    /// device's thread, in the render closure.
    var lostFrames: Int { get }
    /// Starts the device: from now on it calls `render` until `close`.
    func start(render: @escaping PullRender) throws(AudioDeviceError)
    /// Waits until the device fails, `extraDescriptor` is readable, or the timeout; throws
    /// the device's failure (lost, disconnected) once it has happened.
    func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult
    /// Frames between what a callback renders and what is heard, if known. Any thread.
    func delayFrames() -> Int?
    /// Stops the callbacks (when it returns, none is running) and closes. Idempotent.
    func close()
    /// Whether `changePeriod` works while playing (PipeWire: its `node.latency`). A device
    /// whose block size is someone else's (an app's callback) says no.
    var changesPeriodWhilePlaying: Bool { get }
    /// Asks for callbacks of about `frames` from now on (a latency change while playing;
    /// the device may round it, as PipeWire rounds to its graph's quantum). From the thread
    /// that started the device, never the render closure; throws what the device answers.
    func changePeriod(frames: Int) throws(AudioDeviceError)
}

extension PullOutput {
    /// None: a device that cannot tell calls for every cycle (its clock is its callbacks).
    public var lostFrames: Int { 0 }
    /// No: the block size is the device's (or its app's) to choose.
    public var changesPeriodWhilePlaying: Bool { false }
    /// Refuses (`changesPeriodWhilePlaying` is false): the block size is not Cabin's to change.
    public func changePeriod(frames: Int) throws(AudioDeviceError) {
        throw AudioDeviceError(.unsupportedConfiguration, device: device, operation: "period", code: 95 /* EOPNOTSUPP */,
                               detail: "this device's callbacks keep the block size it chooses")
    }
}

/// An opened device: Cabin pushes into it, or it pulls from Cabin.
public enum OpenedOutput {
    /// A device Cabin writes periods into (ALSA, the silent clock), served by the push driver.
    case push(any AudioOutput)
    /// A device that calls Cabin from its own thread (PipeWire), served by the pull driver.
    case pull(any PullOutput)

    /// The name it was opened with.
    public var device: String {
        switch self {
        case .push(let o): o.device
        case .pull(let o): o.device
        }
    }

    /// What the device agreed to.
    public var negotiated: OutputFormat {
        switch self {
        case .push(let o): o.negotiated
        case .pull(let o): o.negotiated
        }
    }

    /// Closes it. Idempotent.
    public func close() {
        switch self {
        case .push(let o): o.close()
        case .pull(let o): o.close()
        }
    }
}

/// A kind of playback device: how to list and open its devices, and the clock the drivers
/// keep time on (the monotonic clock, or a test's virtual clock).
///
/// Adding a backend is its wrapper over the C library (in the edge), a type conforming to
/// this, and one line in `OutputRegistry.standard`.
///
/// Thread: any thread (the render thread opens again after a device is lost).
public protocol AudioOutputBackend: AnyObject, Sendable {
    /// The devices it can open now (may be empty); what `cabin devices` lists.
    func devices() -> [OutputDevice]
    /// Opens `device` (the name after the backend's scheme) for playback.
    func open(device: String, configuration: OutputConfiguration) throws(AudioDeviceError) -> OpenedOutput
    /// Seconds since an arbitrary origin, never going back.
    func now() -> Double
    /// Waits `seconds`, or until `wakeupDescriptor` is readable; true if it became readable
    /// (the caller drains it). The reconnect backoff.
    func sleep(seconds: Double, wakeupDescriptor: Int32) -> Bool
}

extension AudioOutputBackend {
    /// None: a backend that cannot list its devices lists nothing.
    public func devices() -> [OutputDevice] { [] }
}
