import CabinIO
import CabinTestSupport
import Foundation
import Glibc
import Testing

/// Issue 28 item 9: a `cabin play` an app spawns stays the app's. `--no-state` neither reads
/// the remembered volumes nor writes what the app set; `--no-config` plays without the
/// user's config file; `--exit-with-parent` ends the player when the app that started it
/// ends, however it ends. Real `cabin play` runs on the system clock (`-D none`).
@Suite struct SpawnedPlayerTests {
    static let playing = ["-D", "none", "--period", "1024", "--periods", "4", "--stop-after", "0.5s", "--no-mpris", "--ipc", "off"]

    @Test func noStateLeavesTheRememberedVolumeAndTheStateFileAlone() throws {
        let (path, dir, environment) = try ResumeTests.setUp(seconds: 60)
        // The user's own session: its volume remembered.
        let user = try ExternalTool.cabin(["play", path, "--volume", "50"] + Self.playing, environment: environment)
        #expect(user.status == 0, "\(user.stderr)")
        let stateFile = dir.appendingPathComponent("state/cabin/state.json")
        let before = try Data(contentsOf: stateFile)
        // The app's player: the user's volume is not applied, its own is not remembered.
        let app = try ExternalTool.cabin(["play", path, "--no-state", "--volume", "ambient=-20dB"] + Self.playing, environment: environment)
        #expect(app.status == 0, "\(app.stderr)")
        #expect(app.stdout.contains("ambient -20.0 dB") && !app.stdout.contains("-18.1 dB"), "\(app.stdout)")
        let appAlone = try ExternalTool.cabin(["play", path, "--no-state"] + Self.playing, environment: environment)
        #expect(!appAlone.stdout.contains("volume "), "the remembered volume was applied: \(appAlone.stdout)")
        #expect(try Data(contentsOf: stateFile) == before, "the state file changed")
        // The user's next session still starts at the user's volume, not the app's.
        let next = try ExternalTool.cabin(["play", path] + Self.playing, environment: environment)
        #expect(next.stdout.contains("volume -18.1 dB (50 %) (remembered from the last session"), "\(next.stdout)")
        #expect(!next.stdout.contains("ambient"), "\(next.stdout)")
        // And --resume, which reads the state, is refused beside it in one line.
        let resume = try ExternalTool.cabin(["play", "--resume", "--no-state", "-D", "none"], environment: environment)
        #expect(resume.status == 64 && resume.stderr.contains("--no-state"), "\(resume.stderr)")
    }

    @Test func noConfigPlaysWithoutTheUsersConfigFile() throws {
        // A config with an error stops every command that reads it …
        let (path, _, environment) = try ResumeTests.setUp(seconds: 1, config: "[play]\nperiod = 3\n")
        let reading = try ExternalTool.cabin(["play", path, "-D", "none", "--no-mpris", "--ipc", "off"], environment: environment)
        #expect(reading.status == 1 && reading.stderr.contains("config.toml"), "\(reading.stderr)")
        // … and a config's device and volume apply when it is read; --no-config reads none of it.
        let (other, _, configured) = try ResumeTests.setUp(seconds: 1, config: "[play]\ndevice = \"none\"\nperiod = 1024\n[volume]\nmaster = 50\n")
        let read = try ExternalTool.cabin(["play", other, "--no-state", "--no-mpris", "--ipc", "off"], environment: configured)
        #expect(read.status == 0 && read.stdout.contains("1024×") && read.stdout.contains("-18.1 dB"), "\(read.stdout)")
        let notRead = try ExternalTool.cabin(["play", path, "--no-config", "-D", "none", "--no-mpris", "--ipc", "off"], environment: environment)
        #expect(notRead.status == 0, "\(notRead.stderr)")
        #expect(!notRead.stderr.contains("config.toml"), "\(notRead.stderr)")
        let notReadOther = try ExternalTool.cabin(["play", other, "--no-config", "--no-state", "-D", "none", "--no-mpris", "--ipc", "off"],
                                                  environment: configured)
        #expect(notReadOther.status == 0 && !notReadOther.stdout.contains("1024×") && !notReadOther.stdout.contains("volume "),
                "\(notReadOther.stdout)")
    }

    /// A shell starts `cabin play` in the background and exits a second later: with
    /// `--exit-with-parent` the player ends soon after (the loop looks every 50 ms; the fade
    /// is q's); without it, it plays on, orphaned.
    @Test(arguments: [true, false])
    func exitWithParentEndsWhenTheAppEnds(_ watching: Bool) throws {
        let (path, dir, environment) = try ResumeTests.setUp(seconds: 60)
        let pidFile = dir.appendingPathComponent("pid").path
        let log = dir.appendingPathComponent("log").path
        let flag = watching ? " --exit-with-parent" : ""
        let command = "'\(ExternalTool.cabinBinary)' play '\(path)' -D none --no-mpris --ipc off --no-state\(flag) >/dev/null 2>'\(log)' & echo $! > '\(pidFile)'; sleep 1.5"
        // Not Foundation's Process: its child-watching descriptor, inherited by the orphan,
        // keeps waitUntilExit waiting for the orphan's whole minute. ChildProcess passes on
        // stdin, stdout and stderr only.
        let shell = try ChildProcess(shell: command, environment: environment)
        #expect(shell.exitStatus(waiting: true) == 0)
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(pid, SIGKILL) }
        // Alive: a process that is not a zombie (an orphan is reaped by whoever adopted it).
        func alive() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
        }
        let deadline = Date().addingTimeInterval(watching ? 15 : 3)
        while alive() && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if watching {
            #expect(!alive(), "cabin play (pid \(pid)) still plays 15 s after its parent ended")
            let said = try String(contentsOfFile: log, encoding: .utf8)
            #expect(said.contains("cabin: warning: the process that started this one (pid ") && said.contains(") ended: stopping"), "\(said)")
        } else {
            #expect(alive(), "without --exit-with-parent the player plays on")
        }
    }

    /// The README's command line for an app's own player, run as written by a shell (the
    /// app) that ends two seconds later: the player starts, serves its own socket, and ends
    /// with the app (its last event an end, stopped).
    @Test func theReadmesSpawnedPlayerRunsAsWritten() throws {
        let readme = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.hasPrefix("cabin play --preset pomodoro -D none --no-state") })
        let dir = try TestEnvironment.temporaryDirectory("cabin-spawned")
        let out = dir.appendingPathComponent("out").path, pidFile = dir.appendingPathComponent("pid").path
        let socket = dir.appendingPathComponent("myapp-cabin.sock").path
        let command = "'\(ExternalTool.cabinBinary)'\(line.dropFirst("cabin".count)) >'\(out)' 2>/dev/null & echo $! > '\(pidFile)'; "
            + "sleep 2; test -S '\(socket)'"
        let shell = try ChildProcess(shell: command, environment: ["XDG_RUNTIME_DIR": dir.path])
        #expect(shell.exitStatus(waiting: true) == 0, "the player's socket was not there while it played")
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(pid, SIGKILL) }
        let deadline = Date().addingTimeInterval(15)
        var events: [[String: Any]] = []
        while Date() < deadline {
            events = ResumeTests.events((try? String(contentsOfFile: out, encoding: .utf8)) ?? "")
            if events.last?["event"] as? String == "end" { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(events.first?["event"] as? String == "start", "\(events)")
        #expect(events.last?["event"] as? String == "end" && events.last?["reason"] as? String == "stopped", "\(events.last ?? [:])")
    }
}
