import Glibc

/// The local time of day as people read it on a reload's line: `14:03:27` (`localtime_r`).
///
/// Thread: any thread.
package enum TimeOfDay {
    /// Now, `HH:MM:SS` in the local time zone.
    package static func now() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return [parts.tm_hour, parts.tm_min, parts.tm_sec].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
    }
}
