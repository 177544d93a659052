import CabinIO
import Glibc
import Synchronization

/// Ending long commands: the first SIGINT, SIGTERM or SIGHUP sets a flag the command polls
/// (so it fades out and cleans up); a second one restores the terminal and exits at once
/// with 128 + the signal (130 for Ctrl-C).
enum Interrupt {
    static let requested = Atomic<Int>(0)

    static func install() {
        Signals.handle(Signals.termination) { signal in
            if Interrupt.requested.add(1, ordering: .relaxed).newValue > 1 {
                TerminalInput.restoreFromSignalHandler()
                _exit(128 + signal)
            }
        }
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) > 0 }
}
