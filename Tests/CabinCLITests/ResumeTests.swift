import CabinTestSupport
import Foundation
import Testing

/// `cabin play --resume`, the remembered volume, the config's defaults in a real play and
/// `--then suspend`: real `cabin play` runs on the system clock (`-D none`), each test with
/// config and state folders of its own.
@Suite struct ResumeTests {
    static func setUp(seconds: Int, config: String? = nil) throws -> (path: String, dir: URL, environment: [String: String]) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-resume")
        let path = dir.appendingPathComponent("s.json").path
        let json = """
            { "cabin": 1, "title": "resumable", "duration": "\(seconds)s",
              "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": 0, "start": "rain", "mark": "focus" }, { "at": "\(seconds >= 5 ? 4 : 0.5)s", "mark": "break" } ] }
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        if let config {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("config/cabin"), withIntermediateDirectories: true)
            try Data(config.utf8).write(to: dir.appendingPathComponent("config/cabin/config.toml"))
        }
        return (path, dir, ["XDG_CONFIG_HOME": dir.appendingPathComponent("config").path,
                            "XDG_STATE_HOME": dir.appendingPathComponent("state").path])
    }

    static func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func state(_ dir: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: dir.appendingPathComponent("state/cabin/state.json"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    @Test func resumeStartsWhereASignalStoppedIt() throws {
        let (path, dir, environment) = try Self.setUp(seconds: 60)
        // Played, and stopped by a signal at about 3 s.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment(environment)
        process.arguments = ["play", path, "-D", "none", "--period", "1024", "--periods", "4", "--json"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 3.2)
        process.terminate()
        process.waitUntilExit()
        let first = Self.events(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        let stoppedAt = try #require(first.last?["time"] as? Double)
        #expect(first.last?["event"] as? String == "end" && first.last?["reason"] as? String == "stopped")
        #expect(abs(stoppedAt - 3) < 1, "stopped at \(stoppedAt) s")
        let saved = try #require(try Self.state(dir)["session"] as? [String: Any])
        #expect(saved["file"] as? String == path)
        #expect(saved["ended"] as? Bool == false)
        let position = try #require(saved["position"] as? Double)
        #expect(abs(position - stoppedAt) < 0.2, "saved \(position) s, stopped at \(stoppedAt) s")

        // Resumed: it starts there (± 1 s), passes the 4 s mark about a second in, and is
        // saved again where it stops.
        let resumed = try ExternalTool.cabin(["play", "--resume", "-D", "none", "--period", "1024", "--periods", "4", "--json",
                                              "--stop-after", "2s"], environment: environment)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let events = Self.events(resumed.stdout)
        #expect(events.filter { $0["event"] as? String == "mark" }.compactMap { $0["name"] as? String } == ["break"])
        #expect(events.first { $0["event"] as? String == "mark" }?["time"] as? Double == 4)
        let end = try #require(events.last?["time"] as? Double)
        #expect(abs(end - (stoppedAt + 2)) < 1, "resumed from \(stoppedAt) s, ended at \(end) s")
        let again = try #require(try Self.state(dir)["session"] as? [String: Any])
        #expect(abs((again["position"] as? Double ?? 0) - end) < 0.2)

        // In plain lines it says where it resumes.
        let lines = try ExternalTool.cabin(["play", "--resume", "-D", "none", "--stop-after", "0.5s"], environment: environment)
        #expect(lines.stdout.contains("resuming \"resumable\" at 0:0"), "\(lines.stdout)")
    }

    @Test("a resumed session keeps its loudness and seed in the state file, so resuming it again plays the same sound")
    func resumingTwiceKeepsLoudnessAndSeed() throws {
        let (path, dir, environment) = try Self.setUp(seconds: 60)
        let first = try ExternalTool.cabin(["play", path, "-D", "none", "--seed", "5", "--loudness", "-23",
                                            "--stop-after", "0.5s", "--quiet"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let saved = try #require(try Self.state(dir)["session"] as? [String: Any])
        #expect(saved["seed"] as? Int == 5)
        #expect(saved["loudness"] as? String == "-23")
        for round in 1...2 {
            let resumed = try ExternalTool.cabin(["play", "--resume", "-D", "none", "--stop-after", "0.5s", "--quiet"],
                                                 environment: environment)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let again = try #require(try Self.state(dir)["session"] as? [String: Any])
            #expect(again["seed"] as? Int == 5, "after resume \(round): \(again)")
            #expect(again["loudness"] as? String == "-23", "after resume \(round): \(again)")
            #expect(again["file"] as? String == path)
        }
    }

    @Test func aKilledPlayLosesAtMostTheSaveInterval() throws {
        let (path, dir, environment) = try Self.setUp(seconds: 60)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment(environment)
        process.arguments = ["play", path, "-D", "none", "--period", "1024", "--periods", "4", "--quiet"]
        try process.run()
        Thread.sleep(forTimeInterval: 11)
        kill(process.processIdentifier, SIGKILL)   // no chance to save at the stop
        process.waitUntilExit()
        // Saved at the start and every 10 s since: the last at about 10 s.
        let saved = try #require(try Self.state(dir)["session"] as? [String: Any])
        let position = try #require(saved["position"] as? Double)
        #expect(position > 9 && position < 11, "saved at \(position) s")
    }

    /// Issue 31.7: `--volume=-300dB` and the socket's `volume ambient -1e308dB` were accepted
    /// and saved, and the state reader then threw away the whole file — the resume point with
    /// it. Now the options, the config and the socket share −200 … +6.8 dB (one line outside
    /// it), a bad volume in the state file drops only itself, and a rejected state file is
    /// what "nothing to resume" names.
    @Test func oneRangeForVolumes() throws {
        let (path, dir, environment) = try Self.setUp(seconds: 60)
        let stateFile = dir.appendingPathComponent("state/cabin/state.json").path
        let option = try ExternalTool.cabin(["play", path, "-D", "none", "--volume=-300dB"], environment: environment)
        #expect(option.status == 64)
        #expect(option.stderr.hasPrefix("Error: --volume '-300dB': a volume is a percentage 0–130 (80 or 80%) or decibels from -200 to +6.8"),
                "\(option.stderr)")
        let tiny = try ExternalTool.cabin(["play", path, "-D", "none", "--volume", "0.001%"], environment: environment)
        #expect(tiny.status == 64)
        #expect(!FileManager.default.fileExists(atPath: stateFile))

        let (_, configDir, configured) = try Self.setUp(seconds: 1, config: "[volume]\nmaster = \"-1e308dB\"\n")
        let config = try ExternalTool.cabin(["play", path, "-D", "none"], environment: configured)
        #expect(config.status == 1)
        #expect(config.stderr == "\(configDir.path)/config/cabin/config.toml:2:1: error: volume.master: a volume is a percentage 0–130 "
                + "(80 or 80%) or decibels from -200 to +6.8 (-6dB; -inf dB mutes), not '-1e308dB'\n", "\(config.stderr)")

        // The socket refuses it; what is saved stays readable.
        let socket = dir.appendingPathComponent("control").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment(environment)
        process.arguments = ["play", path, "-D", "none", "--ipc", socket, "--json"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        for level in ["-1e308dB", "-300dB", "0.01"] {
            let refused = try ExternalTool.cabin(["ctl", "--ipc", socket, "volume", "ambient", level])
            #expect(refused.status == 1)
            #expect(refused.stderr.hasPrefix("cabin: error: volume: ") && refused.stderr.contains("is not a volume: a volume is a percentage")
                    && refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        }
        #expect(try ExternalTool.cabin(["ctl", "--ipc", socket, "volume", "ambient", "-200dB"]).status == 0)
        Thread.sleep(forTimeInterval: 1)
        #expect(try ExternalTool.cabin(["ctl", "--ipc", socket, "quit"]).status == 0)
        process.waitUntilExit()
        let saved = try Self.state(dir)
        #expect((saved["volumes"] as? [String: Any])?["ambient"] as? Double == -200, "\(saved)")

        // A bad volume in the file (written by hand, or by an older Cabin) costs only itself.
        var state = saved
        state["volumes"] = ["master": -300, "ambient": -6]
        try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: stateFile))
        let resumed = try ExternalTool.cabin(["play", "--resume", "-D", "none", "--stop-after", "0.3s"], environment: environment)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("cabin: warning: \(stateFile): volumes.master: -300.0 dB is not a volume (−200 … +6.8 dB); that volume is not restored\n"),
                "\(resumed.stderr)")
        #expect(resumed.stdout.contains("resuming \"resumable\" at 0:0"), "\(resumed.stdout)")
        #expect(resumed.stdout.contains("ambient -6.0 dB"), "\(resumed.stdout)")

        // A state file that cannot be used at all: --resume says so, in one line.
        try Data(#"{"cabinState": 2, "volumes": {}}"#.utf8).write(to: URL(fileURLWithPath: stateFile))
        let rejected = try ExternalTool.cabin(["play", "--resume", "-D", "none"], environment: environment)
        #expect(rejected.status == 1)
        #expect(rejected.stderr == "cabin: error: nothing to resume: the state file was not used: \(stateFile): version 2 is not one this Cabin reads (1)\n")
    }

    @Test func aSessionPlayedToItsEndHasNothingToResume() throws {
        let (path, _, environment) = try Self.setUp(seconds: 1)
        let none = try ExternalTool.cabin(["play", "--resume", "-D", "none"], environment: environment)
        #expect(none.status == 1)
        #expect(none.stderr.hasPrefix("cabin: error: nothing to resume: no session has played yet ("))
        let played = try ExternalTool.cabin(["play", path, "-D", "none", "--period", "1024", "--periods", "4"], environment: environment)
        #expect(played.status == 0)
        let resumed = try ExternalTool.cabin(["play", "--resume", "-D", "none"], environment: environment)
        #expect(resumed.status == 1)
        #expect(resumed.stderr == "cabin: error: nothing to resume: \"resumable\" played to its end (play it again without --resume)\n")
        let mixed = try ExternalTool.cabin(["play", path, "--resume"], environment: environment)
        #expect(mixed.status == 64)
        #expect(mixed.stderr.contains("--resume continues the last session"))
    }

    @Test func theNextPlayStartsAtTheRememberedVolume() throws {
        let (path, _, environment) = try Self.setUp(seconds: 60)
        let arguments = ["play", path, "-D", "none", "--period", "1024", "--periods", "4", "--stop-after", "0.5s"]
        let set = try ExternalTool.cabin(arguments + ["--volume", "50", "--volume", "ambient=-6dB"], environment: environment)
        #expect(set.status == 0)
        #expect(set.stdout.contains("volume -18.1 dB (50 %), ambient -6.0 dB (79 %) (from --volume)\n"), "\(set.stdout)")
        let next = try ExternalTool.cabin(arguments, environment: environment)
        #expect(next.stdout.contains("volume -18.1 dB (50 %), ambient -6.0 dB (79 %) (remembered from the last session; --volume sets another)\n"),
                "\(next.stdout)")
        // --volume wins over the remembered volume (and becomes the one remembered).
        let given = try ExternalTool.cabin(arguments + ["--volume", "100"], environment: environment)
        #expect(!given.stdout.contains("volume "), "\(given.stdout)")
        let after = try ExternalTool.cabin(arguments, environment: environment)
        #expect(!after.stdout.contains("volume "), "\(after.stdout)")
    }

    @Test func theConfigSetsTheDeviceAndBuffer() throws {
        let (path, _, environment) = try Self.setUp(seconds: 1, config: "[play]\ndevice = \"none\"\nperiod = 1024\nperiods = 4\n[volume]\nmaster = 100\n")
        let result = try ExternalTool.cabin(["play", path], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("playing \"resumable\" on none: 48000 Hz, 1024×4 frames") }, "\(lines)")
        // A bare number is a percentage, as --volume takes it: 100 is 0 dB, no volume line.
        #expect(lines.contains { $0.hasPrefix("volume ") } == false)
        let bad = try ExternalTool.cabin(["play", path], environment: environment.merging(["CABIN_PERIOD": "1000"]) { $1 })
        #expect(bad.status == 1)
        #expect(bad.stderr == "environment CABIN_PERIOD: error: play.period: must be a power of two from 16 to 8192 frames, not '1000'\n")
    }

    @Test func thenSuspendRunsTheSuspendCommand() throws {
        let (path, dir, environment) = try Self.setUp(seconds: 60)
        let marker = dir.appendingPathComponent("suspended.txt").path
        let script = dir.appendingPathComponent("fake-suspend").path
        try Data("#!/bin/sh\necho \"suspend $CABIN_SESSION\" > '\(marker)'\n".utf8).write(to: URL(fileURLWithPath: script))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let result = try ExternalTool.cabin(["play", path, "-D", "none", "--period", "1024", "--periods", "4", "--stop-after", "1s",
                                             "--then", "suspend"],
                                            environment: environment.merging(["CABIN_SUSPEND_COMMAND": script]) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "suspend resumable\n")
    }
}
