import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// `cabin play --latency`: a bed left on plays at relaxed latency (few wake-ups), yet a
/// control command is heard within 150 ms; low latency and explicit periods are kept; the
/// setting is checked like every other.
@Suite(.serialized)
struct LatencyTests {
    static let session = """
        { "cabin": 1, "title": "tone", "duration": "5s",
          "layers": { "tone": { "bus": "engine", "sound": "synth:sine?frequency=1000", "loop": true } },
          "cues": [ { "at": 0, "start": "tone" } ] }
        """

    /// The `start` event's period and buffer for `cabin play -D none` with `arguments`.
    static func started(_ arguments: [String], environment: [String: String] = [:]) throws -> (period: Int?, buffer: Int?, stderr: String) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-latency")
        let path = dir.appendingPathComponent("s.json").path
        try Data(session.replacingOccurrences(of: "5s", with: "1s").utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.cabin(["play", path, "-D", "none", "--json", "--no-state"] + arguments, environment: environment)
        let start = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["event"] as? String == "start" }
        return (start?["period"] as? Int, start?["buffer"] as? Int, result.stderr)
    }

    /// `cabin play` of the tone session on the paced sink with a control socket, once its
    /// `start` event is printed (the capture's frame 0 is about that moment).
    struct Playing {
        let process: Process
        let stdout: Pipe
        var text: Data
        let started: Date
        let capture: String
        let client: ControlSocketTests.Client

        init(_ name: String, _ arguments: [String] = []) throws {
            let dir = try TestEnvironment.temporaryDirectory(name)
            let path = dir.appendingPathComponent("s.json").path
            capture = dir.appendingPathComponent("heard.wav").path
            try Data(LatencyTests.session.utf8).write(to: URL(fileURLWithPath: path))
            let socket = dir.appendingPathComponent("control").path
            process = Process()
            process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
            process.environment = ExternalTool.childEnvironment().merging([PacedSink.captureVariable: capture]) { $1 }
            process.arguments = ["play", path, "--ipc", socket, "--json", "--no-state"] + arguments
            stdout = Pipe()
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice
            try process.run()
            text = Data()
            while !String(decoding: text, as: UTF8.self).contains("\"event\":\"start\"") {
                let chunk = stdout.fileHandleForReading.availableData
                try #require(!chunk.isEmpty, "cabin play ended before its start event")
                text.append(chunk)
            }
            started = Date()
            client = try ControlSocketTests.Client(socket)
        }

        /// Waits for the session's end; what it printed, whole.
        mutating func finish() -> String {
            process.waitUntilExit()
            text.append(stdout.fileHandleForReading.readDataToEndOfFile())
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// When the tone in `capture` first falls below half its level at `steadyAt` seconds
    /// (1 ms windows from there), in seconds from the capture's start.
    static func fallsSilent(_ capture: String, steadyAt: Double) throws -> Double {
        let heard = try SoundFile.read(capture)
        let rate = Double(heard.sampleRate), channels = heard.channelCount
        func rms(_ frame: Int) -> Double {
            let n = Int(rate / 1000)
            var sum = 0.0
            for f in frame..<(frame + n) { let s = Double(heard.samples[f * channels]); sum += s * s }
            return (sum / Double(n)).squareRoot()
        }
        let steady = rms(Int(steadyAt * rate))
        #expect(steady > 0.01, "the tone is not in the capture (\(steady))")
        var frame = Int(steadyAt * rate)
        while frame + 48 < heard.samples.count / channels && rms(frame) > steady / 2 { frame += Int(rate / 1000) }
        return Double(frame) / rate
    }

    @Test func relaxedByDefaultLowOnRequestAndExplicitPeriodsWin() throws {
        let plain = try Self.started([])
        #expect(plain.period == 3072 && plain.buffer == 6144, "\(plain)")
        let low = try Self.started(["--latency", "low"])
        #expect(low.period == 256 && low.buffer == 768, "\(low)")
        let explicit = try Self.started(["--latency", "relaxed", "--period", "512"])
        #expect(explicit.period == 512 && explicit.buffer == 1536, "\(explicit)")
        let configured = try Self.started([], environment: ["CABIN_LATENCY": "low"])
        #expect(configured.period == 256, "\(configured)")
        let bad = try ExternalTool.cabin(["play", "-D", "none", "--latency", "fast"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--latency 'fast': must be auto, low or relaxed, not 'fast'"), "\(bad.stderr)")
    }

    /// Issue 29: `cabin ctl latency low` while a bed plays at relaxed: status shows the new
    /// latency at once (under 30 ms, from over 100), the `latency` event is printed, and a
    /// `mute` sent after it is heard within 75 ms (the volume's 50 ms ramp half done, a 256-frame block and 768 queued; at relaxed: up to 150); the sound before the
    /// mute is the tone, unbroken (no gap, no repeat: its level in 1 ms windows never dips).
    /// A word it does not know is an error naming the three it does.
    @Test(.enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
    func latencyLowWhilePlayingLowersTheResponse() throws {
        var responses: [Double] = []
        for attempt in 0..<3 {
            var playing = try Playing("cabin-latency-change")
            let client = playing.client
            Thread.sleep(forTimeInterval: 0.8)
            let before = try client.status()
            #expect(before["latencyMode"] as? String == "relaxed" && (before["latency"] as? Double ?? 0) > 100, "\(before)")
            if attempt == 0 {
                let bad = try client.command("latency", "fast")
                #expect(bad["error"] as? String == "latency: the argument must be low, relaxed or auto, not \"fast\"", "\(bad)")
            }
            let reply = try client.command("latency", "low")
            #expect(reply["error"] as? String == "success", "\(reply)")
            Thread.sleep(forTimeInterval: 0.3)
            let after = try client.status()
            #expect(after["latencyMode"] as? String == "low" && (after["latency"] as? Double ?? 1000) < 30, "\(after)")
            Thread.sleep(forTimeInterval: 0.4 + 0.007 * Double(attempt))
            let sent = Date().timeIntervalSince(playing.started)
            _ = try client.command("mute", "on")
            let printed = playing.finish()
            #expect(printed.contains("{\"buffer\":768,\"event\":\"latency\",\"latency\":\"low\",\"period\":256}"), "\(printed)")
            let silent = try Self.fallsSilent(playing.capture, steadyAt: 0.5)
            responses.append(silent - sent)
            // Unbroken until the mute: the tone's level held through the change.
            #expect(silent > sent, "the tone dipped at \(silent) s, before the mute at \(sent) s")
        }
        #expect(responses.allSatisfy { $0 > 0 && $0 <= 0.075 }, "heard after \(responses.map { Int($0 * 1000) }) ms")
    }

    /// Issue 29.3: at automatic latency (the default) the latency follows what needs it. A
    /// bed opens relaxed; a control command is an interaction, so the latency goes low at
    /// once (status: low, automatic, the need named; the `latency` event printed) and stays
    /// low for the hold; `status` itself is not one. A range's end is a need of its own:
    /// with `--to 4s` the session goes low about 3 s before it, and stops on time.
    @Test(.enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
    func automaticLatencyGoesLowForACommandAndNearARangesEnd() throws {
        var playing = try Playing("cabin-latency-auto")
        let client = playing.client
        Thread.sleep(forTimeInterval: 0.8)
        let before = try client.status()
        #expect(before["latencyMode"] as? String == "relaxed" && before["latencyAuto"] as? Bool == true
                    && (before["latencyNeeds"] as? [Any])?.isEmpty == true && (before["latency"] as? Double ?? 0) > 100, "\(before)")
        _ = try client.command("volume", "-3dB")
        Thread.sleep(forTimeInterval: 0.3)
        let after = try client.status()
        #expect(after["latencyMode"] as? String == "low" && after["latencyAuto"] as? Bool == true
                    && after["latencyNeeds"] as? [String] == ["interaction"] && (after["latency"] as? Double ?? 1000) < 30, "\(after)")
        let printed = playing.finish()
        #expect(printed.contains("{\"buffer\":768,\"event\":\"latency\",\"latency\":\"low\",\"period\":256}"), "\(printed)")

        var ranged = try Playing("cabin-latency-range", ["--to", "4s"])
        Thread.sleep(forTimeInterval: 0.5)
        let early = try ranged.client.status()
        #expect(early["latencyMode"] as? String == "relaxed", "\(early)")
        Thread.sleep(forTimeInterval: 1.3)
        let near = try ranged.client.status()
        #expect(near["latencyMode"] as? String == "low" && near["latencyNeeds"] as? [String] == ["range-end"], "\(near)")
        let text = ranged.finish()
        let wall = Date().timeIntervalSince(ranged.started)
        #expect(text.contains("\"event\":\"latency\",\"latency\":\"low\""), "\(text)")
        #expect(wall > 3.9 && wall < 4.8, "the range of 4 s ended after \(wall) s")
    }

    /// At relaxed latency a `mute` sent over the control socket is heard (the tone below half
    /// its level in the paced sink's capture) within 150 ms of being sent, measured from the
    /// `start` event (printed once the device has started; the capture's frame 0 is that
    /// moment, so the figure is if anything a few milliseconds short of the truth).
    @Test(.enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
    func aControlCommandIsHeardWithin150MillisecondsAtRelaxedLatency() throws {
        var responses: [Double] = []
        for attempt in 0..<3 {
            var playing = try Playing("cabin-latency-heard")
            #expect(String(decoding: playing.text, as: UTF8.self).contains("\"period\":3072"), "\(String(decoding: playing.text, as: UTF8.self))")
            // Sent at a different phase of the 64 ms period each time.
            Thread.sleep(forTimeInterval: 1.5 + 0.021 * Double(attempt))
            let sent = Date().timeIntervalSince(playing.started)
            _ = try playing.client.command("mute", "on")
            _ = playing.finish()
            responses.append(try Self.fallsSilent(playing.capture, steadyAt: 1.0) - sent)
        }
        #expect(responses.allSatisfy { $0 > 0 && $0 <= 0.150 }, "heard after \(responses.map { Int($0 * 1000) }) ms")
    }
}
