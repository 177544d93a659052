import Foundation

/// Runs real programs (sox, ffmpeg, opusenc, the `cabin` binary) from tests.
public enum ExternalTool {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        /// Standard output as bytes (a WAV written to `-`).
        public var stdoutBytes: Data
        public var stderr: String
        public var seconds: Double
    }

    public struct Failure: Error, CustomStringConvertible {
        public var command: [String]
        public var result: Result
        public var description: String {
            "\(command.joined(separator: " ")) exited \(result.status): \(result.stderr)"
        }
    }

    /// The environment for a child process: ours, with `extra` on top — except that a
    /// child never records into another test's sink capture (`CABIN_SINK_FILE`, which an
    /// in-process test may have set for itself) and never listens on the user's default
    /// control socket (no `XDG_RUNTIME_DIR`: `cabin play` children running at once would
    /// contend for it, and a user's own session may hold it) unless `extra` says so. Each
    /// child also has config and state folders of its own (`XDG_CONFIG_HOME`,
    /// `XDG_STATE_HOME`, empty and new) and none of the `CABIN_…` settings variables, so
    /// neither the user's config nor another test's remembered volume or session applies. The
    /// variables named in `unset` are taken out.
    public static func childEnvironment(_ extra: [String: String] = [:], unset: [String] = []) -> [String: String] {
        _ = PacedSink.problem   // the sink's ALSA configuration is in place before any child starts
        var env = ProcessInfo.processInfo.environment
        env[PacedSink.captureVariable] = ""
        env["XDG_RUNTIME_DIR"] = nil
        for name in ["CABIN_DEVICE", "CABIN_PERIOD", "CABIN_PERIODS", "CABIN_PRESET", "CABIN_RUMBLE", "CABIN_VOLUME",
                     "CABIN_HAPTIC_STRENGTH", "CABIN_SUSPEND_COMMAND"] { env[name] = nil }
        let own = FileManager.default.temporaryDirectory.appendingPathComponent("cabin-test-xdg-\(getpid())/\(UUID().uuidString)").path
        env["XDG_CONFIG_HOME"] = own + "/config"
        env["XDG_STATE_HOME"] = own + "/state"
        // The spoken-prompt cache of this test process (shared by its children), never the
        // user's own ~/.cache/cabin.
        env["XDG_CACHE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("cabin-test-xdg-\(getpid())/cache").path
        for (k, v) in extra { env[k] = v }
        for k in unset { env[k] = nil }
        return env
    }

    /// The absolute path of `name` on PATH, or `nil`.
    public static func which(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for dir in paths {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, capturing output; does not throw on non-zero exit.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           unset: [String] = [], stdin: Data? = nil) throws -> Result {
        try launch(executable, arguments, environment: childEnvironment(environment, unset: unset), stdin: stdin)
    }

    /// `run` with exactly `environment` (the paced sink's own build uses it: it must not wait
    /// for the sink's set-up, which `childEnvironment` does).
    static func launch(_ executable: String, _ arguments: [String], environment: [String: String],
                       stdin: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : (which(executable) ?? executable))
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        let start = Date()
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try? input.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so neither fills up and blocks the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self), stdoutBytes: outData,
                      stderr: String(decoding: errData, as: UTF8.self),
                      seconds: Date().timeIntervalSince(start))
    }

    /// Runs and throws unless the exit status is 0.
    @discardableResult
    public static func check(_ executable: String, _ arguments: [String]) throws -> Result {
        let result = try run(executable, arguments)
        guard result.status == 0 else { throw Failure(command: [executable] + arguments, result: result) }
        return result
    }

    /// The `cabin` executable built beside the test bundle.
    public static var cabinBinary: String {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("cabin").path
    }

    /// Runs the real `cabin` binary.
    public static func cabin(_ arguments: [String], environment: [String: String] = [:], unset: [String] = []) throws -> Result {
        try run(cabinBinary, arguments, environment: environment, unset: unset)
    }
}
