import Glibc

/// The CPU priority (nice value) of the calling thread, for background work that must not
/// take the processor from playback: on Linux a nice value is per thread.
///
/// Thread: any (it changes the calling thread only).
public enum ThreadPriority {
    /// Raises the calling thread's nice value by `steps` (at most to 19): it then gets a
    /// smaller share of a busy processor (nice 10 against 0: about a tenth) and all of an
    /// idle one. An unprivileged thread cannot lower it again, so use it on a thread of
    /// one's own, not a pool's. The corresponding C functions are `getpriority` and
    /// `setpriority`.
    public static func lowerCurrentThread(by steps: Int32) {
        let thread: id_t = 0  // on Linux, 0 is the calling thread (a nice value is per thread)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, thread)
        guard errno == 0 else { return }
        _ = setpriority(which, thread, min(19, current + steps))
    }

    /// The calling thread's nice value. The corresponding C function is `getpriority`.
    public static var currentNiceValue: Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }
}
