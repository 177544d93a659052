import Foundation
import Glibc

/// A private PipeWire for a test: Debian's `pipewire` and `wireplumber` on a private session
/// bus (`SessionBusDaemon`) with a runtime folder of their own (their socket is
/// `socketPath`), and a null sink named `sinkName` (`support.null-audio-sink`, 48 kHz stereo,
/// driven by PipeWire's own timer) whose monitor `record(into:)` captures with `pw-record`.
/// Nothing of the user's PipeWire is touched: children find this one through `environment`
/// (`PIPEWIRE_RUNTIME_DIR`), in-process players through `socketPath`.
///
/// Every process is killed by `stop()` (and `deinit`); their PIDs are written in the folder,
/// so a run that was itself killed leaves nothing that can break the next: the first daemon a
/// test process starts kills those of dead test processes and removes their folders.
/// Tests skip with `problem` when the packages are missing.
public final class PipeWireDaemon: @unchecked Sendable {
    /// Why a private PipeWire cannot run here, or nil.
    public static let problem: String? = {
        for tool in ["pipewire", "wireplumber", "pw-cli", "pw-record", "dbus-daemon"] where ExternalTool.which(tool) == nil {
            return "needs Debian's \(tool) (pipewire, pipewire-bin, wireplumber, dbus: scripts/install-deps installs them)"
        }
        return nil
    }()

    /// The null sink's `node.name`.
    public static let sinkName = "cabin-test-sink"
    /// Its `node.description`.
    public static let sinkDescription = "Cabin's PipeWire test sink"
    public static let sampleRate = 48000

    /// The runtime folder (`XDG_RUNTIME_DIR` of the daemons).
    public let directory: URL
    /// The daemon's socket: what `PipeWireBackend(remote:)` takes.
    public var socketPath: String { directory.appendingPathComponent("pipewire-0").path }
    private let bus: SessionBusDaemon
    private var pipewire: Process?
    private var wireplumber: Process?
    private var recorders: [Process] = []
    private static let label = "cabin-pipewire"

    public init() throws {
        Self.sweepStale()
        directory = try TestEnvironment.temporaryDirectory(Self.label)
        chmod(directory.path, 0o700)
        try Data("\(getpid())\n".utf8).write(to: directory.appendingPathComponent("owner"))
        bus = try SessionBusDaemon()
        note(pid: bus.processIdentifier)
        do { try start() } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// What points a child (`cabin`) at this daemon.
    public var environment: [String: String] { ["PIPEWIRE_RUNTIME_DIR": directory.path] }

    /// The daemons' own environment: this runtime folder, the private bus, and config and
    /// state folders of their own (WirePlumber remembers default sinks there).
    private var daemonEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = directory.path
        env["PIPEWIRE_RUNTIME_DIR"] = directory.path
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        env["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        env["PIPEWIRE_REMOTE"] = nil
        env["PIPEWIRE_DEBUG"] = nil
        return env
    }

    /// Starts `pipewire` and `wireplumber` and makes the sink; returns once the sink is listed
    /// and WirePlumber (which links streams to sinks) is connected.
    public func start() throws {
        let pw = try launch("pipewire", [])
        pipewire = pw
        try waitFor("the pipewire socket") { FileManager.default.fileExists(atPath: self.socketPath) }
        wireplumber = try launch("wireplumber", [])
        try waitFor("WirePlumber to connect") {
            (try? self.cli(["ls", "Client"]).stdout.contains("WirePlumber")) == true
        }
        let sink = "{ factory.name=support.null-audio-sink node.name=\(Self.sinkName) "
            + "node.description=\"\(Self.sinkDescription)\" media.class=Audio/Sink object.linger=true "
            + "audio.position=[FL FR] audio.rate=\(Self.sampleRate) }"
        let made = try cli(["create-node", "adapter", sink])
        guard made.status == 0 else { throw Failure(description: "pw-cli create-node: \(made.stderr)") }
        try waitFor("the sink") { (try? self.cli(["ls", "Node"]).stdout.contains(Self.sinkName)) == true }
    }

    /// Kills `pipewire` and `wireplumber` (SIGKILL: the daemon dies as in a crash); the bus
    /// and any recorder stay. `start()` brings them back.
    public func kill() {
        for process in [wireplumber, pipewire].compactMap({ $0 }) where process.isRunning {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        wireplumber = nil
        pipewire = nil
        try? FileManager.default.removeItem(atPath: socketPath)
        try? FileManager.default.removeItem(atPath: socketPath + ".lock")
    }

    /// Everything this daemon started, killed; its folder removed.
    public func stop() {
        for recorder in recorders where recorder.isRunning {
            Glibc.kill(recorder.processIdentifier, SIGKILL)
            recorder.waitUntilExit()
        }
        recorders = []
        kill()
        bus.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Records the sink's monitor (`pw-record --target SINK`, F32 stereo at 48 kHz) into
    /// `path` until `stopRecording` is called; returns once the recorder's stream is linked.
    public func record(into path: String) throws -> Process {
        let recorder = try launch("pw-record", ["--target", Self.sinkName, "--format", "f32", "--rate", "\(Self.sampleRate)",
                                                "--channels", "2", path])
        recorders.append(recorder)
        try waitFor("pw-record's stream") { (try? self.cli(["ls", "Link"]).stdout.contains("link.input.node")) == true }
        return recorder
    }

    /// Stops a recorder and reads what it captured: interleaved stereo floats. (It is killed,
    /// so its WAV header's sizes may never have been written: the data chunk is read to the
    /// end of the file.)
    public func stopRecording(_ recorder: Process, path: String) throws -> [Float] {
        usleep(100_000)  // the last cycles reach the file
        if recorder.isRunning {
            Glibc.kill(recorder.processIdentifier, SIGKILL)
            recorder.waitUntilExit()
        }
        return try Self.readFloatWAV(path)
    }

    /// `pw-cli` against this daemon.
    public func cli(_ arguments: [String]) throws -> ExternalTool.Result {
        try ExternalTool.launch("pw-cli", arguments, environment: daemonEnvironment)
    }

    private func launch(_ tool: String, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.which(tool) ?? tool)
        process.arguments = arguments
        process.environment = daemonEnvironment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        note(pid: process.processIdentifier)
        return process
    }

    private func note(pid: Int32) {
        let file = directory.appendingPathComponent("pids")
        let line = Data("\(pid)\n".utf8)
        if let handle = try? FileHandle(forWritingTo: file) {
            handle.seekToEndOfFile()
            handle.write(line)
            try? handle.close()
        } else {
            try? line.write(to: file)
        }
    }

    private func waitFor(_ what: String, seconds: Double = 10, _ ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !ready() {
            if Date() > deadline { throw Failure(description: "timed out waiting for \(what) (\(directory.path))") }
            usleep(50_000)
        }
    }

    /// Kills the daemons of test processes that died without stopping them (their PIDs are in
    /// their folders, checked against /proc's command names so a reused PID is left alone),
    /// and removes those folders.
    private static let sweepOnce: Void = {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(label + "-") {
            let folder = temporary.appendingPathComponent(name)
            let owner = (try? String(contentsOf: folder.appendingPathComponent("owner"), encoding: .utf8))
                .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            // A folder with no owner is not a daemon's (or not yet written): left alone.
            guard let owner, owner != getpid(), Glibc.kill(owner, 0) != 0 else { continue }
            let pids = (try? String(contentsOf: folder.appendingPathComponent("pids"), encoding: .utf8)) ?? ""
            for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) {
                let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
                if ["pipewire", "wireplumber", "dbus-daemon", "pw-record", "pw-cat"].contains(comm.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    Glibc.kill(pid, SIGKILL)
                }
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }()

    private static func sweepStale() { _ = sweepOnce }

    /// The samples of a float WAV, the data chunk read to the end of the file.
    static func readFloatWAV(_ path: String) throws -> [Float] {
        try floatSamples(ofWAV: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The samples of a 32-bit float WAV's bytes, its data chunk read to the end.
    public static func floatSamples(ofWAV data: Data) throws -> [Float] {
        var offset = 12
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<(offset + 4)], as: UTF8.self)
            let size = data[(offset + 4)..<(offset + 8)].withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            if id == "data" {
                let body = data[(offset + 8)...]
                let count = body.count / 4
                return body.prefix(count * 4).withUnsafeBytes { raw in
                    (0..<count).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
                }
            }
            offset += 8 + size + (size & 1)
        }
        throw Failure(description: "no data chunk in the WAV")
    }

    public struct Failure: Error, CustomStringConvertible { public var description: String }
}
