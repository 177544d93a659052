import CabinAudio
import CabinIO

/// A sleep timer for any session (`cabin play --stop-after 45m --fade-out 60s`): after
/// `stopAfter` seconds of wall-clock time from the start (pauses included, as a bedside
/// timer counts), the session ends; over the last `fadeOut` seconds the master fades down
/// linearly in dB to −60 dB, then the transport's own fade takes it to silence.
///
/// The control loop calls `update` a few times a second; each call sets the fade's level
/// (the mixer ramps between calls over 50 ms, so the fade is smooth).
///
/// Thread: control thread.
public struct SleepTimer: Sendable {
    /// Wall-clock seconds from the start after which the session ends (never negative).
    public let stopAfter: Double
    /// Seconds of fade before the stop, within 0…`stopAfter` (0: no fade).
    public let fadeOut: Double
    /// Whether the timer has ended the session.
    public private(set) var hasFired = false
    /// The level the fade reaches just before the stop.
    public static let fadeFloor = Decibels(-60)

    /// A timer ending the session `stopAfter` seconds after the start, fading over the last
    /// `fadeOut` seconds; a negative value counts as 0 and a fade longer than the timer is
    /// cut to it.
    public init(stopAfter: Double, fadeOut: Double) {
        self.stopAfter = max(0, stopAfter)
        self.fadeOut = min(max(0, fadeOut), self.stopAfter)
    }

    /// The fade's level `elapsed` seconds after the start.
    public func level(at elapsed: Double) -> Decibels {
        let fadeStart = stopAfter - fadeOut
        guard fadeOut > 0, elapsed > fadeStart else { return 0 }
        return Decibels(SleepTimer.fadeFloor.value * min(1, (elapsed - fadeStart) / fadeOut))
    }

    /// Sets the player's fade for `elapsed` and ends the session when the time is up.
    public mutating func update(_ player: LivePlayer, elapsed: Double) {
        guard !hasFired else { return }
        player.setFade(level(at: elapsed))
        if elapsed >= stopAfter {
            hasFired = true
            player.stop()
        }
    }
}

/// `--on-mark COMMAND`: a shell command run at each mark the session passes, with the mark,
/// its title, the time and the session in its environment (`CABIN_MARK=rest`,
/// `CABIN_MARK_TITLE=rest stop` (the name when the mark has no title), `CABIN_TIME=1500`,
/// `CABIN_SESSION=Drive to Yosemite`), as Pomodoro users script their breaks. Commands run
/// in the background (the session never waits for them); a command that cannot start is
/// reported once per mark as a warning line.
///
/// Thread: control thread.
public final class MarkHooks {
    /// The shell command (`/bin/sh -c`) run at each mark.
    public let command: String
    /// The session's title, given to the command as `CABIN_SESSION`.
    public let session: String
    /// Whether the commands' standard output goes to standard error (keeping standard output
    /// for `--json` events) rather than standard output.
    public let outputToStandardError: Bool
    private var running: [ChildProcess] = []
    /// Why commands could not start since the last call (one line each).
    private var problems: [String] = []

    /// Hooks running `command` for the session titled `session`.
    public init(command: String, session: String, outputToStandardError: Bool) {
        self.command = command
        self.session = session
        self.outputToStandardError = outputToStandardError
    }

    /// Runs the command for each mark among `events`; reaps those that ended.
    public func handle(_ events: [PlayerEvent]) {
        for event in events {
            guard case .mark(let name, let time, let title) = event else { continue }
            let environment = ["CABIN_MARK": name, "CABIN_MARK_TITLE": title ?? name, "CABIN_TIME": NumberTextSeconds.text(time),
                               "CABIN_SESSION": session]
            do { running.append(try ChildProcess(shell: command, environment: environment, outputToStandardError: outputToStandardError)) } catch {
                problems.append("\(error)")
            }
        }
        running.removeAll { $0.exitStatus(waiting: false) != nil }
    }

    /// Waits up to `timeout` seconds for the commands still running (at the end of the
    /// session); any still running then go on by themselves (the session never hangs on a
    /// hook).
    public func waitForAll(timeout: Double = 2) {
        let deadline = MonotonicClock.seconds() + timeout
        while true {
            running.removeAll { $0.exitStatus(waiting: false) != nil }
            if running.isEmpty || MonotonicClock.seconds() >= deadline { break }
            ThreadSleep.microseconds(10_000)
        }
        running.removeAll()
    }

    /// Why commands could not start since the last call, one line each (the reason, in the
    /// system's words; the caller says which command: `cabin` prefixes `--on-mark: `).
    public func takeProblems() -> [String] {
        defer { problems.removeAll() }
        return problems
    }
}

/// Seconds for an environment variable: `1500`, `12.5`.
enum NumberTextSeconds {
    static func text(_ seconds: Double) -> String {
        let ms = (seconds * 1000).rounded() / 1000
        return ms == ms.rounded() ? String(Int(ms)) : String(ms)
    }
}
