import Glibc

/// What a running process has used so far, per thread, read from `/proc`: what `cabin bench
/// --live` compares between two moments of a `cabin play` and of mpv.
///
/// CPU time is each thread's `schedstat` run time (nanoseconds, exact; `/proc/PID/stat`'s
/// ticks would charge a thread that wakes on the timer tick a whole 10 ms). Wake-ups are its
/// voluntary context switches: each is the thread going to sleep, to be woken again.
///
/// ```swift
/// let before = ProcessUsage.read(pid: pid)
/// sleep(60)
/// if let before, let after = ProcessUsage.read(pid: pid) { print(after.figures(since: before, seconds: 60).cpuPercent) }
/// ```
///
/// Thread: a value type; any thread except the render thread (it reads files).
package struct ProcessUsage: Sendable {
    /// One thread's counters.
    package struct ThreadCounters: Sendable {
        package var name: String
        package var cpuNanoseconds: UInt64
        package var voluntarySwitches: UInt64
    }

    /// By thread id.
    package var threads: [Int32: ThreadCounters]
    /// Resident memory (`VmRSS`), bytes.
    package var residentBytes: Int

    /// The figures between `earlier` and this snapshot, `seconds` apart. A thread started in
    /// between counts from zero; one that ended in between is not counted (its last counts
    /// are gone with it).
    package func figures(since earlier: ProcessUsage, seconds: Double) -> ProcessFigures {
        var perThread: [(name: String, cpuPercent: Double, wakeupsPerSecond: Double)] = []
        for (tid, now) in threads.sorted(by: { $0.key < $1.key }) {
            let before = earlier.threads[tid]
            let cpu = Double(now.cpuNanoseconds &- (before?.cpuNanoseconds ?? 0)) / 1e9 / seconds * 100
            let wakes = Double(now.voluntarySwitches &- (before?.voluntarySwitches ?? 0)) / seconds
            perThread.append((now.name, cpu, wakes))
        }
        return ProcessFigures(threads: perThread, residentMegabytes: Double(residentBytes) / 1_048_576)
    }

    /// The process's counters now, or nil when it is gone (or `/proc` is not readable).
    package static func read(pid: Int32) -> ProcessUsage? {
        guard let status = readSmallFile("/proc/\(pid)/status"), let names = directoryEntries("/proc/\(pid)/task") else { return nil }
        let tids = names.compactMap { Int32($0) }
        var threads: [Int32: ThreadCounters] = [:]
        for tid in tids {
            let base = "/proc/\(pid)/task/\(tid)"
            guard let sched = readSmallFile(base + "/schedstat"), let threadStatus = readSmallFile(base + "/status"),
                  let run = sched.split(separator: " ").first.flatMap({ UInt64($0) }) else { continue }
            let name = (readSmallFile(base + "/comm") ?? "?").trimmingNewline
            threads[tid] = ThreadCounters(name: name, cpuNanoseconds: run,
                                          voluntarySwitches: UInt64(field("voluntary_ctxt_switches", in: threadStatus) ?? 0))
        }
        return ProcessUsage(threads: threads, residentBytes: (field("VmRSS", in: status) ?? 0) * 1024)
    }

    /// Lets `pid` run `settle` seconds, then measures it over `seconds`: nil if it ended
    /// before (or `/proc` is not readable). The corresponding C function is `nanosleep`.
    package static func measure(pid: Int32, settle: Double, seconds: Double) -> ProcessFigures? {
        pause(settle)
        guard let before = read(pid: pid) else { return nil }
        pause(seconds)
        guard let after = read(pid: pid) else { return nil }
        return after.figures(since: before, seconds: seconds)
    }

    private static func pause(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var left = timespec()
        while nanosleep(&request, &left) == -1 && errno == EINTR { request = left }
    }

    /// The number after `name:` in a `/proc` status file.
    static func field(_ name: String, in text: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// A `/proc` file's text (they are small; their size reads as 0, so read to the end).
    /// The corresponding C functions are `open`, `read` and `close`.
    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > 1 << 20 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A process's use between two moments (`ProcessUsage.figures(since:seconds:)`).
///
/// Thread: a value type; any thread.
package struct ProcessFigures: Sendable {
    /// Each thread alive at the end: its name, share of one core (%), wake-ups a second.
    package var threads: [(name: String, cpuPercent: Double, wakeupsPerSecond: Double)]
    /// Resident memory at the end, MB.
    package var residentMegabytes: Double

    /// The whole process's share of one core, %.
    package var cpuPercent: Double { threads.reduce(0) { $0 + $1.cpuPercent } }
    /// The whole process's wake-ups a second.
    package var wakeupsPerSecond: Double { threads.reduce(0) { $0 + $1.wakeupsPerSecond } }

    /// The share of one core of the threads whose names pass `matches` (the render thread).
    package func cpuPercent(ofThreads matches: (String) -> Bool) -> Double {
        threads.filter { matches($0.name) }.reduce(0) { $0 + $1.cpuPercent }
    }
}

private extension String {
    var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
