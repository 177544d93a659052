import CabinIO
import Glibc
import Synchronization

/// Ending long commands: the first SIGINT, SIGTERM or SIGHUP sets a flag the command polls
/// (so it fades out and cleans up, then exits with 128 + the signal: 130 for Ctrl-C); a
/// second one removes the output temporaries, restores the terminal and exits at once.
enum Interrupt {
    static let requested = Atomic<Int>(0)
    /// The last signal received (0: none).
    static let signal = Atomic<Int32>(0)

    static func install() {
        Signals.handle(Signals.termination) { signal in
            Interrupt.signal.store(signal, ordering: .relaxed)
            if Interrupt.requested.add(1, ordering: .relaxed).newValue > 1 {
                OutputTemporaries.removeFromSignalHandler()
                TerminalInput.restoreFromSignalHandler()
                _exit(128 + signal)
            }
        }
    }

    /// For short commands that do not poll: the first signal removes the output
    /// temporaries and exits with 128 + the signal.
    static func installExiting() {
        Signals.handle(Signals.termination) { signal in
            OutputTemporaries.removeFromSignalHandler()
            _exit(128 + signal)
        }
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) > 0 }

    /// The exit status for a command that stopped because of a signal: 128 + the signal.
    static var status: Int32 { 128 + max(signal.load(ordering: .relaxed), 0) }
}
