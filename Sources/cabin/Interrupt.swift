import CabinIO
import CabinPlayback
import Glibc
import Synchronization

/// Ctrl-C handling for long commands: the first SIGINT sets a flag the command polls (so it
/// can clean up); a second one restores the terminal and exits at once with status 130.
enum Interrupt {
    static let requested = Atomic<Int>(0)

    static func install() {
        // A parent may have started us with SIGINT blocked (the mask is inherited): unblock it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        signal(SIGINT) { _ in
            if Interrupt.requested.add(1, ordering: .relaxed).newValue > 1 {
                TerminalInput.restoreFromSignalHandler()
                _exit(130)
            }
        }
    }

    static var isRequested: Bool { requested.load(ordering: .relaxed) > 0 }
}
