import Glibc

/// The system's monotonic clock (`CLOCK_MONOTONIC`) in seconds: the one clock Cabin's
/// deadlines, pacing and timestamps read (`FileWatcher.Change.seenAt`, the offline
/// renderer's real-time pacing, the radio's stall windows, the sleep timer).
///
/// ```swift
/// let start = MonotonicClock.seconds()
/// work()
/// print(MonotonicClock.seconds() - start)
/// ```
///
/// Thread: any, the render thread included (one vDSO call: no allocation, lock or syscall).
/// The corresponding C function is `clock_gettime`.
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed origin (the boot), not counting suspend.
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// The calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`): what the benchmarks and the
/// render thread's last word (`LivePlayer.renderThreadCPUSeconds`) measure, so other work
/// on a shared machine does not count.
///
/// Thread: any, the render thread included (no allocation or lock). The corresponding C
/// function is `clock_gettime`.
public enum ThreadCPUClock {
    /// The calling thread's CPU time so far, in nanoseconds.
    public static func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The calling thread's CPU time so far, in seconds.
    public static func seconds() -> Double { Double(nanoseconds()) * 1e-9 }
}

/// Putting the calling thread to sleep, or giving its core away.
///
/// Thread: any thread that may block (the render thread only for `ThreadSleep.microseconds`
/// of a test's injected stall).
public enum ThreadSleep {
    /// Sleeps about `microseconds` (a signal may end it early). The corresponding C
    /// function is `usleep`.
    public static func microseconds(_ microseconds: UInt32) {
        _ = usleep(microseconds)
    }

    /// Sleeps about `duration` (a signal may end it early; a negative one does not sleep).
    /// The corresponding C function is `nanosleep`.
    public static func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(max(0, seconds)), tv_nsec: Int(max(0, attoseconds / 1_000_000_000)))
        _ = nanosleep(&request, nil)
    }

    /// Lets another runnable thread have the core. The corresponding C function is `sched_yield`.
    public static func yield() {
        _ = sched_yield()
    }
}
