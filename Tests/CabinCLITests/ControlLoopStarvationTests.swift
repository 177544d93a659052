import CabinIO
import CabinTestSupport
import Foundation
import Glibc
import Testing

/// Issue 31, class 5, "the control loop can be starved": each from its reproducer, against
/// the real `cabin play -D none --ipc` (on the system clock), with generated inputs. The
/// bounds are far from the figures before the fix (`scripts/control-starvation` prints
/// both), as this is a loaded 2-core machine: each says which.
@Suite(.serialized)
struct ControlLoopStarvationTests {
    /// A `duration` session of one looping tone, plus `cues` (JSON objects, comma-separated).
    static func session(_ duration: String, cues: String = "") -> String {
        """
        { "cabin": 1, "title": "starve", "duration": "\(duration)",
          "layers": { "tone": { "bus": "ambient", "sound": "synth:sine?frequency=220", "loop": true } },
          "cues": [ { "at": 0, "start": "tone" }\(cues.isEmpty ? "" : ", " + cues) ] }
        """
    }

    /// Writes the session into a new folder; the document's path and the socket's.
    static func prepare(_ text: String) throws -> (dir: URL, document: String, socket: String) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-starve")
        let document = dir.appendingPathComponent("s.json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: document))
        return (dir, document, dir.appendingPathComponent("control").path)
    }

    static func waitForSocket(_ path: String) {
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: path) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    /// A raw client socket, non-blocking (for floods that must never wait); nil when refused.
    static func rawClient(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8).prefix($0.count - 1)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { close(fd); return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Sends what the socket takes now of `bytes`; how many.
    @discardableResult
    static func sendSome(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        max(0, bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) })
    }

    /// What is there to read now (waiting at most `timeout` s for the first byte).
    static func receiveSome(_ fd: Int32, timeout: Double) -> String {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000)) > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return n > 0 ? String(decoding: buffer.prefix(n), as: UTF8.self) : ""
    }

    /// Seconds a well-behaved client waits for its `status` reply.
    static func statusLatency(_ client: ControlSocketTests.Client) throws -> Double {
        let asked = Date()
        let status = try client.status()
        #expect(status["title"] as? String == "starve")
        return Date().timeIntervalSince(asked)
    }

    /// The reproducer: the open-file limit at 64 (prlimit on the real binary) and 100
    /// clients connecting. Before: `accept` failed with EMFILE while the listener stayed
    /// readable — a busy loop — the clients past the limit hung unanswered, the state file
    /// was not saved ("too many open files") and the 60 s session ran to its end within a
    /// second. Now the clients past the session's limit get one line saying why and are
    /// closed, the player says so once, the first client is answered, the processor is idle
    /// (bound: 25 % of a core, far from the busy loop's 100 %), `cabin ctl` says the same
    /// line, and Ctrl-C saves the position.
    @Test func atTheOpenFileLimitClientsAreRefusedInALineAndTheStateIsSaved() throws {
        guard let prlimit = ExternalTool.which("prlimit") else {
            print("skipped: prlimit (util-linux) is not installed")
            return
        }
        let (dir, document, socketPath) = try Self.prepare(Self.session("60s"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state").path
        let player = try RunningTool(prlimit, ["--nofile=64:64", ExternalTool.cabinBinary, "play", document, "-D", "none",
                                               "--ipc", socketPath, "--no-mpris", "--json"],
                                     environment: ["XDG_STATE_HOME": state])
        Self.waitForSocket(socketPath)
        Thread.sleep(forTimeInterval: 0.3)
        var clients: [Int32] = []
        for _ in 0..<100 { if let fd = Self.rawClient(socketPath) { clients.append(fd) } }
        defer { for fd in clients { close(fd) } }
        #expect(clients.count == 100, "\(clients.count) of 100 connected")
        // The refused ones each got one line and were closed.
        Thread.sleep(forTimeInterval: 0.5)
        var refused = 0, served = 0
        var limit = 0
        for fd in clients {
            let text = Self.receiveSome(fd, timeout: 0.01)
            if text.isEmpty { served += 1; continue }
            refused += 1
            let reply = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
            let error = reply["error"] as? String ?? ""
            #expect(error.hasPrefix("too many clients: this session takes ") && error.hasSuffix(" at once under its open-file limit of 64; try again when one has gone"),
                    "\(text)")
            limit = Int(error.dropFirst("too many clients: this session takes ".count).prefix { $0.isNumber }) ?? 0
        }
        // The clients it serves leave a quarter of the 64 descriptors free (and those it had).
        #expect(limit == served && served >= 8 && served <= 48 && refused == 100 - served, "\(served) served, \(refused) refused, limit \(limit)")
        let ctl = try ExternalTool.cabin(["ctl", "--ipc", socketPath, "status"])
        #expect(ctl.status == 1)
        #expect(ctl.stderr.hasPrefix("cabin: error: too many clients: this session takes \(limit) at once")
                && ctl.stderr.split(separator: "\n").count == 1, "\(ctl.stderr)")
        // Idle while they stay connected, and still playing.
        let before = player.cpuSeconds
        Thread.sleep(forTimeInterval: 2)
        let busy = (player.cpuSeconds - before) / 2
        print("at the open-file limit: \(served) clients served, \(refused) refused; cabin's CPU \(Int(busy * 100))% of a core")
        #expect(busy < 0.25, "\(busy * 100)% of a core")
        // The first client (served) is answered.
        let first = clients[0]
        Self.sendSome(first, Array("{\"command\": [\"status\"], \"request_id\": 5}\n".utf8))
        let answer = Self.receiveSome(first, timeout: 1)
        #expect(answer.contains("\"request_id\":5") && answer.contains("\"state\":\"playing\""), "\(answer)")
        #expect(player.interrupt() == 0)
        let warnings = player.stderr.split(separator: "\n").filter { $0.hasPrefix("cabin: warning:") }
        #expect(warnings == ["cabin: warning: control socket: \(limit) clients connected, the most it takes under its open-file limit of 64: refusing others"],
                "\(player.stderr)")
        // The state file was saved at the stop, with the position reached (about 3 s).
        let saved = try Data(contentsOf: URL(fileURLWithPath: state + "/cabin/state.json"))
        let session = try #require((try JSONSerialization.jsonObject(with: saved) as? [String: Any])?["session"] as? [String: Any])
        let position = try #require(session["position"] as? Double)
        #expect(position > 2 && position < 10, "saved position \(position)")
        #expect(player.stdout.contains("\"reason\":\"stopped\""), "\(player.stdout.suffix(300))")
    }

    /// The reproducer: 200 clients flood `status` requests for 1.5 s and never read a reply;
    /// then a well-behaved client asks for the status 5 times. Before: its first reply took
    /// 4.7 s (5.0 s in the issue). Now each comes within 1 s (bound), the flooders fill
    /// their own sockets and are then not read, and the player's memory stays bounded.
    @Test func twoHundredFloodersDoNotHoldUpAWellBehavedClient() throws {
        let (dir, document, socketPath) = try Self.prepare(Self.session("60s"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let player = try RunningTool.cabin(["play", document, "-D", "none", "--ipc", socketPath, "--no-mpris", "--quiet"])
        Self.waitForSocket(socketPath)
        let flooders = (0..<200).compactMap { _ in Self.rawClient(socketPath) }
        defer { for fd in flooders { close(fd) } }
        #expect(flooders.count == 200)
        let requests = Array(String(repeating: "{\"command\": [\"status\"]}\n", count: 200).utf8)
        let until = Date().addingTimeInterval(1.5)
        var sent = 0
        while Date() < until { for fd in flooders { sent += Self.sendSome(fd, requests) } }
        let good = try ControlSocketTests.Client(socketPath)
        let latencies = try (0..<5).map { _ in try Self.statusLatency(good) }
        let memory = player.peakResidentMegabytes
        print("200 flooders (\(sent / 1024) KB of requests sent): a well-behaved client's status replies took "
              + latencies.map { "\(Int($0 * 1000)) ms" }.joined(separator: ", ") + "; cabin's peak RSS \(Int(memory)) MB")
        for latency in latencies { #expect(latency < 1, "\(latency) s") }
        #expect(memory < 200, "\(memory) MB")
        #expect(ControlSocketTests.succeeded(try good.command("stop")))
        #expect(player.interrupt() == 0)
        #expect(player.stderr.isEmpty, "\(player.stderr)")
    }

    /// The reproducer: one client pipelining seeks (forward and back) as fast as the socket
    /// takes them for 4 s, reading its replies. Before: ~19,000 seeks/s took 56–89 % of a
    /// core. Now it gets its turn of `requestsPerTurn` a tick: cabin's CPU stays under 25 %
    /// of a core (bound), the seeks are still answered in order, and another client is
    /// answered within 0.5 s.
    @Test func aPipeliningClientGetsTurnsNotTheProcessor() throws {
        let (dir, document, socketPath) = try Self.prepare(Self.session("600s"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let player = try RunningTool.cabin(["play", document, "-D", "none", "--ipc", socketPath, "--no-mpris", "--quiet"])
        Self.waitForSocket(socketPath)
        let seeker = try #require(Self.rawClient(socketPath))
        defer { close(seeker) }
        let seeks = Array(String(repeating: "{\"command\": [\"seek\", 5]}\n{\"command\": [\"seek\", -5]}\n", count: 100).utf8)
        let before = player.cpuSeconds, started = Date()
        var pending = seeks[...], replies = 0, other: Double? = nil
        while Date().timeIntervalSince(started) < 4 {
            var pfd = pollfd(fd: seeker, events: Int16(POLLIN | POLLOUT), revents: 0)
            _ = poll(&pfd, 1, 50)
            if pfd.revents & Int16(POLLOUT) != 0 {
                let n = pending.withUnsafeBytes { send(seeker, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                if n > 0 { pending = pending.dropFirst(n) }
                if pending.isEmpty { pending = seeks[...] }
            }
            if pfd.revents & Int16(POLLIN) != 0 {
                replies += Self.receiveSome(seeker, timeout: 0).split(separator: "\n").filter { $0.contains("\"error\":\"success\"") }.count
            }
            if other == nil && Date().timeIntervalSince(started) > 2 {
                other = try Self.statusLatency(try ControlSocketTests.Client(socketPath))
            }
        }
        let wall = Date().timeIntervalSince(started), used = player.cpuSeconds - before
        print("a pipelining seek client: \(Int(Double(replies) / wall)) seeks/s answered; cabin's CPU \(String(format: "%.2f", used)) s in \(String(format: "%.1f", wall)) s (\(Int(used / wall * 100))% of a core); another client's status \(Int((other ?? -1) * 1000)) ms")
        #expect(used / wall < 0.25, "\(used) s of CPU in \(wall) s")
        #expect(replies > 100, "\(replies) seeks answered")
        #expect((other ?? 9) < 0.5)
        #expect(player.interrupt() == 0)
        #expect(player.stderr.isEmpty, "\(player.stderr)")
    }

    /// The reproducer: `--json` into a pipe nobody reads, a 3 s session whose 4,000 marks
    /// print 600 KB of lines in its first 2 s (a pipe holds 64 KB). Before: the control
    /// loop blocked on stdout — the socket did not answer and the session was still running
    /// at 15 s (it ended at 17 s, when the pipe was read). Now the session ends on time (3 s
    /// and at most 2 s waiting for stdout; bound 7 s), the socket answers meanwhile (bound
    /// 1 s), one line counts the events dropped, and what reached the pipe is whole lines.
    @Test func aJsonReaderThatStopsReadingHoldsUpNeitherTheSocketNorTheEnd() throws {
        let marks = (0..<4000).map { "{ \"at\": \"\($0 / 2)ms\", \"mark\": { \"name\": \"m\($0)\", \"title\": \"\(String(repeating: "x", count: 100))\" } }" }
        let (dir, document, socketPath) = try Self.prepare(Self.session("3s", cues: marks.joined(separator: ", ")))
        defer { try? FileManager.default.removeItem(at: dir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.arguments = ["play", document, "-D", "none", "--ipc", socketPath, "--no-mpris", "--json"]
        process.environment = ExternalTool.childEnvironment()
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let started = Date()
        try process.run()
        Self.waitForSocket(socketPath)
        Thread.sleep(forTimeInterval: 1.5)
        let latency = try Self.statusLatency(try ControlSocketTests.Client(socketPath))
        while process.isRunning && Date().timeIntervalSince(started) < 15 { Thread.sleep(forTimeInterval: 0.02) }
        let ended = Date().timeIntervalSince(started)
        let stillRunning = process.isRunning
        if stillRunning { process.terminate() }
        process.waitUntilExit()
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()   // what reached the pipe (64 KB)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        print("--json into a pipe nobody reads: the socket answered in \(Int(latency * 1000)) ms; the 3 s session ended at \(String(format: "%.1f", ended)) s; \(printed.count) bytes reached the pipe")
        #expect(!stillRunning && ended < 7, "ended at \(ended) s")
        #expect(process.terminationStatus == 0)
        #expect(latency < 1, "\(latency) s")
        let warnings = errors.split(separator: "\n").filter { $0.hasPrefix("cabin: warning:") }
        #expect(warnings.count == 1 && warnings.first?.hasSuffix(" events dropped: stdout is not being read") == true, "\(errors)")
        let dropped = Int(warnings.first?.dropFirst("cabin: warning: ".count).split(separator: " ").first ?? "") ?? 0
        #expect(dropped > 1000 && dropped <= 4002, "\(dropped) dropped")
        // Whole JSON lines, never half of one.
        let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "", "the pipe ends in the middle of a line")
        #expect(lines.dropLast().allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
        #expect(lines.count > 100)
    }
}
