import CabinAudio
import CabinOutput
import CabinSession

/// The live player's transport as a state machine: playing, fading (to a pause, a quit or
/// a seek's runner swap), paused, draining; it takes the control thread's requests from
/// `PlayerShared`, renders each period of the session (or silence), and skips the timeline
/// by time the listener lost. No device, no clock, no I/O: whatever drives it — the push
/// render loop on an `AudioOutput` (`RenderLoop`), or a pull backend's callback — calls
/// `applyRequests`, `render` and `skip`, and reads `outcome` and `absolutePosition`.
///
/// Everything it needs is allocated before audio starts; nothing here allocates, locks or
/// reference-counts.
///
/// Thread: the render thread only.
struct PlaybackTransport {
    enum Phase: Equatable {
        case playing
        /// Fading the master out before `then` happens.
        case fading(then: FadeAction, framesLeft: Int)
        case paused
        /// Silence while the buffer plays out, then the end.
        case draining(framesLeft: Int, outcome: Int)
    }

    enum FadeAction: Equatable { case pause, quit, swap }

    /// Held once, without reference counting (the player outlives the render thread).
    let shared: PlayerShared
    var phase = Phase.playing
    let fadeFrames: Int
    let seekFadeFrames: Int
    /// The seek's fade: 30 ms at `rate` (`LivePlayer.seek` counts it in what a seek skips).
    static func seekFadeFrames(rate: Double) -> Int { Int(0.03 * rate) }
    /// Frames of silence that play out the device's buffer before the end.
    var drainFrames: Int
    /// Benchmarks only: render silence and never run the session (`Options.rendersSilence`).
    let rendersSilence: Bool
    /// Where `skip` renders the frames it drops.
    let scratch: UnsafeMutableBufferPointer<Float>
    var slot: Unmanaged<RunnerSlot>
    /// The playing runner, borrowed: the slot that owns it is kept alive by `shared.slot`
    /// until the control thread frees it after a swap. (An `unowned(unsafe)` reference
    /// still costs a retain and a release around every call through it; a borrowed
    /// `Unmanaged` does not.)
    var runnerReference: Unmanaged<SessionRunner>
    /// The runner's timeline offset (after a seek).
    var base: FrameTime
    /// The ring haptic players read (published after every block while one listens).
    let hapticFeed: HapticFeed.View
    /// The device frame clock of the next frame rendered (the driver sets it before
    /// `applyRequests` and `render`): a seek's new runner catches up from its request to it.
    var deviceFrame: Int64 = 0
    /// The position shown while paused (the pause point) and after, until the sound heard
    /// passes it: a resume does not show the position going back by the output latency.
    var held: FrameTime?
    /// The most a seek's runner catches up at its swap (1 s: a few ms of rendering); a seek
    /// that waited longer (a control thread that stopped polling) lands that much late.
    static let maximumCatchUp: Int64 = 48_000

    init(shared: PlayerShared, sampleRate rate: Double, transportFade: Double, drainFrames: Int, rendersSilence: Bool) {
        self.shared = shared
        fadeFrames = max(1, Int(transportFade * rate))
        seekFadeFrames = Self.seekFadeFrames(rate: rate)
        self.drainFrames = drainFrames
        self.rendersSilence = rendersSilence
        scratch = .allocate(capacity: 2 * 4096)
        scratch.initialize(repeating: 0)
        slot = RunnerSlot.borrow(shared.slot.load(ordering: .acquiring))!
        runnerReference = Unmanaged.passUnretained(slot.takeUnretainedValue().runner)
        base = slot.takeUnretainedValue().base
        hapticFeed = shared.hapticFeed.view
    }

    /// Frees what `init` allocated (call once, when the render thread ends).
    func deallocate() { scratch.deallocate() }

    /// The timeline frame the next rendered frame will be.
    var absolutePosition: FrameTime { base + withRunner { $0.position } }

    /// The end, once drained: a `PlayerShared.State` raw value (finished or stopped).
    var outcome: Int? {
        if case .draining(let left, let outcome) = phase, left <= 0 { return outcome }
        return nil
    }

    var isPaused: Bool { phase == .paused }

    /// Calls `body` with the playing runner, borrowed (no reference counting).
    @inline(__always)
    func withRunner<Result>(_ body: (SessionRunner) -> Result) -> Result {
        runnerReference._withUnsafeGuaranteedRef(body)
    }

    /// Renders `n` frames into `out`: the session, or silence while paused or draining.
    mutating func render(into out: UnsafeMutableBufferPointer<Float>, frameCount n: Int) {
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
            publishHaptics()
        case .fading(let action, let left):
            if withRunner({ $0.render(into: out, frameCount: n) }) < n { drain(.finished); return }
            publishHaptics()
            if left - n > 0 { phase = .fading(then: action, framesLeft: left - n); return }
            switch action {
            case .pause:
                phase = .paused
                shared.state.store(PlayerShared.State.paused.rawValue, ordering: .releasing)
            case .quit:
                drain(.stopped)
            case .swap:
                swapRunner(nextDeviceFrame: deviceFrame + Int64(n), running: true)
                phase = .playing
            }
        }
    }

    /// The listener lost `frames` (an underrun, a device outage): the session skips them,
    /// so it stays on the wall clock and ends on time. Nothing moves while paused.
    mutating func skip(_ frames: Int) {
        guard frames > 0 && phase != .paused && !rendersSilence else { return }
        withRunner { $0.processSkip(frames, scratch: scratch) }
        publishHaptics()
    }

    /// Tells the haptic players where the session is now (when one listens).
    @inline(__always)
    func publishHaptics() {
        let base = self.base, feed = hapticFeed
        withRunner { $0.processHapticFeed(feed, base: base) }
    }

    mutating func drain(_ outcome: PlayerShared.State) {
        phase = .draining(framesLeft: drainFrames, outcome: outcome.rawValue)
    }

    /// Pause, resume, quit and seek requests from the control thread, each with a fade.
    mutating func applyRequests() {
        // Read first: an atomic exchange on every period would cost a locked instruction.
        var request = PlayerShared.Transport.none
        if shared.transport.load(ordering: .relaxed) != 0 {
            request = PlayerShared.Transport(rawValue: shared.transport.exchange(0, ordering: .acquiringAndReleasing)) ?? .none
        }
        switch request {
        case .none:
            break
        case .pause:
            if phase == .playing {
                withRunner { $0.processAction(.setMasterGain(to: .silence, overFrames: Int64(fadeFrames))) }
                phase = .fading(then: .pause, framesLeft: fadeFrames)
                shared.pauses.add(1, ordering: .releasing)
            }
        case .resume:
            if phase == .paused || isFadingTo(.pause) {
                withRunner { $0.processAction(.setMasterGain(to: 0, overFrames: Int64(fadeFrames))) }
                phase = .playing
                shared.state.store(PlayerShared.State.playing.rawValue, ordering: .releasing)
                shared.resumes.add(1, ordering: .releasing)
            }
        case .quit:
            switch phase {
            case .paused: drain(.stopped)
            case .draining: break
            case .fading(then: .quit, _): break  // asked again: the first fade ends it
            default:
                withRunner { $0.processAction(.setMasterGain(to: .silence, overFrames: Int64(fadeFrames))) }
                phase = .fading(then: .quit, framesLeft: fadeFrames)
            }
        }
        // A seek: swap runners (after a short fade while playing; at once while paused).
        if shared.pending.load(ordering: .acquiring) != 0 && shared.retired.load(ordering: .acquiring) == 0 {
            switch phase {
            case .playing:
                withRunner { $0.processAction(.setMasterGain(to: .silence, overFrames: Int64(seekFadeFrames))) }
                phase = .fading(then: .swap, framesLeft: seekFadeFrames)
            case .paused:
                // Paused, the session's clock stands: the new runner starts where it was asked to.
                swapRunner(nextDeviceFrame: deviceFrame, running: false)
                withRunner { $0.processAction(.setMasterGain(to: .silence, overFrames: 0)) }
            default:
                break
            }
        }
    }

    func isFadingTo(_ action: FadeAction) -> Bool {
        if case .fading(let a, _) = phase { return a == action }
        return false
    }

    /// Takes the pending runner; the old one goes to `retired` for the control thread to free.
    /// While `running`, the new runner first skips the frames the device has played since
    /// the seek was asked (its next frame is `nextDeviceFrame`), within `maximumCatchUp`.
    mutating func swapRunner(nextDeviceFrame: Int64, running: Bool) {
        let bits = shared.pending.exchange(0, ordering: .acquiringAndReleasing)
        guard let next = RunnerSlot.borrow(bits) else { return }
        let old = shared.slot.exchange(bits, ordering: .acquiringAndReleasing)
        shared.retired.store(old, ordering: .releasing)
        slot = next
        runnerReference = Unmanaged.passUnretained(next.takeUnretainedValue().runner)
        base = next.takeUnretainedValue().base
        held = nil
        if running, let asked = next.takeUnretainedValue().requestedAt {
            let behind = min(Self.maximumCatchUp, max(0, nextDeviceFrame - asked))
            if behind > 0 { withRunner { $0.processSkip(Int(behind), scratch: scratch) } }
        }
        shared.seeks.add(1, ordering: .releasing)
    }

    /// The timeline position the listener hears with `delay` frames queued in the device:
    /// playing, the next frame less the delay; paused, the pause point (the queued frames
    /// are the fade's tail and silence); after a resume, the pause point until the sound
    /// heard passes it.
    mutating func heardPosition(delay: Int) -> FrameTime {
        let next = absolutePosition
        if phase == .paused {
            held = next
            return next
        }
        let heard = max(0, next - FrameTime(delay))
        if let held, heard < held { return held }
        held = nil
        return heard
    }
}
