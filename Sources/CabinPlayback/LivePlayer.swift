import CabinAudio
import CabinHaptics
import CabinIO
import CabinOutput
import CabinSession
import Glibc
import Synchronization

/// Plays a compiled session live on an ALSA device, from a dedicated render thread, with
/// transport controls and events for a terminal UI or an embedding app.
///
/// The render thread (SCHED_FIFO when allowed) waits in `poll` on the device and an
/// eventfd, renders one period per wake-up and writes it; underruns are recovered, counted,
/// and the timeline skips the lost time so the session stays on the wall clock and ends on
/// time. If the device goes away (a sound server dies) the player reports it, retries with
/// backoff for `reconnectTimeout`, and resumes where the session clock stands.
///
/// ```swift
/// let player = try LivePlayer(session: compiled, options: .init(device: "default"))
/// try player.start()
/// for await event in player.events { print(event) }
/// ```
///
/// Thread: any thread. Every control call (transport, volumes, parameters, live events,
/// `poll`, `status`) takes the player's control lock, which the render thread never takes,
/// so calls from several threads or tasks are serialised and never reach the render thread
/// as a race; the waits (`waitUntilStarted`, `waitUntilFinished`, `events`) sleep without
/// holding it. A live event's `perform` runs inside `trigger`, holding the lock, and may call
/// the player again.
public final class LivePlayer: @unchecked Sendable {
    // @unchecked Sendable: the control side's state is read and written only under
    // `control`; what the render thread shares is atomics (`PlayerShared`).
    /// The session's live streams (connected by a live load; see `SessionLoader.Loaded.radio`):
    /// their events come through `poll()` and their state in `status.radio`.
    public var radio: (any SessionRadio)? {
        get { control.withLock { radioStorage } }
        set { control.withLock { radioStorage = newValue } }
    }
    private var radioStorage: (any SessionRadio)?
    /// The session's sounds still decoding while it plays (a progressive load's
    /// `SessionLoader.Loaded.decoding`; `takeFailures()` for a file found broken mid-decode):
    /// set by `LivePlayer.open` before the player is returned, read-only after.
    public internal(set) var decoding: SoundDecoding = .done
    /// Serialises the control side (see the type's Thread note). Recursive: a live event's
    /// `perform` calls the player that triggers it.
    package let control = RecursiveLock()
    /// Whether `start` has been called (a second call is an error).
    private var hasStarted = false
    /// How a player opens its device and plays: the device, the format asked of it, the
    /// render thread's scheduling, the transport's fades, the haptics device.
    public struct Options: Sendable {
        /// The sound device, as `OutputRegistry.standard` reads it: `default`, an ALSA name
        /// (`hw:1`, `alsa:NAME`), `pipewire[:TARGET]`, or `none` (the silent clock). Given as it
        /// is to `backend` when that is set.
        public var device: String
        /// The format, period and buffer sizes asked of the device.
        public var configuration: OutputConfiguration
        /// Ask for SCHED_FIFO (playing on without it if refused, with a `started` note).
        public var realtime = true
        /// The SCHED_FIFO priority asked for when `realtime` is true (1…99; 70 by default).
        public var realtimePriority: Int32 = 70
        /// Fade used by pause, resume, seek and quit.
        public var transportFade = 0.2
        /// How long to keep retrying a lost device before giving up.
        public var reconnectTimeout = 30.0
        /// Let the latency follow what the session needs while it plays (`LatencyNeed`):
        /// `OutputLatency.low` while something needs it, `.relaxed` once nothing does. It
        /// starts at `configuration`'s latency (open the device at what the start needs: a
        /// push device opened at low keeps its small buffer) and needs a named one
        /// (`configuration.latency`). `cabin play --latency auto` sets it.
        public var automaticLatency = false
        /// With `automaticLatency`: how long, in seconds, the latency stays low after the last
        /// interaction (`LivePlayer.noteInteraction()`: a key, `cabin ctl`, MPRIS).
        public var interactionHold = 10.0
        /// Where on the session's timeline playback starts, in seconds (clamped to it).
        public var startTime = 0.0
        /// For benchmarks: run the same poll/write loop but write silence, never mixing the
        /// session (it does not advance or end). Its CPU is the loop's own floor — the
        /// kernel's wake-ups and the ALSA calls — against which mixing is measured.
        public var rendersSilence = false
        /// Opens devices and keeps time. nil (the default): the backend `device`'s scheme names
        /// in `OutputRegistry.standard` (a bare name or `alsa:NAME` ALSA, `none` the silent
        /// clock); set it to play on another (a test's `FakeAudioBackend`), and `device` is then
        /// given to it as it is.
        public var backend: (any AudioOutputBackend)?
        /// A 4-channel device whose channels 3–4 play the session's haptic track, frame for
        /// frame with the session (a DualSense's USB audio; `cabin play --haptics-device`).
        public var hapticsDevice: String?
        /// How the haptic track is rendered for `hapticsDevice` (as `cabin render --haptics`).
        public var hapticAudio = HapticAudioOptions()
        /// Opens `hapticsDevice` (nil: `backend`). With no sound device (`backend` the
        /// `SilentClockBackend`, `-D none`) the haptics device is still a real one: `cabin
        /// play` keeps ALSA here, and the session is then paced by the haptics device's clock.
        public var hapticsBackend: (any AudioOutputBackend)?
        /// What `LivePlayer.open` does when `device` is `"default"` on ALSA and the machine has
        /// no sound device at all (no sound card, no sound server): play on the system clock
        /// with everything but the sound (`SilentClockBackend`), as `cabin play` does and as
        /// mpv's "no sound" mode does, or fail with the device's error.
        public var whenNoSoundDevice: NoSoundDevice = .playSilently
        /// Why the session plays with no sound (the `started` event's `silentReason`): set by
        /// `playSilently(because:)`, which `LivePlayer.open` calls when it falls back.
        public private(set) var silentReason: String?

        /// See `whenNoSoundDevice`.
        public enum NoSoundDevice: Sendable, Equatable {
            /// Play on the system clock with no sound (`playSilently(because:)`).
            case playSilently
            /// Fail with the device's error.
            case fail
        }

        /// Options for `device` with `configuration`; every other option at its default.
        public init(device: String = "default", configuration: OutputConfiguration = OutputConfiguration()) {
            self.device = device
            self.configuration = configuration
        }

        /// The backend that opens `hapticsDevice` and the name it is given: `hapticsBackend`,
        /// else `backend` (the one sound played on before `playSilently`, when sound is
        /// silent), else the one its scheme names in `OutputRegistry.standard`. It does not
        /// matter whether `hapticsDevice` is set before or after `playSilently`.
        public var resolvedHaptics: (backend: any AudioOutputBackend, device: String)? {
            guard let hapticsDevice else { return nil }
            // The silent clock plays no device: the haptics device keeps the backend sound
            // had before `playSilently` replaced it, whichever was set first.
            let soundBackend = backend is SilentClockBackend ? backendBeforeSilence : backend
            if let chosen = hapticsBackend ?? soundBackend { return (chosen, hapticsDevice) }
            let resolved = OutputRegistry.standard.resolve(hapticsDevice)
            return (resolved.entry.make(), resolved.device)
        }

        /// The backend that plays `device`, and the name it is given (the scheme removed): the
        /// one `pinOutput()` kept, else resolved now (a new backend each time: pin it before
        /// opening with a backend that keeps state). `default` is PipeWire's default sink when
        /// its daemon answers, else ALSA's (`OutputRegistry.resolveChoosingDefault`).
        public var resolvedOutput: (backend: any AudioOutputBackend, device: String, scheme: String?) {
            if let pinned { return pinned }
            if let backend { return (backend, device, nil) }
            let resolved = OutputRegistry.standard.resolveChoosingDefault(device)
            return (resolved.entry.make(), resolved.device, resolved.entry.scheme)
        }

        /// Resolves `device` once and keeps that backend for every later read (the open, the
        /// player, its reconnections). The default's choice is made here, and `device` then
        /// names it (`pipewire`), as the `started` event says.
        public mutating func pinOutput() {
            guard pinned == nil else { return }
            if let backend {
                pinned = (backend, device, nil)
                return
            }
            let resolved = OutputRegistry.standard.resolveChoosingDefault(device)
            device = resolved.spec
            pinned = (resolved.entry.make(), resolved.device, resolved.entry.scheme)
        }
        private var pinned: (backend: any AudioOutputBackend, device: String, scheme: String?)?
        /// The backend `playSilently` replaced (nil: the registry's), which a haptics device
        /// set before or after it still opens on.
        private var backendBeforeSilence: (any AudioOutputBackend)?

        /// Plays on the system clock with no sound (`SilentClockBackend`), saying `reason` in
        /// the `started` event. A haptics device still plays, on the backend sound would have
        /// used, and then paces the session.
        public mutating func playSilently(because reason: String) {
            if !(backend is SilentClockBackend) { backendBeforeSilence = backend }
            device = SilentClockBackend.device
            backend = SilentClockBackend()
            pinned = nil
            silentReason = reason
        }
    }

    /// The session this player plays (a seek swaps its runner, never the session).
    public let session: CompiledSession
    /// The options the player was made with; from `LivePlayer.open`, as it settled them (the
    /// output pinned, `silentReason` set when it fell back to the silent clock).
    public let options: Options
    let shared: PlayerShared
    let wakeup: EventFD
    /// The device as opened; the render thread takes it over (and replaces it if the
    /// device is lost), so the control side reads only `negotiated`.
    let opened: OpenedOutput
    /// What opens the device and keeps time (`Options.resolvedOutput`), and the device's
    /// name as that backend takes it.
    let backend: any AudioOutputBackend
    let deviceName: String
    /// What the device agreed to when opened (for status and events).
    public let negotiated: OutputFormat
    /// The haptics device (`Options.hapticsDevice`), opened with the player.
    let hapticsOutput: HapticsDeviceOutput?
    private var thread: RealtimeThread?
    /// The runner the control side last handed over, and its timeline offset.
    var currentSlot: RunnerSlot
    var monitorState = PlayerMonitor()
    private var userParameters: [String: Double] = [:]
    /// The listener's volumes (see `LivePlayer+Control`): master, per bus, mute.
    var volumes = PlayerVolumes()
    /// Live events by name (`trigger`), registered by whoever knows how to perform them.
    var liveEvents: [String: LiveEvent] = [:]
    /// What switches radio stations, when the session has a radio (`nextStation`).
    public var stations: (any StationSwitching)? {
        get { control.withLock { stationsStorage } }
        set { control.withLock { stationsStorage = newValue } }
    }
    private var stationsStorage: (any StationSwitching)?
    /// Events the control side made (a trigger, a volume change), for the next `poll`.
    var controlEvents: [PlayerEvent] = []
    /// The parameter's value when focus was left (`return-focus` goes back to it).
    var focusReturnValue: Double?
    /// Haptic cues the live events made (see `LivePlayer+Focus`).
    var liveHaptics: [TriggeredHaptic] = []
    /// The last seek: its target (timeline frame), the device frame clock it was asked at,
    /// and the render thread's seek count then (while it is unchanged, the seek has not
    /// happened: `seek(by:)` and `status` go from the target).
    var lastSeek: (target: FrameTime, clock: Int64, seeks: Int)?
    /// The automatic latency's last interaction and choice (see `LivePlayer+Latency`).
    var latencyChoice: LatencyChoice
    /// The needs declared (`setLatencyNeed`), one bit per `LatencyNeed` case: any thread.
    let declaredNeeds = Atomic<Int>(0)

    /// Opens the device now, so a missing or busy device fails here with a clear error.
    public convenience init(session: CompiledSession, options: Options) throws(AudioDeviceError) {
        var options = options
        options.pinOutput()
        var configuration = options.configuration
        configuration.sampleRate = Int(session.sampleRate)
        let resolved = options.resolvedOutput
        let output = try resolved.backend.open(device: resolved.device, configuration: configuration)
        try self.init(session: session, options: options, opened: output)
    }

    /// Plays on a push device already opened (see `init(session:options:opened:)`).
    public convenience init(session: CompiledSession, options: Options, output: any AudioOutput) throws(AudioDeviceError) {
        try self.init(session: session, options: options, opened: .push(output))
    }

    /// Plays on a device already opened (non-blocking, by `options.backend`) — open it first
    /// to learn its rate, then load the session at that rate, so assets are resampled once at
    /// load and never by the device (`LivePlayer.open` does both). The session's rate must be
    /// the device's.
    public init(session: CompiledSession, options: Options, opened output: OpenedOutput) throws(AudioDeviceError) {
        guard output.negotiated.sampleRate == Int(session.sampleRate) else {
            throw AudioDeviceError(.unsupportedConfiguration, device: output.device, operation: "sample rate",
                                   code: EINVAL, detail: "the device plays at \(output.negotiated.sampleRate) Hz, the session was loaded at \(Int(session.sampleRate)) Hz")
        }
        let resolved = options.resolvedOutput
        backend = resolved.backend
        deviceName = resolved.device
        self.session = session
        self.options = options
        do { shared = try PlayerShared(session) } catch {
            output.close()
            throw AudioDeviceError(.failed, device: options.device, operation: "eventfd", code: error.code, detail: error.reason)
        }
        negotiated = output.negotiated
        if let haptics = options.resolvedHaptics {
            do {
                hapticsOutput = try HapticsDeviceOutput(device: haptics.device, session: session, options: options.hapticAudio,
                                                        like: output.negotiated, backend: haptics.backend)
            } catch {
                output.close()
                throw error
            }
        } else {
            hapticsOutput = nil
        }
        // No sound device, a real haptics device: the session keeps the haptics device's time.
        if case .push(let silent) = output, !silent.playsSound, let haptics = hapticsOutput, haptics.output.playsSound {
            opened = .push(HapticsPacedOutput(silent: silent, haptics: haptics.output))
        } else {
            opened = output
        }
        do { wakeup = try EventFD() } catch {
            throw AudioDeviceError(.failed, device: options.device, operation: "eventfd", code: error.code, detail: error.reason)
        }
        latencyChoice = LatencyChoice(automatic: options.automaticLatency && options.configuration.latency != nil,
                                      asked: options.configuration.latency)
        currentSlot = LivePlayer.slot(session, at: options.startTime)
        monitorState.lastPosition = currentSlot.base  // marks before the start are not news
        shared.slot.store(currentSlot.retainedBits(), ordering: .releasing)
        registerFocusEvents()
        shared.latency.store(Self.latencyCode(options.configuration.latency), ordering: .releasing)
    }

    deinit {
        stopNow()
        RunnerSlot.release(shared.slot.exchange(0, ordering: .acquiringAndReleasing))
        RunnerSlot.release(shared.pending.exchange(0, ordering: .acquiringAndReleasing))
        RunnerSlot.release(shared.retired.exchange(0, ordering: .acquiringAndReleasing))
    }

    /// Starts the render thread. A player plays once: a second `start`, or one after
    /// `stopNow`, throws (`PlayerStartError`) and changes nothing.
    public func start() throws(PlayerStartError) {
        try control.withLock { () throws(PlayerStartError) in
            guard !hasStarted else { throw isFinished ? .ended : .alreadyStarted }
            guard !shared.stopRequested.load(ordering: .acquiring) else { throw .ended }
            let thread = RealtimeThread(name: "cabin-audio", priority: options.realtimePriority) { [unowned self] scheduling in
                self.renderThreadMain(scheduling: options.realtime ? scheduling : .normal(reason: "--no-realtime"))
            }
            // What the start needs (a haptics device) is asked for before the first block.
            followNeeds()
            do throws(SystemError) { try thread.start() } catch { throw .thread(error) }
            hasStarted = true
            self.thread = thread
        }
    }

    /// Blocks until the device is playing (or playback ended), at most `timeout` seconds,
    /// so a caller can announce the start the moment audio begins. True if it started.
    /// Sleeps (no polling) and holds no lock: any thread.
    @discardableResult
    public func waitUntilStarted(timeout: Double = 5) -> Bool {
        if !shared.started.load(ordering: .acquiring) && control.withLock({ hasStarted }) {
            let milliseconds = timeout.isFinite ? Int32(min(max(0, timeout * 1000), Double(Int32.max))) : -1
            _ = EventFD.waitReadable(shared.startedSignal.descriptor, timeoutMilliseconds: milliseconds)
        }
        return shared.started.load(ordering: .acquiring)
    }

    /// The haptics device's frames dropped (it could not take them) and whether it failed
    /// (the session plays on without it); nil without `Options.hapticsDevice`.
    public var hapticsDeviceState: (droppedFrames: Int64, failed: Bool)? {
        hapticsOutput.map { ($0.dropped.load(ordering: .acquiring), $0.failed.load(ordering: .acquiring)) }
    }

    /// A descriptor readable once playback has ended (it stays readable): a control loop
    /// waiting on its own descriptors adds it to wake at the end, not at its next turn.
    package var finishedDescriptor: Int32 { shared.finishedSignal.descriptor }

    /// Whether playback has ended (finished, stopped or failed).
    public var isFinished: Bool { shared.state.load(ordering: .acquiring) >= PlayerShared.State.finished.rawValue }

    /// Each bus's peak level since the last call, in dBFS (−∞ for silence), by bus name in
    /// the session's order. For level meters.
    public func takeBusPeaks() -> [(bus: String, level: Double)] {
        let handle = control.withLock { currentSlot.runner.handle }
        return zip(handle.busNames, handle.takeBusPeaks()).map { ($0, $1.value) }
    }

    /// CPU seconds the render thread used, once playback has ended.
    public var renderThreadCPUSeconds: Double { Double(shared.renderCPUNanoseconds.load(ordering: .acquiring)) / 1e9 }

    /// Blocks until playback has ended (at once if it never started). Sleeps without
    /// holding the control lock, so another thread may pause or stop meanwhile; any number
    /// of threads may wait.
    public func waitUntilFinished() {
        guard control.withLock({ hasStarted }) else { return }
        _ = EventFD.waitReadable(shared.finishedSignal.descriptor, timeoutMilliseconds: -1)
        joinRenderThread()
    }

    /// Joins the ended render thread (once; under the lock, so two callers never both join).
    private func joinRenderThread() {
        control.withLock {
            thread?.join()
            thread = nil
        }
    }

    /// Fades out and pauses the session clock ("pull over"); `resume` fades back in.
    public func pause() { request(.pause) }
    /// Fades back in from a pause (or a pause still fading out), the session clock going on
    /// from where it stood; nothing when not pausing.
    public func resume() { request(.resume) }
    /// Resumes when `isPaused`, else pauses (a space bar's action).
    public func togglePause() { control.withLock { request(isPaused ? .resume : .pause) } }
    /// Whether the session is paused: true once a pause's fade has ended, false again when a
    /// resume is taken by the render thread.
    public var isPaused: Bool { shared.state.load(ordering: .acquiring) == PlayerShared.State.paused.rawValue }

    /// Fades out (over `transportFade`) and ends playback with reason `stopped`. Asking
    /// again while the fade runs changes nothing: the session ends when the first fade does.
    public func stop() { request(.quit) }

    /// Ends at once, no fade (a second Ctrl-C). Blocks until the render thread has ended.
    public func stopNow() {
        shared.stopRequested.store(true, ordering: .releasing)
        wakeup.signal()
        if control.withLock({ hasStarted }) {
            _ = EventFD.waitReadable(shared.finishedSignal.descriptor, timeoutMilliseconds: -1)
        }
        joinRenderThread()
    }

    /// Moves to `seconds` on the session's timeline (clamped to it), heard from now: the
    /// listener hears `seconds` plus the time since this call (the seek's fade and the
    /// output latency are not lost), so the session still ends on time. With `keepingTime`
    /// false the new place is heard from its first frame instead, after the fade (a loop's
    /// return to its start: `PlaybackRange`).
    public func seek(to seconds: Double, keepingTime: Bool = true) {
        control.withLock { seekLocked(to: seconds, keepingTime: keepingTime) }
    }

    private func seekLocked(to seconds: Double, keepingTime: Bool) {
        let (heard, clock) = heardNow()
        let target = frame(seconds)
        seek(toFrame: target, askedAt: keepingTime ? clock : nil, movedBy: Double(target - heard) / session.sampleRate)
    }

    /// Moves by `seconds` (negative: back) from where the listener is, or from where the
    /// last seek goes while it has not happened yet: five presses of → move 5 × 30 s, not
    /// 30 s five times over; +30 then −30 returns to the same moment. A move of 0 is nothing.
    public func seek(by seconds: Double) {
        guard seconds != 0 else { return }
        control.withLock {
            let (from, clock) = outstandingSeek ?? heardNow()
            let target = frame(Double(from) / session.sampleRate + seconds)
            seek(toFrame: target, askedAt: clock, movedBy: Double(target - from) / session.sampleRate)
        }
    }

    /// The timeline frame of `seconds`, clamped to the session.
    private func frame(_ seconds: Double) -> FrameTime { Self.frame(seconds, in: session) }

    /// The frame of `seconds` on `session`'s timeline, clamped to it.
    private static func frame(_ seconds: Double, in session: CompiledSession) -> FrameTime {
        FrameTime((min(max(0, seconds), session.duration) * session.sampleRate).rounded())
    }

    private func seek(toFrame target: FrameTime, askedAt clock: Int64?, movedBy moved: Double) {
        // A playlist on the radio moves with the timeline, within its track.
        radio?.timelineMoved(by: moved)
        // The new runner's layers fade in over 50 ms from where it is heard: it first skips
        // what the device plays until the swap (about the seek's fade, a period and the
        // output latency), so its fade-in is that much longer.
        let skipped = clock == nil ? 0
            : Double(PlaybackTransport.seekFadeFrames(rate: session.sampleRate) + shared.delayFrames.load(ordering: .relaxed)
                     + periodPlaying) / session.sampleRate
        let slot = RunnerSlot(runner: SessionRunner(session.starting(at: target, fadeIn: 0.05 + skipped)), base: target,
                              requestedAt: clock)
        for (name, value) in userParameters { setParameter(name, to: value, on: slot) }
        applyVolumes(on: slot.runner.handle)
        // The count before the swap can happen: once it changes, the seek has happened.
        lastSeek = (target, clock ?? heardNow().clock, shared.seeks.load(ordering: .acquiring))
        RunnerSlot.release(shared.pending.exchange(slot.retainedBits(), ordering: .acquiringAndReleasing))
        currentSlot = slot
        wakeup.signal()
    }

    /// The last seek's target and clock while it has not happened yet.
    var outstandingSeek: (FrameTime, Int64)? {
        guard let last = lastSeek, shared.seeks.load(ordering: .acquiring) == last.seeks else { return nil }
        return (last.target, last.clock)
    }

    /// The position heard now and the device frame clock it is heard at, a consistent pair
    /// (read under the render thread's sequence lock).
    func heardNow() -> (position: FrameTime, clock: Int64) {
        while true {
            let before = shared.heardSequence.load(ordering: .acquiring)
            let clock = shared.heardClock.load(ordering: .acquiring)
            let position = shared.position.load(ordering: .acquiring)
            if before & 1 == 0 && shared.heardSequence.load(ordering: .acquiring) == before { return (position, clock) }
        }
    }

    /// A runner for `session` from `seconds` on (clamped to the timeline).
    private static func slot(_ session: CompiledSession, at seconds: Double) -> RunnerSlot {
        let frame = frame(seconds, in: session)
        return RunnerSlot(runner: SessionRunner(frame == 0 ? session : session.starting(at: frame)), base: frame)
    }

    /// Sets a live parameter (e.g. `speed`) to `value`, clamped to its range; the engine
    /// ramps to it. Timeline `set` cues later in the session still apply.
    public func setParameter(_ name: String, to value: Double) {
        control.withLock {
            userParameters[name] = value
            setParameter(name, to: value, on: currentSlot)
        }
    }

    /// A live ramp of a parameter (kept for seeks at its end value), from mixer frame `at`.
    func rampParameter(_ name: String, _ id: ParameterID, to value: Double, overFrames: FrameTime, at: FrameTime) {
        userParameters[name] = value
        _ = currentSlot.runner.handle.send(.setParameter(id, to: value, overFrames: overFrames), at: at)
    }

    private func setParameter(_ name: String, to value: Double, on slot: RunnerSlot) {
        guard let id = session.config.parameter(named: name) else { return }
        slot.runner.handle.setParameter(id, to: value)
    }

    /// The parameter's value now: the last value set live, else what the timeline has
    /// reached.
    public func parameterValue(_ name: String) -> Double? {
        if let v = control.withLock({ userParameters[name] }) { return v }
        return session.parameterValue(name, at: positionFrames)
    }

    /// For tests of underrun recovery on a real device: makes the render thread stall once
    /// for `milliseconds` (as a preempted or overloaded thread would). (On a fake output,
    /// `VirtualClock.stall` does the same on virtual time.)
    package func injectStall(milliseconds: Int) {
        shared.stallMilliseconds.store(milliseconds, ordering: .releasing)
        wakeup.signal()
    }

    func request(_ transport: PlayerShared.Transport) {
        shared.transport.store(transport.rawValue, ordering: .releasing)
        wakeup.signal()
    }
}
