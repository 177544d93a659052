import Foundation

/// Where things are when tests run: the package root, the shared fixtures, fresh
/// temporary folders.
public enum TestEnvironment {
    /// The package root (the folder with Package.swift).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared/fixtures` beside the package.
    public static let sharedFixtures: URL = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures")

    /// A new empty temporary folder, unique to the caller.
    public static func temporaryDirectory(_ label: String = "cabin-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The sound server started by `../shared/tools/audio-sink start pulse` (CI's
    /// PulseAudio phase), or `nil` when none runs. A backend file left behind by a run that
    /// was killed before `audio-sink stop` does not count: the server's recorded process
    /// must be alive.
    public static var audioSinkBackend: String? {
        let dir = ProcessInfo.processInfo.environment["AUDIO_SINK_DIR"] ?? "/tmp/ci-audio-sink"
        guard let text = try? String(contentsOfFile: dir + "/backend", encoding: .utf8) else { return nil }
        let backend = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !backend.isEmpty else { return nil }
        let daemon = ["pulse": "pulseaudio", "pipewire": "pipewire"][backend]
        if let daemon, !processIsAlive(pidFile: dir + "/\(daemon).pid") { return nil }
        return backend
    }

    /// Whether the process named in a pid file runs (and is not a zombie).
    private static func processIsAlive(pidFile: String) -> Bool {
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
              let pid = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0,
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        else { return false }
        // /proc/PID/stat: "pid (comm) S …"; the state follows the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != nil && state != "Z" && state != "X"
    }

    /// Whether Cabin's paced test sink is ready (it is built on first use; tests that need
    /// it are skipped with `PacedSink.problem` otherwise).
    public static var pacedSinkReady: Bool { PacedSink.isReady }

    /// The reason shown when device tests are skipped.
    public static var pacedSinkProblem: String { "needs Cabin's paced test sink: \(PacedSink.problem ?? "")" }
}

/// One in-process user of the paced sink at a time: a capture is chosen through the
/// process-wide `CABIN_SINK_FILE`, so a test that records must not share the process's sink
/// with another test's player. Child processes get `CABIN_SINK_FILE=""` (see `ExternalTool`).
public enum SinkLock {
    private static let lock = NSRecursiveLock()

    public static func exclusive<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` with the sink recording into `path`.
    public static func recording<T>(into path: String, _ body: () throws -> T) rethrows -> T {
        try exclusive {
            setenv(PacedSink.captureVariable, path, 1)
            defer { unsetenv(PacedSink.captureVariable) }
            return try body()
        }
    }
}
