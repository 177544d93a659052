import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// `cabin play --on-mark`, `--stop-after` / `--fade-out` and `--then`.
@Suite struct TimerHookTests {
    static func session(_ seconds: Int, sound: String = "synth:pink-noise") throws -> (path: String, dir: URL) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-hooks")
        let path = dir.appendingPathComponent("s.json").path
        let json = """
            { "cabin": 1, "title": "hooks", "duration": "\(seconds)s",
              "layers": { "tone": { "bus": "ambient", "sound": "\(sound)", "loop": true } },
              "cues": [ { "at": 0, "start": "tone", "mark": "focus" }, { "at": "1.5s", "mark": { "name": "break", "title": "short break" } },
                        { "at": "3s", "mark": "focus" } ] }
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return (path, dir)
    }

    @Test func onMarkRunsACommandAtEachMarkWithItsEnvironment() throws {
        let (path, dir) = try Self.session(4)
        let log = dir.appendingPathComponent("marks.txt").path
        let result = try ExternalTool.cabin(["play", path, "-D", "none", "--json",
                                             "--on-mark", "echo \"$CABIN_MARK|$CABIN_MARK_TITLE|$CABIN_TIME|$CABIN_SESSION\" >> '\(log)'; echo noise"])
        #expect(result.status == 0)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == ["focus|focus|0|hooks", "break|short break|1.5|hooks", "focus|focus|3|hooks"])
        // The events carry the name, and the title when the mark has one.
        let marks = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["event"] as? String == "mark" }
        #expect(marks.map { "\($0["name"] as? String ?? "") \($0["title"] as? String ?? "-")" } == ["focus -", "break short break", "focus -"])
        // The commands' output does not mix into the JSON events.
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{") })
        #expect(result.stderr.contains("noise"))
    }

    @Test func stopAfterEndsOnTimeAndThenRuns() throws {
        let (path, dir) = try Self.session(60)
        let marker = dir.appendingPathComponent("then.txt").path
        let result = try ExternalTool.cabin(["play", path, "-D", "none", "--stop-after", "2s",
                                             "--then", "echo \"after $CABIN_SESSION\" > '\(marker)'"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").last?.hasSuffix("stopped (0 underruns)") == true, "\(result.stdout)")
        #expect(result.seconds > 1.9 && result.seconds < 3, "took \(result.seconds) s")
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == "after hooks\n")
        // A hook that never ends does not keep the session from ending.
        let hung = try ExternalTool.cabin(["play", path, "-D", "none", "--stop-after", "1s", "--on-mark", "exec sleep 30 > /dev/null 2>&1"])
        #expect(hung.status == 0)
        #expect(hung.seconds < 4.5, "took \(hung.seconds) s")
        // A fade needs a timer.
        let bad = try ExternalTool.cabin(["play", path, "--fade-out", "2s"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--fade-out goes with --stop-after"))
    }

    /// The issue's case: `--stop-after 5s --fade-out 2s` ends at 5 s, fading out over its
    /// last 2 s, as heard on the paced sink.
    @Test(.enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
    func theSleepTimersFadeIsHeardOnTheSink() throws {
        let (path, dir) = try Self.session(60, sound: "synth:sine?frequency=440")
        let capture = dir.appendingPathComponent("heard.wav").path
        let result = try ExternalTool.cabin(["play", path, "--stop-after", "5s", "--fade-out", "2s"],
                                            environment: [PacedSink.captureVariable: capture])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.seconds < 6.5, "took \(result.seconds) s")
        #expect(result.stdout.split(separator: "\n").last == "0:05  stopped (0 underruns)", "\(result.stdout)")
        let heard = try SoundFile.read(capture)
        let rate = Int(heard.sampleRate), channels = heard.channelCount
        func level(_ from: Double, _ to: Double) -> Double {
            let range = (Int(from * Double(rate)) * channels)..<min(heard.samples.count, Int(to * Double(rate)) * channels)
            return 20 * log10(SignalAnalysis.rms(heard.samples[range]))
        }
        let full = level(0.5, 2.9)
        #expect(full > -40, "\(full) dB")
        // Full until the fade starts at 3 s …
        #expect(abs(level(2.5, 2.95) - full) < 1, "before the fade \(level(2.5, 2.95) - full) dB")
        // … then linear in dB from 3 s (0 dB) to 5 s (−60 dB): about −30 dB at 4 s.
        let middle = level(3.95, 4.05) - full
        #expect(middle > -37 && middle < -23, "mid-fade \(middle) dB")
        #expect(level(4.8, 4.95) - full < -48)
        // It ends at 5 s: the sink heard 5 s, and the period or two the stop's fade takes.
        let seconds = Double(heard.samples.count / channels) / Double(rate)
        #expect(seconds > 4.9 && seconds < 5.6, "the sink heard \(seconds) s")
    }
}
