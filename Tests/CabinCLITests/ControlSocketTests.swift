import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// `cabin play --ipc PATH` driven by a small client of the tests' own, and `cabin ctl`:
/// the real binary, playing with no sound (`-D none`, on the system clock), so these run on
/// any machine.
@Suite(.serialized)
struct ControlSocketTests {
    static let session = """
        { "cabin": 1, "title": "ctl", "duration": "DURATION",
          "buses": { "engine": -6, "radio": -12 },
          "parameters": { "speed": { "value": 20, "min": 0, "max": 80 } },
          "layers": { "engine": { "bus": "engine", "sound": "synth:sine?frequency=110", "loop": true,
                                  "pitch": { "parameter": "speed", "map": [[0, 0.7], [80, 1.4]] } },
                      "radio": { "bus": "radio", "sound": "synth:pink-noise", "loop": true } },
          "cues": [ { "at": 0, "start": ["engine", "radio"], "fadeIn": "100ms", "mark": "drive" },
                    { "at": "1s", "mark": { "name": "cruise", "title": "cruising" } } ] }
        """

    /// A running `cabin play … --ipc` and its socket.
    final class Session {
        let process = Process()
        let socket: String
        let stdout = Pipe(), stderr = Pipe()

        init(duration: String = "60s", extra: [String] = []) throws {
            let dir = try TestEnvironment.temporaryDirectory("cabin-ctl")
            let path = dir.appendingPathComponent("s.json").path
            try Data(ControlSocketTests.session.replacingOccurrences(of: "DURATION", with: duration).utf8)
                .write(to: URL(fileURLWithPath: path))
            socket = dir.appendingPathComponent("control").path
            process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
            process.environment = ExternalTool.childEnvironment()
            process.arguments = ["play", path, "-D", "none", "--ipc", socket, "--json"] + extra
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        }

        /// Waits for the end (at most `timeout` s); the exit status.
        func finish(timeout: Double = 10) -> Int32 {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return process.terminationStatus
        }

        func events() -> [[String: Any]] {
            let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// The tests' own client: newline-delimited JSON over the socket.
    final class Client {
        let connection: LocalSocketConnection
        var buffer: [UInt8] = []
        var nextID = 1

        init(_ path: String, timeoutSeconds: Double = 5) throws {
            connection = try LocalSocketConnection(connectingTo: path, timeoutSeconds: timeoutSeconds)
        }

        func sendLine(_ text: String) throws { try connection.sendAll(Array((text + "\n").utf8)) }

        /// The next line, as JSON.
        func line() throws -> [String: Any] {
            while true {
                if let nl = buffer.firstIndex(of: 10) {
                    let line = Data(buffer[..<nl])
                    buffer.removeSubrange(...nl)
                    return try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any], "\(String(decoding: line, as: UTF8.self))")
                }
                let bytes = try #require(try connection.receive(), "no reply within 5 s")
                try #require(!bytes.isEmpty, "the server closed the connection")
                buffer += bytes
            }
        }

        /// Sends a command and returns its reply (skipping events).
        func command(_ words: Any...) throws -> [String: Any] {
            let id = nextID
            nextID += 1
            let request = try JSONSerialization.data(withJSONObject: ["command": words, "request_id": id])
            try sendLine(String(decoding: request, as: UTF8.self))
            while true {
                let reply = try line()
                if reply["event"] == nil {
                    #expect(reply["request_id"] as? Int == id)
                    return reply
                }
            }
        }

        func status() throws -> [String: Any] { try #require(command("status")["data"] as? [String: Any]) }
    }

    static func succeeded(_ reply: [String: Any]) -> Bool { reply["error"] as? String == "success" }

    @Test func everyCommandAnswersAndActs() throws {
        let session = try Session()
        let client = try Client(session.socket)
        var status = try client.status()
        #expect(status["title"] as? String == "ctl")
        #expect(status["device"] as? String == "none")
        #expect(status["duration"] as? Int == 60)
        #expect(status["state"] as? String == "playing")
        #expect(status["xruns"] as? Int == 0)
        #expect((status["parameters"] as? [String: Any])?["speed"] as? Int == 20)

        #expect(Self.succeeded(try client.command("pause")))
        Thread.sleep(forTimeInterval: 0.4)
        #expect(try client.status()["state"] as? String == "paused")
        #expect(Self.succeeded(try client.command("resume")))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try client.status()["state"] as? String == "playing")
        #expect(Self.succeeded(try client.command("toggle")))
        Thread.sleep(forTimeInterval: 0.4)
        #expect(try client.status()["state"] as? String == "paused")
        #expect(Self.succeeded(try client.command("toggle")))

        #expect(Self.succeeded(try client.command("seek", 30, "absolute")))
        Thread.sleep(forTimeInterval: 0.3)
        status = try client.status()
        var position = try #require(status["position"] as? Double)
        #expect(position > 29.9 && position < 30.6, "\(position)")
        // The segment as people see it (the mark's title), and the mark's name.
        #expect(status["segment"] as? String == "cruising")
        #expect(status["mark"] as? String == "cruise")
        #expect(Self.succeeded(try client.command("seek", "-10s")))
        Thread.sleep(forTimeInterval: 0.3)
        position = try #require(try client.status()["position"] as? Double)
        #expect(position > 19.9 && position < 21, "\(position)")

        #expect(Self.succeeded(try client.command("set", "speed", 40)))
        #expect(Self.succeeded(try client.command("speed", 45)))
        status = try client.status()
        #expect((status["parameters"] as? [String: Any])?["speed"] as? Int == 45)
        #expect((try client.command("set", "speed", 400)["error"] as? String)?.contains("speed must be 0–80") == true)
        #expect((try client.command("set", "gear", 2)["error"] as? String)?.contains("no parameter 'gear'") == true)

        #expect(Self.succeeded(try client.command("volume", 50)))
        #expect(Self.succeeded(try client.command("volume", "radio", "-6dB")))
        #expect(Self.succeeded(try client.command("mute")))
        var volume = try #require(try client.status()["volume"] as? [String: Any])
        #expect(abs((volume["master"] as? Double ?? 0) - -18.06) < 0.01)
        #expect((volume["buses"] as? [String: Any])?["radio"] as? Int == -6)
        #expect(volume["muted"] as? Bool == true)
        #expect(Self.succeeded(try client.command("mute", "off")))
        volume = try #require(try client.status()["volume"] as? [String: Any])
        #expect(volume["muted"] as? Bool == false)
        #expect((try client.command("volume", "nosuchbus", 80)["error"] as? String)?.contains("no bus named 'nosuchbus'") == true)
        #expect((try client.command("volume", "loud")["error"] as? String)?.contains("is not a volume") == true)

        #expect(try client.command("trigger", "leave-focus")["error"] as? String == "no live event 'leave-focus' in this session (it has none)")
        #expect(try client.command("next-station")["error"] as? String == "no radio in this session")
        #expect(try client.command("previous-station")["error"] as? String == "no radio in this session")
        #expect((try client.command("fly")["error"] as? String)?.hasPrefix("unknown command 'fly'") == true)
        #expect((try client.command("pause", 3)["error"] as? String)?.contains("takes no arguments") == true)
        let help = try #require(try client.command("help")["data"] as? [String: Any])
        #expect(Set(help["buses"] as? [String] ?? []).isSuperset(of: ["engine", "radio"]))

        #expect(Self.succeeded(try client.command("stop")))
        #expect(session.finish() == 0)
        let events = session.events()
        #expect(events.last?["event"] as? String == "end")
        #expect(events.last?["reason"] as? String == "stopped")
        // The commands' effects are events too, as --json prints them.
        let kinds = events.compactMap { $0["event"] as? String }
        #expect(kinds.contains("pause") && kinds.contains("resume") && kinds.contains("seek") && kinds.contains("volume"))
    }

    @Test func observeStreamsTheEventsJsonPrintsAndQuitEnds() throws {
        let session = try Session()
        let client = try Client(session.socket)
        #expect(Self.succeeded(try client.command("observe")))
        let other = try Client(session.socket)
        #expect(Self.succeeded(try other.command("pause")))
        // Every event comes (the session's first mark may come before the pause, and so may
        // the latency going low for the command: automatic latency, an interaction).
        var event = try client.line()
        while ["mark", "latency"].contains(event["event"] as? String) { event = try client.line() }
        #expect(event["event"] as? String == "pause")
        #expect(event["time"] is Double || event["time"] is Int)
        #expect(Self.succeeded(try other.command("quit")))
        var last: [String: Any] = [:]
        while last["event"] as? String != "end" { last = try client.line() }
        #expect(last["reason"] as? String == "stopped")
        #expect(session.finish() == 0)
        // The same line --json printed.
        let printed = session.events().last { $0["event"] as? String == "end" }
        #expect(printed.map { NSDictionary(dictionary: $0) } == NSDictionary(dictionary: last))
    }

    @Test func aMalformedLineGetsAnErrorAndTheConnectionStaysUsable() throws {
        let session = try Session()
        let client = try Client(session.socket)
        for bad in ["garbage", "{\"command\": \"pa", "[1, 2]", "{\"request_id\": 3}", "{\"command\": [], \"request_id\": 4}",
                    "{\"command\": [\"status\"], \"request_id\": 1.5}", String(repeating: "x", count: 100_000)] {
            try client.sendLine(bad)
            let reply = try client.line()
            #expect((reply["error"] as? String)?.hasPrefix(bad.count > 70_000 ? "request too long" : "malformed request") == true,
                    "\(bad.prefix(40)): \(reply)")
        }
        #expect(try client.status()["state"] as? String == "playing")
        #expect(Self.succeeded(try client.command("stop")))
        #expect(session.finish() == 0)
    }

    @Test func aClientThatNeverReadsDoesNotBlockThePlayerOrOthers() throws {
        let session = try Session(duration: "4s")
        let started = Date()
        // Observes and floods requests, and never reads a byte of the replies. Its sends give
        // up after 0.2 s: once its socket is full (the server no longer reads a client whose
        // replies cannot leave) or it is dropped, the flood is over.
        let silent = try Client(session.socket, timeoutSeconds: 0.2)
        try silent.sendLine("{\"command\": [\"observe\"]}")
        let status = Array((String(repeating: "{\"command\": [\"status\"]}\n", count: 200)).utf8)
        var flooded = 0
        while flooded < 20_000 {
            guard (try? silent.connection.sendAll(status)) != nil else { break }   // dropped, or its socket full
            flooded += 200
        }
        // Another client is answered at once, and the session plays on to its end on time.
        let other = try Client(session.socket)
        let asked = Date()
        let position = try #require(try other.status()["position"] as? Double)
        #expect(Date().timeIntervalSince(asked) < 0.5)
        #expect(position > 0)
        #expect(session.finish() == 0)
        let took = Date().timeIntervalSince(started)
        #expect(took > 3.5 && took < 5.5, "a 4 s session took \(took) s")
        #expect(session.events().last?["reason"] as? String == "finished")
    }

    @Test func twoClientsAtOnce() throws {
        let session = try Session()
        let a = try Client(session.socket), b = try Client(session.socket)
        // Interleaved: each gets its own replies, with its own request ids.
        a.nextID = 100
        b.nextID = 200
        try a.sendLine("{\"command\": [\"status\"], \"request_id\": 100}")
        try b.sendLine("{\"command\": [\"set\", \"speed\", 60], \"request_id\": 200}")
        let replyA = try a.line(), replyB = try b.line()
        #expect(replyA["request_id"] as? Int == 100 && Self.succeeded(replyA))
        #expect(replyB["request_id"] as? Int == 200 && Self.succeeded(replyB))
        a.nextID = 101
        #expect((try a.status()["parameters"] as? [String: Any])?["speed"] as? Int == 60)
        #expect(Self.succeeded(try b.command("stop")))
        #expect(session.finish() == 0)
    }

    @Test func ctlIsTheClient() throws {
        let session = try Session()
        let ipc = ["--ipc", session.socket]
        #expect(try ExternalTool.cabin(["ctl"] + ipc + ["pause"]).status == 0)
        #expect(try ExternalTool.cabin(["ctl"] + ipc + ["speed", "40"]).status == 0)
        #expect(try ExternalTool.cabin(["ctl"] + ipc + ["seek", "-5"]).status == 0)
        Thread.sleep(forTimeInterval: 0.5)   // the pause's 200 ms fade
        let json = try ExternalTool.cabin(["ctl"] + ipc + ["status", "--json"])
        #expect(json.status == 0)
        let status = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(status["state"] as? String == "paused")
        #expect((status["parameters"] as? [String: Any])?["speed"] as? Int == 40)
        #expect(try ExternalTool.cabin(["ctl"] + ipc + ["seek", "20", "absolute"]).status == 0)
        Thread.sleep(forTimeInterval: 0.2)
        let plain = try ExternalTool.cabin(["ctl"] + ipc + ["status"])
        #expect(plain.stdout.hasPrefix("ctl  paused  0:"), "\(plain.stdout)")
        #expect(plain.stdout.contains("\nsegment: cruising\n"), "\(plain.stdout)")
        #expect(plain.stdout.contains("parameters: speed 40"))
        let unknown = try ExternalTool.cabin(["ctl"] + ipc + ["trigger", "leave-focus"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "cabin: error: no live event 'leave-focus' in this session (it has none)\n")
        #expect(try ExternalTool.cabin(["ctl"] + ipc + ["quit"]).status == 0)
        #expect(session.finish() == 0)
        let gone = try ExternalTool.cabin(["ctl"] + ipc + ["status"])
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("is 'cabin play' running with this socket?"))
    }

    @Test func theSocketIsPrivate() throws {
        let runtime = try TestEnvironment.temporaryDirectory("cabin-xdg")
        chmod(runtime.path, 0o700)
        let dir = try TestEnvironment.temporaryDirectory("cabin-ctl")
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session.replacingOccurrences(of: "DURATION", with: "2s").utf8).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment(["XDG_RUNTIME_DIR": runtime.path])
        process.arguments = ["play", path, "-D", "none", "--quiet"]
        try process.run()
        let socket = runtime.appendingPathComponent("cabin/control").path
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        var info = stat()
        #expect(lstat(socket, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(lstat(runtime.appendingPathComponent("cabin").path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket is removed at the end")
    }

    /// A socket bound at `path` and listening with `backlog`, never accepting (a hung
    /// program); its descriptor.
    static func hungListener(_ path: String, backlog: Int32) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes.prefix(raw.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(fd, backlog) == 0, "bind/listen \(path): \(errno)")
        return fd
    }

    /// Issue 31.4, the control socket taken from a live player: any failed test connect
    /// counted as stale, so a live listener whose backlog was full (a hung program) lost its
    /// socket after a 1 s timeout, and another user's socket was replaced. Now only
    /// ECONNREFUSED on a socket of this user's is stale; the rest is one line, the socket
    /// left in place.
    @Test func theControlSocketCannotBeTakenFromALivePlayer() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-ctl-take")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session.replacingOccurrences(of: "DURATION", with: "1500ms").utf8).write(to: URL(fileURLWithPath: path))
        let socketPath = dir.appendingPathComponent("control").path
        func inode() -> ino_t? { var info = stat(); return lstat(socketPath, &info) == 0 ? info.st_ino : nil }

        // A hung listener with a full backlog: not replaced.
        let hung = try Self.hungListener(socketPath, backlog: 0)
        var fillers: [Int32] = []
        for _ in 0..<4 {
            let c = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socketPath.utf8).prefix($0.count - 1)) }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(c, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            fillers.append(c)
        }
        let before = inode()
        let taken = try ExternalTool.cabin(["play", path, "-D", "none", "--ipc", socketPath, "--quiet"])
        #expect(taken.status == 1, "\(taken.stderr)")
        #expect(taken.stderr.contains("does not answer") && taken.stderr.contains("not replacing it")
                && taken.stderr.split(separator: "\n").count == 1, "\(taken.stderr)")
        #expect(inode() == before && before != nil, "the hung program's socket is still there")
        for fd in fillers + [hung] { close(fd) }

        // Now stale (nothing listens, ECONNREFUSED) and this user's: replaced, and the session plays.
        let stale = try ExternalTool.cabin(["play", path, "-D", "none", "--ipc", socketPath, "--quiet"])
        #expect(stale.status == 0, "\(stale.stderr)")

        // Another user's socket (stale or not) is never replaced.
        if getuid() == 0 {
            close(try Self.hungListener(socketPath, backlog: 1))
            #expect(chown(socketPath, 65534, 65534) == 0)
            let theirs = try ExternalTool.cabin(["play", path, "-D", "none", "--ipc", socketPath, "--quiet"])
            #expect(theirs.status == 1)
            #expect(theirs.stderr.contains("belongs to another user (uid 65534); not replacing it")
                    && theirs.stderr.split(separator: "\n").count == 1, "\(theirs.stderr)")
            #expect(FileManager.default.fileExists(atPath: socketPath))
        }
    }
}
