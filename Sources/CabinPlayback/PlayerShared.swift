import CabinAudio
import CabinIO
import CabinSession
import Synchronization

/// The state the control thread and the render thread share: atomics only (plus one
/// mutex-guarded message used only when the device has failed).
final class PlayerShared: Sendable {
    enum State: Int { case starting = 0, playing, paused, reconnecting, finished, stopped, failed }
    enum Transport: Int { case none = 0, pause, resume, quit }

    let state = Atomic<Int>(State.starting.rawValue)
    let transport = Atomic<Int>(Transport.none.rawValue)
    let stopRequested = Atomic<Bool>(false)
    /// `RunnerSlot` pointers (Unmanaged bits; 0 = none): playing, waiting to be swapped in,
    /// swapped out and waiting for the control thread to release it.
    let slot = Atomic<UInt>(0)
    let pending = Atomic<UInt>(0)
    let retired = Atomic<UInt>(0)
    /// Absolute timeline frame of the next frame the device will play.
    let position = Atomic<Int64>(0)
    let xruns = Atomic<Int>(0)
    let lostFrames = Atomic<Int64>(0)
    let delayFrames = Atomic<Int>(0)
    /// The device's frame clock (frames handed to devices since the start, across
    /// reconnections) at the frame heard now: `position` is heard at this frame. A seek is
    /// asked for at a frame of this clock (see `RunnerSlot.requestedAt`).
    let heardClock = Atomic<Int64>(0)
    /// Odd while the render thread publishes `position` and `heardClock` (a sequence lock:
    /// a reader keeps a pair read between two equal, even values).
    let heardSequence = Atomic<Int>(0)
    let deviceErrors = Atomic<Int>(0)
    let restores = Atomic<Int>(0)
    let pauses = Atomic<Int>(0)
    let resumes = Atomic<Int>(0)
    let seeks = Atomic<Int>(0)
    let started = Atomic<Bool>(false)
    /// Readable once the device has started (or playback ended first) and once playback has
    /// ended: what `waitUntilStarted` and `waitUntilFinished` sleep on, from any thread.
    let startedSignal: EventFD
    let finishedSignal: EventFD
    /// CPU time the render thread has used (nanoseconds), published at its end.
    let renderCPUNanoseconds = Atomic<Int64>(0)
    /// The latency playing (`LivePlayer.latencyCode`: 0 none named, 1 low, 2 relaxed), one
    /// asked for and not yet taken by the render thread (0: none), and what the render
    /// thread made of it: the frames it renders at a time and keeps queued at most.
    let latency = Atomic<Int>(0)
    let latencyRequest = Atomic<Int>(0)
    let periodNow = Atomic<Int>(0)
    let bufferNow = Atomic<Int>(0)
    /// A pull device's last callback size, in frames (0: a push device). What the device
    /// asks for may differ from the period asked of it (PipeWire rounds to its graph's
    /// quantum: relaxed's 3,072 frames play as its largest, 2,048 by default).
    let blockFrames = Atomic<Int>(0)
    let latencyChanges = Atomic<Int>(0)
    /// Test hook: the render thread sleeps this many milliseconds once (a forced stall).
    let stallMilliseconds = Atomic<Int>(0)
    /// Where the session is, for haptic players that follow it (`SessionRumble`).
    let hapticFeed: HapticFeed
    let lastDeviceError = Mutex<String>("")
    let scheduling = Mutex<RealtimeThread.Scheduling>(.normal(reason: "not started"))

    /// The state for playing `session` (the haptic feed carries what its haptics read).
    init(_ session: CompiledSession) throws(SystemError) {
        hapticFeed = HapticFeed(session)
        startedSignal = try EventFD()
        finishedSignal = try EventFD()
    }

    /// The device plays: `started`, and wakes whoever waits for it.
    func markStarted() {
        started.store(true, ordering: .releasing)
        startedSignal.signal()
    }
}

/// A runner and where its frame 0 sits on the session's timeline (after a seek).
final class RunnerSlot {
    let runner: SessionRunner
    let base: FrameTime
    /// A seek's: the device frame clock (`PlayerShared.heardClock`) at which the listener was
    /// to hear `base`. The transport skips the new runner by the frames the device has played
    /// since (the fade, the wait for the next period, the output latency), so the session
    /// keeps the wall clock: `seek 0` loses nothing, a seek to T is heard at T plus the time
    /// since it was asked, and the session ends on time. Nil for the first runner.
    let requestedAt: Int64?

    init(runner: SessionRunner, base: FrameTime, requestedAt: Int64? = nil) {
        self.runner = runner
        self.base = base
        self.requestedAt = requestedAt
    }

    /// +1 reference as bits for an atomic.
    func retainedBits() -> UInt { UInt(bitPattern: Unmanaged.passRetained(self).toOpaque()) }

    /// The slot behind `bits` without touching its reference count (render thread).
    static func borrow(_ bits: UInt) -> Unmanaged<RunnerSlot>? {
        guard let p = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return Unmanaged.fromOpaque(p)
    }

    /// Drops the +1 reference behind `bits` (control thread only: may free).
    static func release(_ bits: UInt) {
        borrow(bits)?.release()
    }
}

extension PlayerShared {
    /// Sleeps once for the stall `LivePlayer.injectStall` asked for (tests of underrun
    /// recovery), on the render thread or in the device's callback: both drivers' step. A
    /// relaxed load first: an exchange on every pass would cost a locked instruction.
    @inline(__always)
    func takeInjectedStall() {
        guard stallMilliseconds.load(ordering: .relaxed) != 0 else { return }
        let stall = stallMilliseconds.exchange(0, ordering: .acquiringAndReleasing)
        if stall > 0 { ThreadSleep.microseconds(UInt32(stall * 1000)) }
    }
}
