import Glibc

/// The process's open-file limit and how much of it is used: what a server that accepts
/// connections sizes its number of clients by, so that its clients never take the
/// descriptors the rest of the program needs (the state file, a hook's pipes, a radio's
/// connection).
///
/// Thread: any.
public enum DescriptorLimit {
    /// The soft limit on open descriptors (`RLIMIT_NOFILE`); `Int.max` when unlimited.
    /// The corresponding C function is `getrlimit`.
    public static var openFileLimit: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return Int.max }
        return Int(clamping: limit.rlim_cur)
    }

    /// Descriptors open in this process now (the entries of `/proc/self/fd`, less the one
    /// that lists them); 0 when it cannot be read. The corresponding C functions are
    /// `opendir` and `readdir`.
    public static var openCount: Int {
        guard let dir = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(dir) }
        var count = 0
        while let entry = readdir(dir) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0[0] == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        return max(0, count - 1)
    }
}
