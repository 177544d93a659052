import Glibc

/// Process signals for long commands: which ones mean "stop", unblocking them, and
/// installing an async-signal-safe handler.
///
/// ```swift
/// Signals.handle(Signals.termination) { signal in flag.store(signal, ordering: .relaxed) }
/// ```
///
/// Thread: control thread, before other threads start (signal dispositions are per process).
package enum Signals {
    /// The signals that ask a command to end: Ctrl-C (SIGINT), `kill` (SIGTERM) and a
    /// closed terminal (SIGHUP).
    package static let termination: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Unblocks `signals` and routes them to `handler`, which runs in signal context: it
    /// may only touch atomics and call async-signal-safe functions (`write`, `_exit`, …).
    /// The corresponding C functions are `pthread_sigmask` and `sigaction`.
    package static func handle(_ signals: [Int32], with handler: @convention(c) (Int32) -> Void) {
        // A parent may have started us with them blocked (the mask is inherited).
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for s in signals { sigaction(s, &action, nil) }
    }
}
