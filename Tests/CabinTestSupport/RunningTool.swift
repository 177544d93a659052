import Foundation
import Synchronization

/// A program left running while a test talks to it (a `cabin haptics watch`, a `cabin play`):
/// its standard output and error gathered as they come, so the test can wait for a line.
public final class RunningTool {
    /// Bytes a pipe's handler appends to while the test reads them.
    final class Gathered: Sendable {
        let data = Mutex<Data>(Data())
        var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
    }

    private let process: Process
    private let out = Gathered()
    private let err = Gathered()

    /// Starts `executable` with `arguments` in the tests' child environment plus `environment`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ExternalTool.childEnvironment(environment)
        process.standardInput = FileHandle.nullDevice
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        self.process = process
        stdout.fileHandleForReading.readabilityHandler = { [out] handle in
            let data = handle.availableData
            out.data.withLock { $0.append(data) }
        }
        stderr.fileHandleForReading.readabilityHandler = { [err] handle in
            let data = handle.availableData
            err.data.withLock { $0.append(data) }
        }
        try process.run()
    }

    /// `cabin` with `arguments`.
    public static func cabin(_ arguments: [String], environment: [String: String] = [:]) throws -> RunningTool {
        try RunningTool(ExternalTool.cabinBinary, arguments, environment: environment)
    }

    /// The running program's process id (for reading its figures from /proc).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The CPU time it has used so far (user and system, from /proc/PID/stat), in seconds.
    public var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // After "pid (comm)": state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Its peak resident memory so far (VmHWM from /proc/PID/status), in MB.
    public var peakResidentMegabytes: Double {
        guard let status = try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes / 1024
    }

    /// What it has written so far.
    public var stdout: String { out.text }
    public var stderr: String { err.text }

    /// Waits (at most `timeout` s) until `condition` holds for its standard output; whether it did.
    @discardableResult
    public func wait(timeout: Double = 10, until condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(stdout) { return true }
            if !process.isRunning { return condition(stdout) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition(stdout)
    }

    /// Sends SIGINT and waits (at most `timeout` s, then SIGKILL) for it to end; its exit status.
    public func interrupt(timeout: Double = 10) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGINT) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.05)   // the last of its output through the handlers
        return process.terminationStatus
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}
