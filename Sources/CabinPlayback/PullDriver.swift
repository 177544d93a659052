import CabinAudio
import CabinIO
import CabinOutput
import CabinSession
import Synchronization

/// The pull driver: serves a device that calls for audio from its own real-time thread
/// (`PullOutput`: PipeWire's `pw_stream`, JACK, a test's fake) from the same
/// `PlaybackTransport` the push driver (`RenderLoop`) uses, so pause and seek fades,
/// volumes, parameters, live events and the end play the same either way.
///
/// The player's render thread starts the device and then supervises it: it sleeps until
/// the session ends, a stop is asked for, or the device fails (then it reopens it, as the
/// push driver does). Each device callback renders its frames; everything it uses is
/// allocated before the device starts, so a callback never allocates, locks, throws or does
/// I/O — apart from one eventfd write at the end, to wake the supervisor.
final class PullDriver {
    /// The player outlives the driver (its deinit joins the render thread, which closes the
    /// device, and a closed device calls no more), so nothing here retains it.
    unowned(unsafe) let player: LivePlayer
    let shared: PlayerShared
    let wakeup: EventFD
    var output: any PullOutput
    var transport: PlaybackTransport
    let haptics: HapticsDeviceOutput?
    let channels: Int
    let capacity: Int
    let block: UnsafeMutableBufferPointer<Float>
    /// Device-timeline frames rendered since the stream (re)started, and the clock base.
    var framesRendered: Int64 = 0
    var clockBase: Int64 = 0
    var knownXruns = 0
    var knownLost = 0
    /// The last callback's size (the callback's own: published when it changes).
    var lastBlock = 0
    /// Set by the callback when the session has ended (its outcome) or a stop was seen;
    /// the supervisor reads it. 0: still playing.
    let ended = Atomic<Int>(0)

    init(player: LivePlayer, output: any PullOutput) {
        self.player = player
        shared = player.shared
        wakeup = player.wakeup
        self.output = output
        haptics = player.hapticsOutput
        channels = output.negotiated.channelCount
        capacity = max(8192, output.negotiated.periodFrames)
        block = .allocate(capacity: 2 * capacity)
        block.initialize(repeating: 0)
        transport = PlaybackTransport(shared: player.shared, sampleRate: player.session.sampleRate,
                                      transportFade: player.options.transportFade,
                                      drainFrames: output.negotiated.bufferFrames, rendersSilence: player.options.rendersSilence)
    }

    deinit {
        block.deallocate()
        transport.deallocate()
    }

    /// Runs on the player's render thread until the session has ended, stopped or failed.
    func run() {
        shared.state.store(PlayerShared.State.playing.rawValue, ordering: .releasing)
        var outcome = PlayerShared.State.finished.rawValue
        while true {
            do {
                try startStream()
                shared.markStarted()
                outcome = try supervise()
                break
            } catch {
                output.close()
                if shared.stopRequested.load(ordering: .acquiring) { outcome = PlayerShared.State.stopped.rawValue; break }
                let reconnection = DeviceReconnection(player: player, after: error)
                guard let (opened, outage) = reconnection.reopen(like: output.negotiated), case .pull(let fresh) = opened,
                      fresh.negotiated.channelCount == channels, fresh.negotiated.periodFrames <= capacity
                else { outcome = PlayerShared.State.failed.rawValue; break }
                output = fresh
                transport.skip(outage)
                reconnection.restored(paused: transport.isPaused)
            }
        }
        // When close returns no callback runs: the transport is this thread's again.
        output.close()
        if outcome != PlayerShared.State.failed.rawValue {
            shared.position.store(transport.absolutePosition, ordering: .releasing)
        }
        shared.finish(outcome)
    }

    private func startStream() throws(AudioDeviceError) {
        clockBase += framesRendered
        framesRendered = 0
        knownXruns = output.xrunCount
        knownLost = output.lostFrames
        transport.drainFrames = output.negotiated.bufferFrames
        try output.start { [unowned(unsafe) self] samples, frameCount in
            self.render(into: samples, frameCount: frameCount)
        }
        haptics?.start()
        shared.periodNow.store(output.negotiated.periodFrames, ordering: .relaxed)
        shared.bufferNow.store(output.negotiated.bufferFrames, ordering: .relaxed)
        // A device reopened after a loss opens as the first did: ask again for a latency
        // changed since.
        let playing = shared.latency.load(ordering: .acquiring)
        if playing != LivePlayer.latencyCode(player.options.configuration.latency), output.changesPeriodWhilePlaying,
           let latency = LivePlayer.latency(code: playing) {
            try askPeriod(for: latency)
        }
    }

    /// A latency asked for while playing (`LivePlayer.setLatency`, or the needs): the device
    /// is asked for its period (PipeWire: the stream's `node.latency`, and the graph's
    /// quantum follows). Each callback renders what it is asked for, so Cabin drops and
    /// repeats nothing; PipeWire itself drops part of a buffer where its quantum shrinks
    /// (`LatencyNeed.transient` says why automatic latency avoids that).
    private func takeLatencyRequest() throws(AudioDeviceError) {
        let code = shared.latencyRequest.exchange(0, ordering: .acquiringAndReleasing)
        guard let latency = LivePlayer.latency(code: code) else { return }
        try askPeriod(for: latency)
        shared.latency.store(code, ordering: .releasing)
        shared.latencyChanges.add(1, ordering: .releasing)
    }

    /// Asks the device for `latency`'s period, and publishes it for `status`.
    private func askPeriod(for latency: OutputLatency) throws(AudioDeviceError) {
        let shape = latency.configuration(sampleRate: output.negotiated.sampleRate)
        try output.changePeriod(frames: shape.periodFrames)
        shared.periodNow.store(shape.periodFrames, ordering: .relaxed)
        shared.bufferNow.store(shape.periodFrames * shape.periodCount, ordering: .relaxed)
    }

    /// Sleeps until the callback says the session ended, a stop is asked for, or the device
    /// fails (thrown by its `wait`); takes a latency asked for meanwhile.
    private func supervise() throws(AudioDeviceError) -> Int {
        while true {
            if shared.stopRequested.load(ordering: .acquiring) { return PlayerShared.State.stopped.rawValue }
            let outcome = ended.load(ordering: .acquiring)
            if outcome != 0 { return outcome }
            if shared.latencyRequest.load(ordering: .relaxed) != 0 { try takeLatencyRequest() }
            // Everything that needs this thread signals `wakeup` (a stop, the end, a latency)
            // or fails the wait (the device): the timeout is only a backstop, so a bed left
            // on does not wake it every second.
            if try output.wait(extraDescriptor: wakeup.descriptor, timeoutMilliseconds: 10_000) == .wakeup {
                wakeup.drain()
            }
        }
    }

    /// One device callback, on the device's thread.
    private func render(into samples: UnsafeMutableBufferPointer<Float>, frameCount: Int) {
        let n = min(frameCount, capacity, samples.count / max(1, channels))
        if ended.load(ordering: .relaxed) != 0 || shared.stopRequested.load(ordering: .relaxed) {
            samples.update(repeating: 0)
            return
        }
        shared.takeInjectedStall()
        if n != lastBlock {
            lastBlock = n
            shared.blockFrames.store(n, ordering: .relaxed)
        }
        noteUnderruns()
        let deviceFrame = clockBase + framesRendered
        transport.deviceFrame = deviceFrame
        transport.applyRequests()
        if let outcome = transport.outcome {
            samples.update(repeating: 0)
            ended.store(outcome, ordering: .releasing)
            wakeup.signal()
            return
        }
        transport.renderPeriod(into: block, frameCount: n, deviceFrame: deviceFrame, haptics: haptics)
        if channels == 2 {
            samples.baseAddress!.update(from: block.baseAddress!, count: 2 * n)
        } else {
            // The transport renders stereo: other channel counts take left and right in turn.
            for frame in 0..<n {
                for c in 0..<channels { samples[frame * channels + c] = block[2 * frame + (c & 1)] }
            }
        }
        if samples.count > n * channels { samples[(n * channels)...].update(repeating: 0) }
        framesRendered += Int64(n)
        let delay = output.delayFrames() ?? 0
        shared.publishHeard(clock: clockBase + framesRendered, delay: delay, position: transport.heardPosition(delay: delay))
    }

    /// Underruns the device reports, counted for `status`; the time the device played
    /// without a callback (`PullOutput.lostFrames`: a late callback's missed cycles) is
    /// skipped, as the push driver skips an underrun's, so the session stays on the device's
    /// clock and ends on time. A device that cannot tell (its clock is its callbacks) loses
    /// nothing: the session plays on from where the device asks next.
    private func noteUnderruns() {
        let xruns = output.xrunCount
        guard xruns != knownXruns else { return }
        knownXruns = xruns
        let lostNow = output.lostFrames
        let lost = max(0, lostNow - knownLost)
        knownLost = lostNow
        if lost > 0 {
            framesRendered += Int64(lost)
            transport.skip(lost)
            shared.lostFrames.add(Int64(lost), ordering: .releasing)
        }
        shared.xruns.store(xruns, ordering: .releasing)
    }
}
