/// The buffer of an emulated ALSA device, written once for the two devices that have no
/// sound card behind them: `FakeAudioOutput` (tests, on a `VirtualClock`) and
/// `SilentClockOutput` (`-D none`, on the monotonic clock). A buffer of `bufferFrames`,
/// started when full (ALSA's start threshold) or by `start`; a clock plays it out at one
/// frame a tick; running dry is an underrun, which stays until recovered (counted, the
/// buffer emptied, prepared again), as a card's does.
///
/// The clock is the caller's: every call passes `now`, in ticks (frames at the device's
/// rate) from any fixed origin. It does no I/O, takes no lock and does not allocate: a
/// value the render thread owns.
///
/// `package`: CabinTesting's `FakeAudioOutput` is built on it.
///
/// Thread: the render thread once playback starts (a value inside its output).
package struct EmulatedDeviceBuffer {
    package enum State { case prepared, running, underrun, closed }

    package let bufferFrames: Int
    package let periodFrames: Int
    package private(set) var state = State.prepared
    /// Underruns recovered so far.
    package private(set) var xrunCount = 0
    /// Frames written and not yet played.
    package private(set) var queuedFrames = 0
    /// The tick the device first started playing at.
    package private(set) var startedAt: Int64?
    /// The tick `advance` last reached.
    private var lastUpdate: Int64 = 0

    package init(bufferFrames: Int, periodFrames: Int) {
        self.bufferFrames = bufferFrames
        self.periodFrames = periodFrames
    }

    /// Plays what the clock has reached since the last call: `played` frames of the queue,
    /// then `silence` frames (the device had run dry, or was stopped after an underrun; a
    /// device never started, or closed, hears nothing). Running dry is noted as an underrun.
    package mutating func advance(to now: Int64) -> (played: Int, silence: Int) {
        let elapsed = Int(now - lastUpdate)
        lastUpdate = now
        guard elapsed > 0 else { return (0, 0) }
        switch state {
        case .running:
            let played = min(elapsed, queuedFrames)
            queuedFrames -= played
            if elapsed > played { state = .underrun }
            return (played, elapsed - played)
        case .underrun:
            return (0, elapsed)
        case .prepared where startedAt != nil:
            return (0, elapsed)  // stopped after an underrun
        case .prepared, .closed:
            return (0, 0)
        }
    }

    /// An underrun found: counted and recovered (the buffer emptied, prepared again).
    /// Whether there was one.
    package mutating func recoverIfUnderrun() -> Bool {
        guard state == .underrun else { return false }
        xrunCount += 1
        queuedFrames = 0
        state = .prepared
        return true
    }

    /// Room for frames now.
    package var availableFrames: Int { bufferFrames - queuedFrames }

    /// Takes up to `frameCount` frames (as many as there is room for), starting the device
    /// at `now` once the buffer is full; the frames taken.
    package mutating func write(_ frameCount: Int, now: Int64) -> Int {
        let n = max(0, min(frameCount, availableFrames))
        queuedFrames += n
        if state == .prepared && queuedFrames >= bufferFrames { startRunning(at: now) }
        return n
    }

    /// Starts a prepared device at `now` (whatever it holds).
    package mutating func start(now: Int64) {
        if state == .prepared { startRunning(at: now) }
    }

    private mutating func startRunning(at now: Int64) {
        state = .running
        lastUpdate = now
        if startedAt == nil { startedAt = now }
    }

    /// Whether a write can go ahead without waiting: a period's room while running, or an
    /// underrun to recover.
    package var isReady: Bool { state == .underrun || (state == .running && availableFrames >= periodFrames) }

    /// While running, the frames still to play before a period's room is free.
    package var framesUntilPeriodRoom: Int { periodFrames - availableFrames }

    /// Frames between what is written next and the listener: what is queued, while running.
    package var delayFrames: Int { state == .running ? queuedFrames : 0 }

    package mutating func close() {
        state = .closed
        queuedFrames = 0
    }
}
