import Foundation
import Glibc

/// A private session bus for a test: Debian's `dbus-daemon --session` listening on a socket
/// in a fresh temporary folder (`--address`), its address read from `--print-address`.
/// Children get it through `environment` (`DBUS_SESSION_BUS_ADDRESS`), so they never touch
/// the user's own bus. Tests skip with `problem` when dbus-daemon or playerctl is missing.
public final class SessionBusDaemon: @unchecked Sendable {
    /// Why the MPRIS tests cannot run here, or nil.
    public static let problem: String? = {
        for tool in ["dbus-daemon", "dbus-send", "dbus-monitor"] where ExternalTool.which(tool) == nil {
            return "needs Debian's \(tool) (the dbus package; scripts/install-deps installs it)"
        }
        if ExternalTool.which("playerctl") == nil { return "needs Debian's playerctl (scripts/install-deps installs it)" }
        return nil
    }()

    /// `unix:path=…,guid=…`.
    public let address: String
    public let directory: URL
    private let process = Process()

    public init() throws {
        directory = try TestEnvironment.temporaryDirectory("cabin-dbus")
        let socket = directory.appendingPathComponent("bus").path
        process.executableURL = URL(fileURLWithPath: ExternalTool.which("dbus-daemon")!)
        process.arguments = ["--session", "--address=unix:path=\(socket)", "--print-address", "--nofork", "--nopidfile"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // The first line is the address, printed once the daemon listens.
        var line = Data()
        let handle = out.fileHandleForReading
        while !line.contains(10) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("unix:") else {
            process.terminate()
            throw DaemonFailure(description: "dbus-daemon printed no address (\(text))")
        }
        address = text
    }

    deinit { stop() }

    /// The daemon's process.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The environment that points children at this bus.
    public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// Ends the daemon with SIGKILL: a child of the test process inherits its blocked
    /// signals, so dbus-daemon never sees a SIGTERM.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    struct DaemonFailure: Error, CustomStringConvertible { var description: String }
}
