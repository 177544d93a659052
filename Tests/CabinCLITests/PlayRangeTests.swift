import CabinTestSupport
import Foundation
import Testing

/// `cabin play --to/--length/--loop`, sound files and the key help, on the silent clock
/// (`-D none`): real time, so in the second phase of scripts/test.
@Suite struct PlayRangeTests {
    static let session = #"{ "cabin": 1, "title": "Two", "duration": "2s", "layers": { "a": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } }, "cues": [ { "at": 0, "start": "a", "mark": "one" }, { "at": "1s", "mark": "two" } ] }"#

    static func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func write(_ text: String, _ name: String) throws -> String {
        let path = try TestEnvironment.temporaryDirectory("cabin-range").appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func toAndLengthEndThePlayThere() throws {
        let drive = ["play", "--preset", "quest", "-D", "none", "--json"]
        for (extra, end) in [(["--to", "1500ms"], 1.5), (["--from", "3s", "--length", "1s"], 4.0)] {
            let result = try ExternalTool.cabin(drive + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let last = try #require(Self.events(result.stdout).last)
            #expect(last["event"] as? String == "end")
            // Stopped at the end of the range, within a control-loop wake-up and the 200 ms fade.
            let time = try #require(last["time"] as? Double)
            #expect(time >= end && time < end + 0.4, "ended at \(time), not \(end)")
            #expect(result.seconds < (end - (extra.contains("--from") ? 3 : 0)) + 1.5)
        }
        let bad = try ExternalTool.cabin(drive + ["--from", "5s", "--to", "4s"])
        #expect(bad.status == 64 && bad.stderr.contains("--to '4s' must be after --from '5s'"))
        let both = try ExternalTool.cabin(drive + ["--to", "4s", "--length", "1s"])
        #expect(both.status == 64 && both.stderr.contains("give --to or --length, not both"))
    }

    @Test func loopPlaysTheRangeAgainUntilStopped() throws {
        let path = try Self.write(Self.session, "two.json")
        let result = try ExternalTool.run("timeout", ["-s", "TERM", "5", ExternalTool.cabinBinary, "play", path, "-D", "none", "--json", "--loop"])
        #expect(result.status == 124, "\(result.stderr)")   // timeout's status when it had to stop the command
        let events = Self.events(result.stdout)
        // A 2 s session goes round every 1.75 s (it seeks back 0.25 s before its own end): twice in 5 s.
        let seeks = events.filter { $0["event"] as? String == "seek" }
        #expect(seeks.count == 2, "\(events)")
        #expect(seeks.allSatisfy { ($0["time"] as? Double ?? 1) < 0.05 })
        #expect(events.filter { $0["name"] as? String == "two" }.count == 3)
        #expect(events.last?["reason"] as? String == "stopped")
    }

    @Test func aSoundFilePlaysAsASessionOfOneLayer() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-range")
        let wav = dir.appendingPathComponent("chime.wav").path
        try ExternalTool.check("sox", ["-n", "-r", "44100", "-c", "1", wav, "synth", "1.5", "sine", "660", "gain", "-10"])
        let result = try ExternalTool.cabin(["play", wav, "-D", "none", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = Self.events(result.stdout)
        #expect(events.first?["title"] as? String == "chime.wav")
        let end = try #require(events.last)
        #expect(end["reason"] as? String == "finished")
        #expect(abs((end["time"] as? Double ?? 0) - 1.5) < 0.05)
        #expect(result.seconds > 1.4 && result.seconds < 3)
        // --loop loops a sound file in the mixer, for --length.
        let looped = try ExternalTool.cabin(["play", wav, "-D", "none", "--json", "--loop", "--length", "4s"])
        let last = try #require(Self.events(looped.stdout).last)
        #expect(abs((last["time"] as? Double ?? 0) - 4) < 0.4 && looped.seconds > 3.9, "\(looped.stdout)")
    }

    /// `?` in the status view lists the keys (a real terminal: `script` gives the player a pty).
    @Test func questionMarkShowsTheKeys() throws {
        let command = "\(ExternalTool.cabinBinary) play --preset quest -D none"
        let result = try ExternalTool.run("/bin/sh", ["-c", "(sleep 1; printf '?'; sleep 0.7; printf q; sleep 1) | script -qec '\(command)' /dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("[?] keys"))
        for line in ["keys:", "space      pull over (fade out, pause the clock) / resume", "← →        seek 30 s back / forward",
                     "m          mute / unmute", "q  Ctrl-C  fade out and quit (Ctrl-C twice: at once)"] {
            #expect(result.stdout.contains(line), "no '\(line)'")
        }
    }
}
