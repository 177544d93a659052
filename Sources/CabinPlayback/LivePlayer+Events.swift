import CabinAudio
import CabinIO
import CabinOutput
import CabinSession

/// A snapshot of playback for a status line.
public struct PlayerStatus: Sendable, Equatable {
    /// Where playback stands; the raw value is the case's name.
    public enum State: String, Sendable {
        /// Made or started, the device not yet playing.
        case starting
        /// The session is heard (a transport fade included).
        case playing
        /// A pause's fade has ended; the session clock stands.
        case paused
        /// The device was lost; the player retries it (`LivePlayer.Options.reconnectTimeout`),
        /// and `deviceProblem` says why.
        case reconnecting
        /// The session played to its end.
        case finished
        /// Ended by `stop()` or `stopNow()`.
        case stopped
        /// Ended because the device was lost and not back within the reconnect timeout
        /// (`deviceProblem` says why).
        case failed
    }
    /// Where playback stands.
    public var state: State
    /// Seconds into the session that the listener hears now.
    public var position: Double
    /// The session's length, in seconds.
    public var duration: Double
    /// Seconds left until the session ends (`duration − position`, never negative).
    public var remaining: Double { max(0, duration - position) }
    /// The name of the last mark passed (`rest`: what hooks see).
    public var mark: String?
    /// The segment the session is in as people see it: the last mark's title (`rest stop`),
    /// or its name when it has none.
    public var segment: String?
    /// Underruns the device has had since playback started (each recovered, the lost time
    /// skipped: `lostSeconds`).
    public var xruns: Int
    /// Seconds skipped to stay on time after underruns.
    public var lostSeconds: Double
    /// Output latency: what is queued in the device (`snd_pcm_delay`) plus one period (the
    /// block rendered at a time now), in ms.
    public var latencyMilliseconds: Double
    /// The latency playing (`LivePlayer.latency`): nil when the period was given in frames.
    public var latency: OutputLatency? = nil
    /// Whether the latency follows the session's needs (`LivePlayer.latencyIsAutomatic`).
    public var latencyIsAutomatic = false
    /// What needs a small latency now (`LivePlayer.latencyNeeds`), in `LatencyNeed`'s order.
    public var latencyNeeds: [LatencyNeed] = []
    /// The last device error, while reconnecting.
    public var deviceProblem: String?
    /// The session's live streams: state, station name, title.
    public var radio: [RadioStatus] = []
}

extension LivePlayer {
    var positionFrames: FrameTime { shared.position.load(ordering: .acquiring) }

    /// Seconds into the session that the listener hears now.
    public var position: Double { Double(positionFrames) / session.sampleRate }

    /// Where the listener is as `status` shows it: while a seek has not happened yet, its
    /// target plus the time since it was asked (the new place at once, not the old one until
    /// the new one is heard); else the position heard.
    var shownPositionFrames: FrameTime {
        guard let (target, asked) = outstandingSeek else { return positionFrames }
        let elapsed = isPaused ? 0 : max(0, heardNow().clock - asked)
        return min(target + elapsed, session.durationFrames)
    }

    /// Frames per block now: a pull device's last callback size (what its graph asks for),
    /// else the period the render thread last published (a latency change moves it), else
    /// the one opened.
    var periodPlaying: Int {
        let block = shared.blockFrames.load(ordering: .relaxed)
        if block > 0 { return block }
        let now = shared.periodNow.load(ordering: .relaxed)
        return now > 0 ? now : negotiated.periodFrames
    }

    /// A snapshot of playback now: state, position (a pending seek's target at once),
    /// mark, underruns, latency, the radio's streams. Any thread (under the control lock).
    public var status: PlayerStatus { control.withLock { statusLocked } }

    private var statusLocked: PlayerStatus {
        let rawState = shared.state.load(ordering: .acquiring)
        let state: PlayerStatus.State = switch PlayerShared.State(rawValue: rawState) ?? .starting {
        case .starting: .starting
        case .playing: .playing
        case .paused: .paused
        case .reconnecting: .reconnecting
        case .finished: .finished
        case .stopped: .stopped
        case .failed: .failed
        }
        let delay = Double(shared.delayFrames.load(ordering: .relaxed))
        let period = Double(periodPlaying)
        let shown = shownPositionFrames
        return PlayerStatus(
            state: state, position: Double(shown) / session.sampleRate, duration: session.duration, mark: session.mark(at: shown),
            segment: session.segment(at: shown),
            xruns: shared.xruns.load(ordering: .relaxed),
            lostSeconds: Double(shared.lostFrames.load(ordering: .relaxed)) / session.sampleRate,
            latencyMilliseconds: (delay + period) / session.sampleRate * 1000,
            latency: latency,
            latencyIsAutomatic: latencyChoice.automatic,
            latencyNeeds: currentNeeds().sorted(),
            deviceProblem: state == .reconnecting || state == .failed ? shared.lastDeviceError.withLock { $0 } : nil,
            radio: radio?.status ?? [])
    }

    /// Events since the last call, in order; also frees runners retired by seeks.
    ///
    /// Any thread (under the control lock); call it a few times a second, or read `events`.
    public func poll() -> [PlayerEvent] {
        control.withLock {
            RunnerSlot.release(shared.retired.exchange(0, ordering: .acquiringAndReleasing))
            followNeeds()
            defer { controlEvents.removeAll() }
            return controlEvents + monitorEvents() + (radio?.poll().map(PlayerEvent.radio) ?? [])
        }
    }
}

/// Turns the shared counters into events (control side).
struct PlayerMonitor {
    var started = false
    var lastPosition: FrameTime = 0
    var xruns = 0
    var lostFrames: Int64 = 0
    var deviceErrors = 0
    var restores = 0
    var pauses = 0
    var resumes = 0
    var seeks = 0
    var latencyChanges = 0
    var ended = false
}

extension LivePlayer {
    func monitorEvents() -> [PlayerEvent] {
        var events: [PlayerEvent] = []
        var m = monitorState
        let rate = session.sampleRate
        if !m.started && shared.started.load(ordering: .acquiring) {
            m.started = true
            let scheduling = shared.scheduling.withLock { $0 }
            let n = negotiated
            let text: String, isRT: Bool
            switch scheduling {
            case .realtime(let p): (text, isRT) = ("SCHED_FIFO \(p)", true)
            case .normal(let why): (text, isRT) = ("normal (\(why))", false)
            }
            events.append(.started(PlaybackInfo(device: options.device, sampleRate: n.sampleRate, periodFrames: n.periodFrames,
                                                bufferFrames: n.bufferFrames, format: n.format, scheduling: text,
                                                isRealtime: isRT, silentReason: options.silentReason)))
        }
        let seeks = shared.seeks.load(ordering: .acquiring)
        let position = positionFrames
        if seeks != m.seeks {
            m.seeks = seeks
            // Where the seek went (the playing runner's start): a mark there is reached.
            let target = RunnerSlot.borrow(shared.slot.load(ordering: .acquiring))?.takeUnretainedValue().base ?? position
            events.append(.seeked(time: Double(target) / rate))
            m.lastPosition = target
        }
        for mark in session.marks where mark.frame >= m.lastPosition && mark.frame < position {
            events.append(.mark(name: mark.name, time: Double(mark.frame) / rate, title: mark.title))
        }
        if position > m.lastPosition { m.lastPosition = position }
        let xruns = shared.xruns.load(ordering: .acquiring)
        if xruns != m.xruns {
            let lost = shared.lostFrames.load(ordering: .acquiring)
            events.append(.xrun(count: xruns, time: Double(position) / rate, lostSeconds: Double(lost - m.lostFrames) / rate))
            m.xruns = xruns
            m.lostFrames = lost
        }
        let errors = shared.deviceErrors.load(ordering: .acquiring)
        if errors != m.deviceErrors {
            m.deviceErrors = errors
            events.append(.deviceError(shared.lastDeviceError.withLock { $0 }))
        }
        let restores = shared.restores.load(ordering: .acquiring)
        if restores != m.restores {
            m.restores = restores
            events.append(.deviceRestored(time: Double(position) / rate))
        }
        let latencyChanges = shared.latencyChanges.load(ordering: .acquiring)
        if latencyChanges != m.latencyChanges, let latency {
            m.latencyChanges = latencyChanges
            events.append(.latencyChanged(latency: latency, periodFrames: shared.periodNow.load(ordering: .relaxed),
                                          bufferFrames: shared.bufferNow.load(ordering: .relaxed)))
        }
        let pauses = shared.pauses.load(ordering: .acquiring), resumes = shared.resumes.load(ordering: .acquiring)
        if pauses != m.pauses { m.pauses = pauses; events.append(.paused(time: Double(position) / rate)) }
        if resumes != m.resumes { m.resumes = resumes; events.append(.resumed(time: Double(position) / rate)) }
        if !m.ended && isFinished {
            m.ended = true
            let reason: PlayerEvent.EndReason = switch PlayerShared.State(rawValue: shared.state.load(ordering: .acquiring)) {
            case .stopped: .stopped
            case .failed: .failed
            default: .finished
            }
            events.append(.ended(reason: reason, time: Double(positionFrames) / rate, xruns: xruns))
        }
        monitorState = m
        return events
    }
}
