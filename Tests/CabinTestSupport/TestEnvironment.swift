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

    /// The paced audio sink started by `../shared/tools/audio-sink start rtsink|pulse`,
    /// or `nil` when none runs.
    public static var audioSinkBackend: String? {
        let dir = ProcessInfo.processInfo.environment["AUDIO_SINK_DIR"] ?? "/tmp/ci-audio-sink"
        guard let text = try? String(contentsOfFile: dir + "/backend", encoding: .utf8) else { return nil }
        let backend = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return backend.isEmpty ? nil : backend
    }

    /// Whether the rtsink paced sink is running (tests that need it are skipped otherwise).
    public static var rtsinkRunning: Bool { audioSinkBackend == "rtsink" }
}

/// One in-process user of the paced sink at a time: an rtsink capture is chosen through the
/// process-wide `RTSINK_FILE`, so a test that records must not share the process's sink
/// with another test's player. Child processes get `RTSINK_FILE=""` (see `ExternalTool`).
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
            setenv("RTSINK_FILE", path, 1)
            defer { unsetenv("RTSINK_FILE") }
            return try body()
        }
    }
}
