import Glibc

/// This process: its id and its environment.
///
/// Thread: any.
public enum ThisProcess {
    /// Its process id. The corresponding C function is `getpid`.
    public static var id: Int32 { getpid() }

    /// The value of environment variable `name`, or nil when it is not set. The
    /// corresponding C function is `getenv`.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

extension ThisProcess {
    /// Its peak resident memory so far (`ru_maxrss`), in kB. The corresponding C function
    /// is `getrusage`.
    public static var peakResidentKilobytes: Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss
    }
}
