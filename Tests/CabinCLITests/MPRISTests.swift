import CabinTestSupport
import Foundation
import Glibc
import Testing

/// MPRIS with the real things: a private `dbus-daemon --session` per test, the real
/// `cabin play -D none` (the system clock, no sound device needed) on a session with
/// segments, and Debian's `playerctl` (and `dbus-send`, `dbus-monitor`) as the clients; what
/// the player really did is read from its control socket (`cabin ctl status --json`).
@Suite(.serialized, .enabled(if: SessionBusDaemon.problem == nil, Comment(rawValue: SessionBusDaemon.problem ?? "")))
struct MPRISTests {
    static let session = """
        { "cabin": 1, "title": "Drive to Yosemite", "duration": "60s",
          "layers": { "engine": { "bus": "engine", "sound": "synth:sine?frequency=110", "loop": true },
                      "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
          "cues": [ { "at": 0, "start": ["engine", "rain"], "fadeIn": "100ms", "mark": "drive" },
                    { "at": "40s", "mark": { "name": "rest", "title": "rest stop" } } ] }
        """

    /// A running `cabin play -D none --ipc …` on `bus`.
    final class Player {
        let process = Process()
        let socket: String
        let directory: URL
        let stderr = Pipe()

        init(bus: SessionBusDaemon?, environment: [String: String]? = nil, extra: [String] = []) throws {
            directory = try TestEnvironment.temporaryDirectory("cabin-mpris")
            let path = directory.appendingPathComponent("s.json").path
            try Data(MPRISTests.session.utf8).write(to: URL(fileURLWithPath: path))
            socket = directory.appendingPathComponent("control").path
            process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
            process.environment = ExternalTool.childEnvironment(environment ?? bus?.environment ?? [:])
            process.arguments = ["play", path, "-D", "none", "--ipc", socket, "--quiet"] + extra
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }

        /// `cabin ctl status --json` on its socket.
        func status() throws -> [String: Any] {
            let result = try ExternalTool.cabin(["ctl", "--ipc", socket, "status", "--json"])
            guard let status = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
                throw NoStatus(description: "cabin ctl status: \(result.stderr)")
            }
            return status
        }

        /// Waits (at most 5 s) until `check` holds for the status; the last status.
        @discardableResult
        func waitForStatus(_ what: String, _ check: ([String: Any]) -> Bool) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(5)
            var last: [String: Any] = [:]
            while Date() < deadline {
                last = (try? status()) ?? [:]   // no socket yet while it starts
                if check(last) { return last }
                Thread.sleep(forTimeInterval: 0.05)
            }
            Issue.record("the player never got to \(what): \(last)")
            return last
        }

        func finish(timeout: Double = 10) -> Int32 {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }

        struct NoStatus: Error, CustomStringConvertible { var description: String }

        var errors: String { String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
    }

    /// `playerctl ARGS` on `bus`: its output, trimmed.
    static func playerctl(_ bus: SessionBusDaemon, _ arguments: String...) throws -> String {
        let result = try ExternalTool.run("playerctl", arguments, environment: bus.environment)
        #expect(result.status == 0, "playerctl \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits (at most 10 s) until `playerctl -p NAME status` answers `Playing`.
    static func waitForPlayer(_ bus: SessionBusDaemon, name: String = "cabin") throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let result = try ExternalTool.run("playerctl", ["-p", name, "status"], environment: bus.environment)
            if result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Playing" { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("no MPRIS player \(name) on the bus within 10 s")
    }

    static func state(_ status: [String: Any]) -> String? { status["state"] as? String }
    static func position(_ status: [String: Any]) -> Double { (status["position"] as? Double) ?? Double(status["position"] as? Int ?? -1) }

    @Test func playerctlDrivesThePlayer() throws {
        let bus = try SessionBusDaemon()
        let player = try Player(bus: bus)
        try Self.waitForPlayer(bus)

        #expect(try Self.playerctl(bus, "-l") == "cabin")
        #expect(try Self.playerctl(bus, "-p", "cabin", "metadata", "title") == "Drive to Yosemite · drive")
        #expect(try Self.playerctl(bus, "-p", "cabin", "metadata", "mpris:length") == "60000000")
        #expect(try Self.playerctl(bus, "-p", "cabin", "metadata", "mpris:trackid") == "'/org/cabin/Cabin/session'")   // playerctl quotes object paths

        #expect(try Self.playerctl(bus, "-p", "cabin", "pause") == "")
        try player.waitForStatus("paused") { Self.state($0) == "paused" }
        #expect(try Self.playerctl(bus, "-p", "cabin", "status") == "Paused")
        #expect(try Self.playerctl(bus, "-p", "cabin", "play") == "")
        try player.waitForStatus("playing") { Self.state($0) == "playing" }
        #expect(try Self.playerctl(bus, "-p", "cabin", "status") == "Playing")
        #expect(try Self.playerctl(bus, "-p", "cabin", "play-pause") == "")
        try player.waitForStatus("paused by play-pause") { Self.state($0) == "paused" }
        #expect(try Self.playerctl(bus, "-p", "cabin", "play-pause") == "")
        try player.waitForStatus("playing by play-pause") { Self.state($0) == "playing" }

        // Volume: MPRIS's 0.5 is 50 % on mpv's scale, −18.06 dB on the master.
        #expect(try Self.playerctl(bus, "-p", "cabin", "volume", "0.5") == "")
        let status = try player.waitForStatus("volume 50 %") { abs((($0["volume"] as? [String: Any])?["master"] as? Double ?? 0) + 18.06) < 0.01 }
        #expect((status["volume"] as? [String: Any])?["muted"] as? Bool == false)
        let volume = try #require(Double(try Self.playerctl(bus, "-p", "cabin", "volume")))
        #expect(abs(volume - 0.5) < 1e-6)

        // SetPosition (absolute), then Seek (relative), then into the second segment.
        #expect(try Self.playerctl(bus, "-p", "cabin", "position", "30") == "")
        try player.waitForStatus("position 30") { abs(Self.position($0) - 30.3) < 0.4 }
        let reported = try #require(Double(try Self.playerctl(bus, "-p", "cabin", "position")))
        #expect(reported > 29.9 && reported < 31, "\(reported)")
        #expect(try Self.playerctl(bus, "-p", "cabin", "position", "10-") == "")
        try player.waitForStatus("position 20") { abs(Self.position($0) - 20.3) < 0.5 }
        #expect(try Self.playerctl(bus, "-p", "cabin", "position", "45") == "")
        try player.waitForStatus("the rest stop") { $0["segment"] as? String == "rest stop" && $0["mark"] as? String == "rest" }
        let deadline = Date().addingTimeInterval(2)
        var title = ""
        while Date() < deadline {
            title = try Self.playerctl(bus, "-p", "cabin", "metadata", "title")
            if title.hasSuffix("rest stop") { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(title == "Drive to Yosemite · rest stop")

        // Stop ends the session as 'cabin ctl stop' does.
        #expect(try Self.playerctl(bus, "-p", "cabin", "stop") == "")
        #expect(player.finish() == 0)
        #expect(player.errors == "")
    }

    /// `playerctl --follow` prints what PropertiesChanged says; `dbus-monitor` sees Seeked.
    @Test func changesAreSignalled() throws {
        let bus = try SessionBusDaemon()
        let player = try Player(bus: bus)
        try Self.waitForPlayer(bus)
        let follow = try Follower(bus, ["-p", "cabin", "--follow", "metadata", "--format", "{{status}} {{title}} {{volume}}"])
        let monitor = try Follower(bus, ["dbus-monitor", "--session", "type='signal',member='Seeked'"], program: "dbus-monitor")
        Thread.sleep(forTimeInterval: 0.5)   // both subscribed
        _ = try Self.playerctl(bus, "-p", "cabin", "pause")
        try player.waitForStatus("paused") { Self.state($0) == "paused" }
        _ = try Self.playerctl(bus, "-p", "cabin", "volume", "0.25")
        _ = try Self.playerctl(bus, "-p", "cabin", "play")
        try player.waitForStatus("playing") { Self.state($0) == "playing" }
        _ = try Self.playerctl(bus, "-p", "cabin", "position", "41")
        try player.waitForStatus("the rest stop") { $0["segment"] as? String == "rest stop" }
        Thread.sleep(forTimeInterval: 0.5)
        let lines = follow.stop()
        let seekSignals = monitor.stop().filter { $0.contains("member=Seeked") }
        _ = try Self.playerctl(bus, "-p", "cabin", "stop")
        #expect(player.finish() == 0)
        // Every change arrived as a signal, in order (playerctl prints one line per change).
        let expected = ["Playing Drive to Yosemite · drive 1.0", "Paused Drive to Yosemite · drive 1.0",
                        "Paused Drive to Yosemite · drive 0.25", "Playing Drive to Yosemite · drive 0.25",
                        "Playing Drive to Yosemite · rest stop 0.25"]
        var unique: [String] = []
        for line in lines where unique.last != line { unique.append(line) }
        #expect(unique == expected, "\(lines)")
        #expect(seekSignals.count == 1, "\(seekSignals)")
    }

    /// MPRIS's root interface, read with dbus-send; Quit ends the session with no `--then`.
    @Test func rootInterfaceAndQuit() throws {
        let bus = try SessionBusDaemon()
        let marker = try TestEnvironment.temporaryDirectory("cabin-mpris").appendingPathComponent("then-ran").path
        let player = try Player(bus: bus, extra: ["--then", "touch \(marker)"])
        try Self.waitForPlayer(bus)
        let all = try ExternalTool.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.cabin",
                                                     "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.GetAll",
                                                     "string:org.mpris.MediaPlayer2"], environment: bus.environment)
        #expect(all.status == 0, "\(all.stderr)")
        let flat = all.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (name, value) in [("Identity", "string \"Cabin\""), ("DesktopEntry", "string \"cabin\""), ("CanQuit", "boolean true"),
                              ("CanRaise", "boolean false"), ("HasTrackList", "boolean false")] {
            #expect(flat.contains("string \"\(name)\" variant \(value)"), "\(name): \(flat)")
        }
        #expect(flat.contains("string \"SupportedUriSchemes\" variant array [ ]"), "\(flat)")
        let player2 = try ExternalTool.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.cabin",
                                                         "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties.GetAll",
                                                         "string:org.mpris.MediaPlayer2.Player"], environment: bus.environment)
        let flat2 = player2.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for (name, value) in [("CanPlay", "boolean true"), ("CanPause", "boolean true"), ("CanSeek", "boolean true"),
                              ("CanControl", "boolean true"), ("CanGoNext", "boolean false"), ("CanGoPrevious", "boolean false"),
                              ("Rate", "double 1"), ("MinimumRate", "double 1"), ("MaximumRate", "double 1")] {
            #expect(flat2.contains("string \"\(name)\" variant \(value)"), "\(name): \(flat2)")
        }
        // A stale track id is ignored (the spec); the session's own moves the player.
        _ = try ExternalTool.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.cabin", "/org/mpris/MediaPlayer2",
                                               "org.mpris.MediaPlayer2.Player.SetPosition", "objpath:/org/cabin/Cabin/other", "int64:30000000"],
                                 environment: bus.environment)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(Self.position(try player.status()) < 5)
        let quit = try ExternalTool.run("dbus-send", ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.cabin",
                                                      "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit"], environment: bus.environment)
        #expect(quit.status == 0, "\(quit.stderr)")
        #expect(player.finish() == 0)
        #expect(!FileManager.default.fileExists(atPath: marker), "--then ran after Quit")
    }

    /// Two sessions at once: the second is `cabin.instance<PID>`, and each answers for itself.
    @Test func aSecondPlayerTakesAnInstanceName() throws {
        let bus = try SessionBusDaemon()
        let first = try Player(bus: bus)
        try Self.waitForPlayer(bus)
        let second = try Player(bus: bus)
        let instance = "cabin.instance\(second.process.processIdentifier)"
        try Self.waitForPlayer(bus, name: instance)
        #expect(Set(try Self.playerctl(bus, "-l").split(separator: "\n").map(String.init)) == ["cabin", instance])
        _ = try Self.playerctl(bus, "-p", instance, "pause")
        try second.waitForStatus("paused") { Self.state($0) == "paused" }
        #expect(Self.state(try first.status()) == "playing")
        _ = try Self.playerctl(bus, "-p", "cabin", "stop")
        _ = try Self.playerctl(bus, "-p", instance, "stop")
        #expect(first.finish() == 0)
        #expect(second.finish() == 0)
    }

    @Test func noMPRISLeavesTheBusAlone() throws {
        let bus = try SessionBusDaemon()
        let player = try Player(bus: bus, extra: ["--no-mpris"])
        try player.waitForStatus("playing") { Self.state($0) == "playing" }
        let list = try ExternalTool.run("playerctl", ["-l"], environment: bus.environment)
        #expect(list.stdout == "" && list.stderr.contains("No players found"), "\(list)")
        _ = try ExternalTool.cabin(["ctl", "--ipc", player.socket, "stop"])
        #expect(player.finish() == 0)
    }
}

/// A follower of the bus (`playerctl --follow`, `dbus-monitor`) whose lines are read at the end.
final class Follower {
    let process = Process()
    let output = Pipe()

    init(_ bus: SessionBusDaemon, _ arguments: [String], program: String = "playerctl") throws {
        process.executableURL = URL(fileURLWithPath: ExternalTool.which(program)!)
        process.arguments = program == "playerctl" ? arguments : Array(arguments.dropFirst())
        process.environment = ExternalTool.childEnvironment(bus.environment)
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Ends it (SIGKILL: it inherits the test process's blocked SIGTERM) and returns its lines.
    func stop() -> [String] {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").map(String.init)
    }
}
