import CabinIO
import CabinOutput
import CabinSession
import Glibc
import Synchronization

/// Callback mode: an app that owns its audio callback (JACK, PipeWire, SDL, a game
/// engine's mixer) asks Cabin for each block, and gets the session exactly as `LivePlayer`
/// plays it — pause and resume fades, seeks, volumes, parameters, live events, the end —
/// because it is the pull device the player's pull driver (`PullDriver`) serves.
///
/// ```swift
/// let output = CallbackOutput(sampleRate: 48000, maximumFrames: 512)
/// let loaded = try SessionLoader.load(preset: "ambient", options: .init(sampleRate: 48000, maxBlockFrames: 512))
/// let player = try LivePlayer(session: loaded.compiled, callback: output)
/// try player.start()
/// // in the app's audio callback, on its real-time thread:
/// output.render(into: buffer, frames: frameCount)   // interleaved Float, `channels` wide
/// // anywhere else: player.pause(), player.seek(to: 60), player.setVolume(-6), …
/// ```
///
/// Thread: `render` on the app's audio thread (it never allocates, locks, blocks or does
/// I/O; before the player starts and after the session ends it writes silence); everything
/// else any thread.
public final class CallbackOutput: PullOutput, @unchecked Sendable {
    // @unchecked Sendable: what `render` reads is atomics and the render closure, published
    // once by `start` before the atomic that makes `render` call it.
    public let device: String
    public let negotiated: OutputFormat
    public var xrunCount: Int { underruns.load(ordering: .relaxed) }
    private let underruns = Atomic<Int>(0)
    private let latency: Atomic<Int>
    /// The render closure, boxed (Unmanaged bits; 0 = not started).
    private let renderBits = Atomic<UInt>(0)
    /// Callbacks inside `render` now (`close` waits for 0).
    private let active = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)

    private final class Box {
        let render: PullRender
        init(_ render: @escaping PullRender) { self.render = render }
    }

    /// `maximumFrames`: the largest block one `render` asks for at once (larger requests
    /// are rendered in blocks of it). `latencyFrames`: how far behind `render` the listener
    /// hears (the app's buffering), so `status` and seeks count it; 0 if unknown.
    public init(sampleRate: Int, channels: Int = 2, maximumFrames: Int = 1024, latencyFrames: Int = 0,
                name: String = "callback") {
        precondition(sampleRate > 0 && channels > 0 && maximumFrames > 0 && latencyFrames >= 0)
        device = name
        negotiated = OutputFormat(sampleRate: sampleRate, channelCount: channels, periodFrames: maximumFrames,
                                  bufferFrames: maximumFrames, format: .float32)
        latency = Atomic(latencyFrames)
    }

    deinit {
        let bits = renderBits.exchange(0, ordering: .acquiringAndReleasing)
        if bits != 0 { Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }

    /// Fills `frames` frames of interleaved samples (`channels` a frame) with what plays next.
    /// From the app's audio thread; silence before the player starts and after it has ended.
    public func render(into samples: UnsafeMutablePointer<Float>, frames: Int) {
        guard frames > 0 else { return }
        active.add(1, ordering: .sequentiallyConsistent)
        defer { active.subtract(1, ordering: .sequentiallyConsistent) }
        let channels = negotiated.channelCount
        let bits = closed.load(ordering: .sequentiallyConsistent) ? 0 : renderBits.load(ordering: .acquiring)
        guard bits != 0 else {
            samples.update(repeating: 0, count: frames * channels)
            return
        }
        Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)._withUnsafeGuaranteedRef { box in
            var done = 0
            while done < frames {
                let n = min(frames - done, negotiated.periodFrames)
                box.render(UnsafeMutableBufferPointer(start: samples + done * channels, count: n * channels), n)
                done += n
            }
        }
    }

    /// `render(into:frames:)` on a buffer (`frames` at most `samples.count / channels`).
    public func render(into samples: UnsafeMutableBufferPointer<Float>, frames: Int) {
        guard let base = samples.baseAddress else { return }
        render(into: base, frames: min(frames, samples.count / negotiated.channelCount))
    }

    /// Tells Cabin the app's callback ran late (counted in `status.xruns`). Any thread.
    public func noteUnderrun() { underruns.add(1, ordering: .relaxed) }

    /// Changes the latency `status` and seeks count (the app's buffering changed). Any thread.
    public func setLatency(frames: Int) { latency.store(max(0, frames), ordering: .relaxed) }

    // MARK: PullOutput (the player's side)

    public func start(render: @escaping PullRender) throws(AudioDeviceError) {
        guard !closed.load(ordering: .acquiring) else {
            throw AudioDeviceError(.failed, device: device, operation: "start", code: EBADF, detail: "the callback output was closed")
        }
        let bits = UInt(bitPattern: Unmanaged.passRetained(Box(render)).toOpaque())
        let old = renderBits.exchange(bits, ordering: .acquiringAndReleasing)
        if old != 0 { Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: old)!).release() }
    }

    /// The app's thread is the device: nothing here fails, so the player's supervisor only
    /// sleeps until it is woken.
    public func wait(extraDescriptor: Int32, timeoutMilliseconds: Int32) throws(AudioDeviceError) -> OutputWaitResult {
        EventFD.waitReadable(extraDescriptor, timeoutMilliseconds: timeoutMilliseconds) ? .wakeup : .timeout
    }

    public func delayFrames() -> Int? { latency.load(ordering: .relaxed) }

    /// From now on `render` writes silence; returns once no `render` is inside the session.
    public func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        while active.load(ordering: .sequentiallyConsistent) != 0 { ThreadSleep.yield() }
    }
}

/// Opens nothing: the callback output it was made with (for `LivePlayer.Options.backend`).
final class CallbackBackend: AudioOutputBackend {
    let output: CallbackOutput
    init(_ output: CallbackOutput) { self.output = output }
    func devices() -> [OutputDevice] { [] }
    func open(device: String, configuration: OutputConfiguration) throws(AudioDeviceError) -> OpenedOutput { .pull(output) }
    func now() -> Double { MonotonicClock.seconds() }
    func sleep(seconds: Double, wakeupDescriptor: Int32) -> Bool {
        EventFD.waitReadable(wakeupDescriptor, timeoutMilliseconds: Int32(seconds * 1000))
    }
}

extension LivePlayer {
    /// Callback mode: plays `session` through `output`, whose `render` the app calls from its
    /// own audio callback (see `CallbackOutput`). The session must be loaded at the output's
    /// rate. The player's own thread only supervises (it sleeps until the session ends), so it
    /// runs without real-time priority.
    public convenience init(session: CompiledSession, options: Options = Options(), callback output: CallbackOutput)
        throws(AudioDeviceError) {
        var options = options
        options.device = output.device
        options.backend = CallbackBackend(output)
        options.hapticsDevice = nil
        options.realtime = false
        try self.init(session: session, options: options, opened: .pull(output))
    }
}
