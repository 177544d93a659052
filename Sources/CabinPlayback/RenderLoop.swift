import CabinAudio
import CabinIO
import CabinOutput
import CabinSession

extension LivePlayer {
    func renderThreadMain(scheduling: RealtimeThread.Scheduling) {
        shared.scheduling.withLock { $0 = scheduling }
        switch opened {
        case .push(let output):
            var loop = RenderLoop(player: self, output: output)
            loop.run()
        case .pull(let output):
            PullDriver(player: self, output: output).run()
        }
    }
}

/// The render thread's push driver: poll the output, let the transport render one period,
/// write it; recover underruns and keep the timeline on the output's clock; reconnect a
/// lost device. What plays when (pause, seek, quit, the end) is `PlaybackTransport`'s.
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
    var transport: PlaybackTransport
    let rate: Double
    /// Frames rendered at a time, and kept queued at most (the opened buffer, or less while
    /// a lower latency than the one opened is asked for: `applyLatency`).
    var period: Int
    var fill: Int
    let capacity: Int
    let block: UnsafeMutableBufferPointer<Float>
    /// Device-timeline frames since `startTime`: written audio and silence, plus time lost
    /// in underruns.
    var framesWritten: Int64 = 0
    /// The device frame clock at the last (re)start: `clockBase + framesWritten` never goes
    /// back, across reconnections.
    var clockBase: Int64 = 0
    var startTime: Double = 0
    var knownXruns = 0
    var lastDelay = 0
    var lastDelayQuery: Int64 = 0
    /// The haptics device beside the session's (`LivePlayer.Options.hapticsDevice`).
    let haptics: HapticsDeviceOutput?

    init(player: LivePlayer, output: any AudioOutput) {
        self.player = player
        shared = player.shared
        wakeup = player.wakeup
        self.output = output
        haptics = player.hapticsOutput
        backend = player.backend
        rate = player.session.sampleRate
        period = output.negotiated.periodFrames
        fill = output.negotiated.bufferFrames
        capacity = max(8192, output.negotiated.bufferFrames)
        block = .allocate(capacity: 2 * capacity)
        block.initialize(repeating: 0)
        transport = PlaybackTransport(shared: player.shared, sampleRate: rate, transportFade: player.options.transportFade,
                                      drainFrames: output.negotiated.bufferFrames, rendersSilence: player.options.rendersSilence)
    }

    mutating func run() {
        defer { block.deallocate(); transport.deallocate() }
        shared.state.store(PlayerShared.State.playing.rawValue, ordering: .releasing)
        var outcome = PlayerShared.State.finished.rawValue
        while true {
            do {
                try prefillAndStart()
                shared.markStarted()
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
        if outcome != PlayerShared.State.failed.rawValue {
            shared.position.store(transport.absolutePosition, ordering: .releasing)
        }
        shared.finish(outcome)
        output.close()
    }

    /// Fills the buffer and starts the device; the stream's wall clock starts here.
    mutating func prefillAndStart() throws(AudioDeviceError) {
        clockBase += framesWritten
        framesWritten = 0
        lastDelayQuery = 0
        knownXruns = output.xrunCount
        applyLatency()
        let buffer = fill
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
        haptics?.start()
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
            if pending == 0, let outcome = transport.outcome { return outcome }
            if pending == 0 {
                transport.deviceFrame = clockBase + framesWritten
                transport.applyRequests()
                if shared.latencyRequest.load(ordering: .relaxed) != 0 { takeLatencyRequest() }
            }
            shared.takeInjectedStall()
            let avail = try output.availableFrames()
            catchUpAfterUnderrun()
            // The room to fill: all of it, or less while a lower latency keeps less queued.
            let room = avail - (output.negotiated.bufferFrames - fill)
            if pending == 0 && room >= period {
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
                publish(unwritten: pending)
            }
            if written == 0 || pending > 0 || room - written < period {
                if pending == 0 && fill < output.negotiated.bufferFrames {
                    // The device would wake at its own period, which is more than is queued
                    // now: sleep on the clock until a block's room is free (PulseAudio's
                    // timer-based scheduling, in a buffer larger than the fill).
                    let short = period - max(0, room - written)
                    if backend.sleep(seconds: (Double(short) * 1000 / rate).rounded(.up) / 1000, wakeupDescriptor: wakeup.descriptor) {
                        wakeup.drain()
                    }
                } else if try output.wait(extraDescriptor: wakeup.descriptor, timeoutMilliseconds: 200) == .wakeup {
                    wakeup.drain()
                }
            }
        }
    }

    /// The block and fill for the latency playing (`PlayerShared.latency`): the opened
    /// period and buffer, or, for a latency lower than the one opened, its smaller block and
    /// fill within the same buffer (a buffer opened low cannot grow: relaxed keeps it).
    mutating func applyLatency() {
        let buffer = output.negotiated.bufferFrames
        period = min(output.negotiated.periodFrames, capacity)
        fill = buffer
        if let latency = LivePlayer.latency(code: shared.latency.load(ordering: .relaxed)) {
            let shape = latency.configuration(sampleRate: Int(rate))
            period = min(period, shape.periodFrames)
            fill = min(buffer, max(2 * period, shape.periodFrames * shape.periodCount))
        }
        transport.drainFrames = fill
        shared.periodNow.store(period, ordering: .relaxed)
        shared.bufferNow.store(fill, ordering: .relaxed)
    }

    /// A latency asked for while playing (`LivePlayer.setLatency`): takes effect from the
    /// next block on; what is queued plays out (nothing dropped, nothing repeated).
    mutating func takeLatencyRequest() {
        let code = shared.latencyRequest.exchange(0, ordering: .acquiringAndReleasing)
        guard code != 0 else { return }
        shared.latency.store(code, ordering: .releasing)
        applyLatency()
        shared.latencyChanges.add(1, ordering: .releasing)
    }

    /// Renders `n` frames into `block` (to be written at the device clock's next frame).
    mutating func renderPeriod(_ n: Int) {
        transport.renderPeriod(into: block, frameCount: n, deviceFrame: clockBase + framesWritten, haptics: haptics)
    }

    /// After an underrun the device played silence for a while: skip the session by the
    /// time lost, so it stays on the wall clock and ends on time.
    mutating func catchUpAfterUnderrun() {
        let xruns = output.xrunCount
        guard xruns != knownXruns else { return }
        knownXruns = xruns
        let expected = Int64(((backend.now() - startTime) * rate).rounded())
        let lost = max(0, expected - framesWritten)
        framesWritten += lost
        transport.skip(Int(lost))
        shared.xruns.store(xruns, ordering: .releasing)
        shared.lostFrames.add(lost, ordering: .releasing)
    }

    /// Publishes the position the listener hears and the output latency (the device's delay
    /// is asked for about every 20 ms; between, it is estimated from the last answer).
    /// `unwritten`: frames rendered that the device has not taken yet.
    mutating func publish(unwritten: Int = 0) {
        if framesWritten - lastDelayQuery >= Int64(rate / 50) || lastDelayQuery == 0 {
            lastDelay = output.delayFrames() ?? 0
            lastDelayQuery = framesWritten
        }
        shared.publishHeard(clock: clockBase + framesWritten, delay: lastDelay,
                            position: transport.heardPosition(delay: lastDelay + unwritten))
    }
}

extension PlaybackTransport {
    /// Renders `n` frames into `block` for the device frame clock's `deviceFrame`, and the
    /// haptics device's period beside them. Both drivers' one render step.
    mutating func renderPeriod(into block: UnsafeMutableBufferPointer<Float>, frameCount n: Int, deviceFrame: Int64,
                               haptics: HapticsDeviceOutput?) {
        self.deviceFrame = deviceFrame
        let from = absolutePosition
        render(into: UnsafeMutableBufferPointer(rebasing: block[0..<(2 * n)]), frameCount: n)
        if let haptics {
            // The session frames this period played (none while paused or draining; a
            // seek's swap at the period's end counts the old runner's whole period).
            let after = absolutePosition
            let advanced = after >= from && after - from <= FrameTime(n) ? Int(after - from) : n
            let runner = runnerReference
            let lead = runner._withUnsafeGuaranteedRef { $0.lookAheadFrames }
            haptics.processPeriod(from: from, frameCount: n, advanced: advanced, lead: lead) { p in
                runner._withUnsafeGuaranteedRef { $0.processParameterValue(p) }
            }
        }
    }
}

extension PlayerShared {
    /// Publishes what the listener hears: the device frame clock at the heard frame and the
    /// session position, as a pair under the sequence lock (`LivePlayer.heardNow` reads it),
    /// and the output latency. `clock`: the device frame clock at the next frame to render.
    func publishHeard(clock: Int64, delay: Int, position: FrameTime) {
        delayFrames.store(delay, ordering: .relaxed)
        heardSequence.add(1, ordering: .acquiringAndReleasing)
        heardClock.store(clock - Int64(delay), ordering: .releasing)
        self.position.store(position, ordering: .releasing)
        heardSequence.add(1, ordering: .acquiringAndReleasing)
    }

    /// The render thread's last word: its CPU time, then the outcome (a `State` raw value).
    func finish(_ outcome: Int) {
        renderCPUNanoseconds.store(ThreadCPUClock.nanoseconds(), ordering: .releasing)
        state.store(outcome, ordering: .releasing)
        finishedSignal.signal()
        startedSignal.signal()
    }
}
