import CabinAudio
import CabinIO
import CabinPlayback
import CabinRemote
import CabinSession
import FoundationEssentials
import Glibc

/// The control loop of `cabin play`: keys, Ctrl-C, events, status; returns the exit status.
struct PlaySession {
    let player: LivePlayer
    let view: PlayView
    let rumble: SessionRumble?
    /// Sounds still decoding in the background: a late failure is reported as a warning.
    let decoding: SoundDecoding
    /// The control socket, served from this loop (its clients act on the player here).
    let control: ControlServer?
    /// Every way in from outside (the control socket, MPRIS): each gets every poll's events.
    var surfaces: [any ControlSurface] = []
    /// `--stop-after` / `--fade-out`, `--on-mark` and `--then`.
    var timer: SleepTimer? = nil
    var hooks: MarkHooks? = nil
    var then: String? = nil
    /// The state file: the session's position (periodically and at the end) and volumes.
    var state: PlayStateKeeper? = nil
    /// `--to`/`--length` and `--loop`.
    var range = PlaybackRange()
    /// Events the player reported before it started (shown after the start line).
    var early: [PlayerEvent] = []
    /// `--exit-with-parent`: the process that started this one, watched; when it ends the
    /// session fades out and ends as with q.
    var parent: ParentProcess? = nil
    /// How long the loop waits for keys and clients when nothing comes. While the player
    /// plays at relaxed latency (`--latency`, or automatic latency with nothing needing it)
    /// the loop wakes once a second (every 100 ms while the terminal's meters are drawn)
    /// instead of every 50 ms, when nothing here must act on time (a range's end or loop, a
    /// sleep timer, a stop on its way): what it passes on between (marks, radio titles to
    /// `--json`, the state file) can wait that long. Keys, control clients, MPRIS's requests
    /// (`ControlSurface.wakeDescriptor`), the session's end and Ctrl-C (its signal ends the
    /// wait) wake it at once either way.
    func tick(range: PlaybackRange, timer: SleepTimer?, quitting: Bool) -> Int32 {
        guard player.latency == .relaxed, !quitting, !range.isActive, timer == nil else { return 50 }
        return view.mode == .terminal ? 100 : 1000
    }

    /// What the control loop keeps between its turns.
    private struct Turns {
        var timer: SleepTimer?
        var range: PlaybackRange
        /// Events from before the start, shown after the start line.
        var early: [PlayerEvent]
        let started = Date()
        var quitting = false
        /// Played to its end (not stopped).
        var finished = false
        var lastDraw = Date.distantPast
    }

    func run() throws -> Int32 {
        let terminal = TerminalInput()
        Interrupt.install()
        // Keys work in every mode (--json and --quiet too) when stdin is a terminal.
        terminal.enableRawMode()
        if view.mode == .terminal { TerminalInput.watchResizes() }
        defer { terminal.restore(); view.finish() }
        try player.start()
        player.waitUntilStarted()  // the start line the moment audio begins, not at the next poll
        rumble?.start()
        defer {
            rumble?.stop()
            if let failure = rumble?.failure { CLIOutput.warning("rumble stopped: \(failure)") }
        }
        var turns = Turns(timer: timer, range: range, early: early)
        while true {
            update(&turns)
            if player.isFinished { break }
            watchForStops(&turns)
            serveInput(terminal, &turns)
            redraw(&turns)
        }
        return finish(turns)
    }

    private static func isEnd(_ event: PlayerEvent) -> Bool { if case .ended(.finished, _, _) = event { true } else { false } }

    /// One poll of the player's events, to the view, the surfaces, the hooks, the timers and the state file.
    private func update(_ turns: inout Turns) {
        var events = player.poll()
        if !turns.early.isEmpty {
            // Events from before the start (a playlist's first title) follow the start line.
            let starts = events.filter { if case .started = $0 { true } else { false } }
            events = starts + turns.early + events.filter { if case .started = $0 { false } else { true } }
            turns.early = []
        }
        for event in events { view.show(event) }
        turns.finished = turns.finished || events.contains(where: Self.isEnd)
        for surface in surfaces {
            surface.update(with: events)
            for line in surface.takeNotices() { CLIOutput.warning(line) }
        }
        hooks?.handle(events)
        for line in hooks?.takeProblems() ?? [] { CLIOutput.warning("--on-mark: \(line)") }
        turns.timer?.update(player, elapsed: Date().timeIntervalSince(turns.started))
        state?.tick(player)
        turns.range.update(player)
        for line in decoding.takeFailures() { CLIOutput.warning(line) }
    }

    /// Ctrl-C, and the end of the process that started this one (`--exit-with-parent`), stop the player.
    private func watchForStops(_ turns: inout Turns) {
        if Interrupt.isRequested && !turns.quitting { turns.quitting = true; player.stop() }
        if let parent, parent.hasEnded, !turns.quitting {
            turns.quitting = true
            CLIOutput.warning("the process that started this one (pid \(parent.pid)) ended: stopping")
            player.stop()
        }
    }

    /// One wait for keys, the control socket's clients, a surface's requests and the
    /// session's end; then the keys.
    private func serveInput(_ terminal: TerminalInput, _ turns: inout Turns) {
        let wait = tick(range: turns.range, timer: turns.timer, quitting: turns.quitting)
        let keys: [Int32] = terminal.isInteractive ? [STDIN_FILENO] : []
        let wakes = keys + surfaces.compactMap(\.wakeDescriptor) + [player.finishedDescriptor]
        let ready = control?.serve(timeoutMilliseconds: wait, extraDescriptors: wakes)
            ?? DescriptorPoll.wait(wakes.map { ($0, true, false) }, timeoutMilliseconds: wait).map(\.readable)
        let keysWaiting = !keys.isEmpty && ready.first == true
        for key in terminal.readKeys(timeoutMilliseconds: keysWaiting ? 1 : 0) {
            press(key, &turns)
        }
    }

    private func press(_ key: TerminalInput.Key, _ turns: inout Turns) {
        // Someone at the keys: with automatic latency, what follows answers quickly.
        if key != .quit { player.noteInteraction() }
        switch key {
        case .space: player.togglePause()
        case .left: player.seek(by: -30)
        case .right: player.seek(by: 30)
        case .plus, .up: nudge("speed", by: 5)
        case .minus, .down: nudge("speed", by: -5)
        case .quit: if !turns.quitting { turns.quitting = true; player.stop() }
        case .other(UInt8(ascii: "9")), .other(UInt8(ascii: "/")): stepVolume(by: -2)
        case .other(UInt8(ascii: "0")), .other(UInt8(ascii: "*")): stepVolume(by: 2)
        case .other(UInt8(ascii: "m")), .other(UInt8(ascii: "M")): player.setMuted(!player.volume.muted)
        case .other(UInt8(ascii: "l")), .other(UInt8(ascii: "L")): try? player.trigger(FocusEvent.leaveFocus.rawValue)
        case .other(UInt8(ascii: "r")), .other(UInt8(ascii: "R")): try? player.trigger(FocusEvent.returnFocus.rawValue)
        case .other(UInt8(ascii: "?")), .other(UInt8(ascii: "h")): view.toggleKeyHelp(); turns.lastDraw = .distantPast
        case .other(UInt8(ascii: "n")), .other(UInt8(ascii: ">")): switchStation(by: 1)
        case .other(UInt8(ascii: "p")), .other(UInt8(ascii: "<")): switchStation(by: -1)
        case .other: break
        }
    }

    /// The status at most every 0.1 s; at once after a resize or a return from Ctrl-Z.
    private func redraw(_ turns: inout Turns) {
        if TerminalInput.resized.exchange(false, ordering: .relaxed) { turns.lastDraw = .distantPast }
        if Date().timeIntervalSince(turns.lastDraw) >= 0.1 {
            view.draw(player.status, speed: player.parameterValue("speed"), peaks: player.takeBusPeaks(), volume: player.volume)
            turns.lastDraw = Date()
        }
    }

    /// The last events, the state file and the hooks once the player has finished, then
    /// what `--then` says; the exit status.
    private func finish(_ turns: Turns) -> Int32 {
        player.waitUntilFinished()
        let events = player.poll()
        for event in events { view.show(event) }
        state?.save(player, ended: turns.finished || events.contains(where: Self.isEnd))
        for surface in surfaces { surface.update(with: events) }
        control?.serve(timeoutMilliseconds: 0)   // the last events on their way
        hooks?.handle(events)
        hooks?.waitForAll()
        if player.status.state == .failed { return 1 }
        // What follows the end: not after the user quit (q, Ctrl-C, 'cabin ctl quit').
        if !turns.quitting { runThen() }
        return 0
    }

    /// `--then`: suspend, or a shell command (a failure is a warning).
    private func runThen() {
        guard let then, then != "quit", !surfaces.contains(where: \.quitRequested) else { return }
        do {
            let command = then == "suspend" ? PlaySession.suspendCommand : then
            let child = try ChildProcess(shell: command, environment: ["CABIN_SESSION": view.title], outputToStandardError: view.mode == .json)
            if let status = child.exitStatus(waiting: true), status != 0 { CLIOutput.warning("--then: '\(then)' exited with status \(status)") }
        } catch {
            CLIOutput.warning("--then: \(error)")
        }
    }

    /// What `--then suspend` runs: `systemctl suspend`, or `$CABIN_SUSPEND_COMMAND` (a
    /// shell command) when set, for tests and for systems that suspend otherwise.
    static var suspendCommand: String {
        let override = ProcessInfo.processInfo.environment["CABIN_SUSPEND_COMMAND"] ?? ""
        return override.isEmpty ? "systemctl suspend" : override
    }

    /// The master volume by `delta` dB (−60 dB at the least; unmutes).
    private func stepVolume(by delta: Double) {
        let now = player.volume.master.value
        let next = min(VolumeLevel.maximum.value, max(-60, (now.isFinite ? now : -60) + delta))
        if player.volume.muted { player.setMuted(false) }
        try? player.setVolume(Decibels(next))
    }

    /// The radio's next (1) or previous (−1) track; a session without a playlist says why.
    private func switchStation(by step: Int) {
        do { try step > 0 ? player.nextStation() : player.previousStation() } catch { CLIOutput.warning("\(error)") }
    }

    private func nudge(_ name: String, by delta: Double) {
        guard let value = player.parameterValue(name),
              let spec = player.session.config.parameters.first(where: { $0.name == name }) else { return }
        player.setParameter(name, to: min(spec.range.upperBound, max(spec.range.lowerBound, value + delta)))
    }
}
