import CabinTestSupport
import Foundation
import Testing

/// `cabin play` as the real binary on the paced sink.
@Suite(.serialized, .enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
struct PlayCommandTests {
    static let session = """
        { "cabin": 1, "title": "cli", "duration": "30s",
          "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
          "cues": [ { "at": 0, "start": "rain", "fadeIn": "100ms", "mark": "drive" },
                    { "at": "1s", "mark": "rest" } ] }
        """

    /// At low latency the 200 ms fade is heard at once and the process exits within 300 ms;
    /// at relaxed latency the fade waits for its period (≤ 64 ms) and plays out behind the
    /// 128 ms already queued, so the exit comes within 500 ms (fade 200 + buffer 128 +
    /// period 64 + the control loop's 50 ms wake + the same ~50 ms to close as at low).
    @Test(arguments: [("low", 0.3), ("relaxed", 0.5)])
    func ctrlCFadesOutAndExitsZeroOnTime(latency: String, bound: Double) throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-play")
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session.utf8).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment()
        process.arguments = ["play", path, "--json", "--latency", latency]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        let sent = Date()
        process.interrupt()
        process.waitUntilExit()
        let took = Date().timeIntervalSince(sent)
        #expect(process.terminationStatus == 0)
        #expect(took < bound, "SIGINT to exit took \(took) s at \(latency) latency")
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.first?["event"] as? String == "start")
        #expect(events.filter { $0["event"] as? String == "mark" }.compactMap { $0["name"] as? String } == ["drive", "rest"])
        #expect(events.last?["event"] as? String == "end")
        #expect(events.last?["reason"] as? String == "stopped")
    }

    @Test func plainLinesWhenNotATerminal() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-play")
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session.replacingOccurrences(of: "\"30s\"", with: "\"1.5s\"").utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.cabin(["play", path, "--period", "512"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("playing \"cli\" on default: 48000 Hz, 512×3 frames, FLOAT_LE, ") == true, "\(lines)")
        #expect(lines.dropFirst().first == "0:00  drive")
        #expect(lines.dropFirst(2).first == "0:01  rest")
        #expect(lines.last?.hasSuffix("finished (0 underruns)") == true)
    }

    @Test func fromStartsMidSessionWithTheMarksAfterIt() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-play")
        let path = dir.appendingPathComponent("s.json").path
        let session = Self.session.replacingOccurrences(of: "\"30s\"", with: "\"3s\"")
            .replacingOccurrences(of: "{ \"at\": \"1s\", \"mark\": \"rest\" }",
                                  with: "{ \"at\": \"1s\", \"mark\": \"rest\" }, { \"at\": \"2.5s\", \"mark\": \"arrival\" }")
        try Data(session.utf8).write(to: URL(fileURLWithPath: path))
        let started = Date()
        let result = try ExternalTool.cabin(["play", path, "--from", "2s"])
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // Marks before the start are not announced; the session plays its last second.
        #expect(lines.dropFirst().first == "0:02  arrival", "\(lines)")
        #expect(lines.last?.hasSuffix("finished (0 underruns)") == true)
        #expect(took > 0.9 && took < 2.5, "the last second took \(took) s")

        let bad = try ExternalTool.cabin(["play", path, "--from", "soon"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("--from 'soon' is not a time"))
    }

    @Test func missingDeviceIsOneLineWithWhatToTry() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-play")
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session.utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.cabin(["play", path, "-D", "nosuchcard"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("cabin: error: audio device \"nosuchcard\": not found (snd_pcm_open:"))
        #expect(result.stderr.contains("list playback devices with 'cabin devices'"))
    }
}
