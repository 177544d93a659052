import CabinOutput

/// Something that needs the output's latency small while it lasts. With automatic latency
/// (`LivePlayer.Options.automaticLatency`) the player plays at `OutputLatency.low` while
/// any need is present and at `.relaxed` (a bed left on wakes the CPU rarely) once none is.
///
/// Thread: a value type; any thread.
public enum LatencyNeed: String, Sendable, CaseIterable, Comparable {
    /// Haptics on a device beside the sound (`Options.hapticsDevice`), while it plays. The
    /// player knows it itself.
    case hapticsDevice = "haptics-device"
    /// A rumble device following what is heard (`SessionRumble`, which says so while it runs).
    case rumble
    /// A range's end or loop is near (`PlaybackRange`, within `PlaybackRange.nearEnd`
    /// seconds): it is acted on as it is heard.
    case rangeEnd = "range-end"
    /// Someone at the controls: a key, `cabin ctl`, MPRIS or an app's own control, within
    /// `Options.interactionHold` seconds of the last (`LivePlayer.noteInteraction()`).
    case interaction
    /// The app's own reason (`LivePlayer.setLatencyNeed(.app, true)`): a designer's preview,
    /// a game-like moment.
    case app

    /// The needs that come and go within a session (an interaction, a range's end). On a
    /// pull device automatic latency does not follow them: PipeWire (0.3.65) drops part of a
    /// buffer when its quantum shrinks (up to the old quantum less the new, 37 ms from
    /// relaxed to low), a skip in the sound each time, where its relaxed quantum (2,048
    /// frames, 43 ms) already answers quickly.
    public static let transient: Set<LatencyNeed> = [.interaction, .rangeEnd]

    public static func < (a: LatencyNeed, b: LatencyNeed) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The automatic latency's bookkeeping: whether it is on, the needs declared, the last
/// interaction, and the latency last asked of the render thread. Pure: the player gives it
/// the time.
///
/// Thread: a value type (the player keeps it under its control lock).
struct LatencyChoice {
    /// Whether the latency follows the needs (off once a latency is set by hand).
    var automatic: Bool
    /// When the last interaction was noted, on the player's clock (seconds).
    var lastInteraction: Double?
    /// The latency last asked of the render thread (or opened with).
    var asked: OutputLatency?

    /// The needs present at `now`: the `declared` ones, `interaction` within `hold` seconds
    /// of the last, and `hapticsDevice` while one plays.
    func needs(declared: Set<LatencyNeed>, now: Double, hold: Double, hapticsDevicePlaying: Bool) -> Set<LatencyNeed> {
        var needs = declared
        if let last = lastInteraction, now - last < hold { needs.insert(.interaction) }
        if hapticsDevicePlaying { needs.insert(.hapticsDevice) }
        return needs
    }

    /// The latency the needs ask for: low while any is present, relaxed otherwise — and low
    /// whatever they say when `relaxedReachable` is false (a push device opened low keeps
    /// its small buffer: it cannot grow while playing).
    static func wanted(needs: Set<LatencyNeed>, relaxedReachable: Bool) -> OutputLatency {
        needs.isEmpty && relaxedReachable ? .relaxed : .low
    }
}

extension LivePlayer {
    static func latencyCode(_ latency: OutputLatency?) -> Int {
        switch latency {
        case .some(.low): 1
        case .some(.relaxed): 2
        case .none: 0
        }
    }

    static func latency(code: Int) -> OutputLatency? {
        switch code {
        case 1: .low
        case 2: .relaxed
        default: nil
        }
    }

    /// The latency playing now: the one the device was opened for
    /// (`OutputConfiguration.latency`), or the last change the render thread has taken (by
    /// `setLatency`, or by the needs when the latency is automatic); nil when the period was
    /// given in frames.
    public var latency: OutputLatency? { Self.latency(code: shared.latency.load(ordering: .acquiring)) }

    /// Whether the latency follows the session's needs (`Options.automaticLatency`, or
    /// `setAutomaticLatency()`), until a latency is set by hand.
    public var latencyIsAutomatic: Bool { control.withLock { latencyChoice.automatic } }

    /// What needs a small latency now (empty: nothing; see `LatencyNeed`), whether or not
    /// the latency is automatic.
    public var latencyNeeds: Set<LatencyNeed> { control.withLock { currentNeeds() } }

    /// Changes the latency while playing, without reopening the device, and keeps it there
    /// (the latency stops following the needs until `setAutomaticLatency()`). On a push
    /// device (ALSA, the silent clock) the render thread renders smaller blocks and keeps
    /// less queued for `low`, from its next block, the sound untouched; a buffer opened at
    /// `low` cannot grow, so `relaxed` there keeps the low period and buffer. On PipeWire the
    /// stream asks the graph for the latency's period (`node.latency`); going up is seamless,
    /// but the cycle where the graph's quantum shrinks plays only part of the buffer rendered
    /// before, so the sound skips ahead once (at most the old quantum less the new: 37 ms
    /// from relaxed to low). The `latency` event says what it became.
    ///
    /// Throws when the period was given in frames (`OutputConfiguration.latency` nil: there
    /// is no named latency to move from), and on a device whose callbacks keep their own
    /// block size (callback mode).
    public func setLatency(_ latency: OutputLatency) throws(PlayerControlError) {
        try control.withLock { () throws(PlayerControlError) in
            try checkLatencyChanges()
            latencyChoice.automatic = false
            ask(latency)
        }
    }

    /// Lets the latency follow the session's needs again (`LatencyNeed`): low while any is
    /// present, relaxed once none is (on a push device opened at low, low). Chooses at once.
    /// Throws as `setLatency` does.
    public func setAutomaticLatency() throws(PlayerControlError) {
        try control.withLock { () throws(PlayerControlError) in
            try checkLatencyChanges()
            latencyChoice.automatic = true
            followNeeds()
        }
    }

    /// Declares (`present` true) or withdraws a need for a small latency; with automatic
    /// latency the player follows at once. `interaction` is noted with `noteInteraction()`
    /// instead (it lasts `Options.interactionHold` seconds); `hapticsDevice` is the player's
    /// own and is ignored here.
    public func setLatencyNeed(_ need: LatencyNeed, _ present: Bool) {
        guard need != .hapticsDevice else { return }
        control.withLock {
            if need == .interaction {
                latencyChoice.lastInteraction = present ? backend.now() : nil
            } else {
                markLatencyNeed(need, present)
            }
            followNeeds()
        }
    }

    /// Declares or withdraws `need` without the control lock (a thread that must not wait
    /// for it: the rumble thread, which the control side joins); the next `poll` follows.
    func markLatencyNeed(_ need: LatencyNeed, _ present: Bool) {
        let bit = 1 << LatencyNeed.allCases.firstIndex(of: need)!
        if present { declaredNeeds.bitwiseOr(bit, ordering: .releasing) } else { declaredNeeds.bitwiseAnd(~bit, ordering: .releasing) }
    }

    /// Someone is at the controls (a key, `cabin ctl`, MPRIS, an app's button): with
    /// automatic latency the session plays at low latency until `Options.interactionHold`
    /// seconds after the last such call, so what follows answers quickly. The player's own
    /// calls (a range's loop, a sleep timer's fade) are not interactions; surfaces call this.
    public func noteInteraction() { setLatencyNeed(.interaction, true) }

    /// With automatic latency, asks the render thread for what the needs want, if that is
    /// not what it was last asked. The control side calls it on every need change and every
    /// `poll` (an interaction's hold ends on the clock). Under the control lock.
    func followNeeds() {
        guard latencyChoice.automatic, latencyCanChange else { return }
        var needs = currentNeeds()
        // A pull device's smaller period costs a skip in the sound (see `LatencyNeed.transient`).
        if case .pull = opened { needs.subtract(LatencyNeed.transient) }
        let wanted = LatencyChoice.wanted(needs: needs, relaxedReachable: relaxedReachable)
        if wanted != latencyChoice.asked { ask(wanted) }
    }

    /// The needs present now. Under the control lock.
    func currentNeeds() -> Set<LatencyNeed> {
        let hapticsPlaying = hapticsOutput.map { !$0.failed.load(ordering: .relaxed) } ?? false
        let bits = declaredNeeds.load(ordering: .acquiring)
        let declared = Set(LatencyNeed.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element))
        return latencyChoice.needs(declared: declared, now: backend.now(), hold: options.interactionHold,
                                   hapticsDevicePlaying: hapticsPlaying)
    }

    /// Whether the latency can change while playing: a named latency was opened, on a push
    /// device or one whose callbacks take a new period.
    var latencyCanChange: Bool {
        guard options.configuration.latency != nil else { return false }
        if case .pull(let output) = opened { return output.changesPeriodWhilePlaying }
        return true
    }

    /// Whether `relaxed` gives a relaxed buffer: a push device opened at low keeps its small one.
    private var relaxedReachable: Bool {
        if case .push = opened { return options.configuration.latency == .relaxed }
        return true
    }

    private func checkLatencyChanges() throws(PlayerControlError) {
        guard options.configuration.latency != nil else {
            throw PlayerControlError("the period was given in frames (\(negotiated.periodFrames)): the latency cannot change while playing")
        }
        guard latencyCanChange else {
            throw PlayerControlError("\(options.device): its callbacks keep the block size the app chose: the latency cannot change while playing")
        }
    }

    /// Hands `latency` to the render thread (it takes it from its next block or wake-up).
    private func ask(_ latency: OutputLatency) {
        latencyChoice.asked = latency
        shared.latencyRequest.store(Self.latencyCode(latency), ordering: .releasing)
        wakeup.signal()
    }
}
