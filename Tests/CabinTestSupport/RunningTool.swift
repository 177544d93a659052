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
