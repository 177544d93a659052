import CabinAudio
import CabinIO
import CabinSession
import Glibc

extension LivePlayer {
    func renderThreadMain(scheduling: RealtimeThread.Scheduling) {
        shared.scheduling.withLock { $0 = scheduling }
        var loop = RenderLoop(player: self)
        loop.run()
    }
}

/// The render thread: poll, render one period, write; recover underruns and keep the
/// timeline on the wall clock; apply transport requests; reconnect a lost device.
///
/// Everything it needs is allocated in `init`, before audio starts. The steady state
/// (`stream`) allocates nothing; the reconnect path does, while no audio flows.
struct RenderLoop {
    /// The player outlives this loop (its deinit joins the thread), so it is held without
    /// reference counting: nothing on the render thread retains or releases.
    unowned(unsafe) let player: LivePlayer
    /// Held once here for the same reason (reading them through `player` would retain).
    let shared: PlayerShared
    let wakeup: EventFD
    /// The device; replaced when a lost device is reopened.
    var output: any AudioOutput
    /// Opens devices and keeps the time (wall clock, or a fake's virtual clock).
    let backend: any AudioOutputBackend
    let rate: Double
    var period: Int
    let capacity: Int
    let block: UnsafeMutableBufferPointer<Float>
    let scratch: UnsafeMutableBufferPointer<Float>
    var slot: Unmanaged<RunnerSlot>
    /// Device-timeline frames since `startTime`: written audio and silence, plus time lost
    /// in underruns.
    var framesWritten: Int64 = 0
    var startTime: Double = 0
    var knownXruns = 0
    var lastDelay = 0
    var lastDelayQuery: Int64 = 0
    var phase = Phase.playing
    let fadeFrames: Int
    let seekFadeFrames: Int
    /// Benchmarks only: write silence and never run the session (`Options.rendersSilence`).
    let rendersSilence: Bool

    enum Phase: Equatable {
        case playing
        /// Fading the master out before `then` happens.
        case fading(then: FadeAction, framesLeft: Int)
        case paused
        /// Silence while the buffer plays out, then the end.
        case draining(framesLeft: Int, outcome: Int)
    }

    enum FadeAction: Equatable { case pause, quit, swap }

    init(player: LivePlayer) {
        self.player = player
        shared = player.shared
        wakeup = player.wakeup
        output = player.output
        backend = player.options.backend
        rate = player.session.sampleRate
        period = output.negotiated.periodFrames
        capacity = max(8192, output.negotiated.bufferFrames)
        block = .allocate(capacity: 2 * capacity)
        block.initialize(repeating: 0)
        scratch = .allocate(capacity: 2 * 4096)
        scratch.initialize(repeating: 0)
        slot = RunnerSlot.borrow(player.shared.slot.load(ordering: .acquiring))!
        runnerReference = Unmanaged.passUnretained(slot.takeUnretainedValue().runner)
        base = slot.takeUnretainedValue().base
        fadeFrames = max(1, Int(player.options.transportFade * rate))
        seekFadeFrames = Int(0.03 * rate)
        rendersSilence = player.options.rendersSilence
    }

    /// The playing runner and its timeline offset, read without reference counting: the
    /// slot that owns the runner is kept alive by `shared.slot` until the control thread
    /// frees it after a swap. (An `unowned(unsafe)` reference still costs a retain and a
    /// release around every call through it; a borrowed `Unmanaged` does not.)
    var runnerReference: Unmanaged<SessionRunner>
    var base: FrameTime
    var absolutePosition: FrameTime { base + withRunner { $0.position } }

    /// Calls `body` with the playing runner, borrowed (no reference counting).
    @inline(__always)
    func withRunner<Result>(_ body: (SessionRunner) -> Result) -> Result {
        runnerReference._withUnsafeGuaranteedRef(body)
    }

    mutating func run() {
        defer { block.deallocate(); scratch.deallocate() }
        shared.state.store(PlayerShared.State.playing.rawValue, ordering: .releasing)
        var outcome = PlayerShared.State.finished.rawValue
        while true {
            do {
                try prefillAndStart()
                shared.started.store(true, ordering: .releasing)
                outcome = try stream()
                break
            } catch {
                if shared.stopRequested.load(ordering: .acquiring) { outcome = PlayerShared.State.stopped.rawValue; break }
                guard reconnect(after: error) else { outcome = PlayerShared.State.failed.rawValue; break }
            }
        }
        publish()
        // What is still queued is silence after the session's last frame (or after a
        // quit's fade): the listener has heard all of it.
        if outcome != PlayerShared.State.failed.rawValue { shared.position.store(absolutePosition, ordering: .releasing) }
        var cpu = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)
        shared.renderCPUNanoseconds.store(Int64(cpu.tv_sec) * 1_000_000_000 + Int64(cpu.tv_nsec), ordering: .releasing)
        shared.state.store(outcome, ordering: .releasing)
        output.close()
    }

    /// Fills the buffer and starts the device; the stream's wall clock starts here.
    mutating func prefillAndStart() throws(AudioDeviceError) {
        framesWritten = 0
        lastDelayQuery = 0
        knownXruns = output.xrunCount
        period = min(output.negotiated.periodFrames, capacity)
        let buffer = output.negotiated.bufferFrames
        var filled = 0
        while filled < buffer {
            let n = min(period, buffer - filled)
            renderPeriod(n)
            // The device is empty: it takes whole periods (a refusal ends the prefill, and
            // the part it took is counted).
            let written = try output.writeAvailable(UnsafeBufferPointer(block), frameCount: n)
            filled += written
            framesWritten += Int64(written)
            if written < n { break }
        }
        try output.start()
        startTime = backend.now()
        publish()
    }

    /// The steady state; returns the outcome (a `PlayerShared.State` raw value).
    ///
    /// A rendered period stays in `block` until the device has taken all of it (a short or
    /// refused write never drops audio); only then is the next period rendered.
    ///
    /// One pass per period in the steady state: ask how much room the device has, render,
    /// write, then wait — unless the room asked for still holds another whole period (the
    /// loop is behind, e.g. after an underrun), in which case it goes round at once. Asking
    /// the device again right after a write only to learn it is full would cost a call into
    /// ALSA per period for nothing.
    mutating func stream() throws(AudioDeviceError) -> Int {
        var pending = 0, offset = 0
        while true {
            if shared.stopRequested.load(ordering: .acquiring) { return PlayerShared.State.stopped.rawValue }
            if pending == 0, case .draining(let left, let outcome) = phase, left <= 0 { return outcome }
            if pending == 0 { applyTransport() }
            // Read first: an atomic exchange on every pass would cost a locked instruction.
            if shared.stallMilliseconds.load(ordering: .relaxed) != 0 {
                let stall = shared.stallMilliseconds.exchange(0, ordering: .acquiringAndReleasing)
                if stall > 0 { usleep(UInt32(stall * 1000)) }
            }
            let avail = try output.availableFrames()
            catchUpAfterUnderrun()
            if pending == 0 && avail >= period {
                renderPeriod(period)
                pending = period
                offset = 0
            }
            var written = 0
            if pending > 0 && avail > 0 {
                let rest = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(block)[(2 * offset)..<(2 * (offset + pending))])
                written = try output.writeAvailable(rest, frameCount: pending)
                offset += written
                pending -= written
                framesWritten += Int64(written)
                publish()
            }
            if written == 0 || pending > 0 || avail - written < period {
                if try output.wait(extraDescriptor: wakeup.descriptor, timeoutMilliseconds: 200) == .wakeup {
                    wakeup.drain()
                }
            }
        }
    }

    /// Renders `n` frames into `block`: the session, or silence while paused or draining.
    mutating func renderPeriod(_ n: Int) {
        let out = UnsafeMutableBufferPointer(rebasing: block[0..<(2 * n)])
        if rendersSilence {
            out.update(repeating: 0)
            return
        }
        switch phase {
        case .paused:
            out.update(repeating: 0)
        case .draining(let left, let outcome):
            out.update(repeating: 0)
            phase = .draining(framesLeft: left - n, outcome: outcome)
        case .playing:
            if withRunner({ $0.render(into: out, frameCount: n) }) < n { drain(.finished) }
        case .fading(let action, let left):
            if withRunner({ $0.render(into: out, frameCount: n) }) < n { drain(.finished); return }
            if left - n > 0 { phase = .fading(then: action, framesLeft: left - n); return }
            switch action {
            case .pause:
                phase = .paused
                shared.state.store(PlayerShared.State.paused.rawValue, ordering: .releasing)
            case .quit:
                drain(.stopped)
            case .swap:
                swapRunner()
                phase = .playing
            }
        }
    }

    mutating func drain(_ outcome: PlayerShared.State) {
        phase = .draining(framesLeft: output.negotiated.bufferFrames, outcome: outcome.rawValue)
    }
}

