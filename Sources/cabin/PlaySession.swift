import CabinIO
import CabinPlayback
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
        var quitting = false
        var lastDraw = Date.distantPast
        while true {
            for event in player.poll() { view.show(event) }
            for line in decoding.takeFailures() { CLIOutput.warning(line) }
            if player.isFinished { break }
            if Interrupt.isRequested && !quitting { quitting = true; player.stop() }
            for key in terminal.readKeys(timeoutMilliseconds: 50) {
                switch key {
                case .space: player.togglePause()
                case .left: player.seek(by: -30)
                case .right: player.seek(by: 30)
                case .plus, .up: nudge("speed", by: 5)
                case .minus, .down: nudge("speed", by: -5)
                case .quit: if !quitting { quitting = true; player.stop() }
                case .other: break
                }
            }
            // Redraw at once after a resize or a return from Ctrl-Z.
            if TerminalInput.resized.exchange(false, ordering: .relaxed) { lastDraw = .distantPast }
            if Date().timeIntervalSince(lastDraw) >= 0.1 {
                view.draw(player.status, speed: player.parameterValue("speed"), peaks: player.takeBusPeaks())
                lastDraw = Date()
            }
        }
        player.waitUntilFinished()
        for event in player.poll() { view.show(event) }
        return player.status.state == .failed ? 1 : 0
    }

    private func nudge(_ name: String, by delta: Double) {
        guard let value = player.parameterValue(name),
              let spec = player.session.config.parameters.first(where: { $0.name == name }) else { return }
        player.setParameter(name, to: min(spec.range.upperBound, max(spec.range.lowerBound, value + delta)))
    }
}
