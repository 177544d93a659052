import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// `cabin render --record-live`: a live stream from a real Icecast server (fed by ffmpeg in
/// real time) recorded in real time into the rendered file, on the session's timeline.
@Suite(.serialized, .enabled(if: IcecastServer.problem == nil, Comment(rawValue: IcecastServer.problem ?? "")))
struct RadioRecordTests {
    /// The radio layer starts at 1 s of a `seconds`-long session, on a 0 dB bus.
    static func session(_ sound: String, seconds: Int) -> String {
        """
        { "cabin": 1, "title": "record", "duration": "\(seconds)s", "buses": { "radio": 0 },
          "layers": { "radio": { "bus": "radio", "sound": "\(sound)", "loop": true, "normalize": false } },
          "cues": [ { "at": 1, "start": "radio" } ] }
        """
    }

    static func left(_ b: AudioBuffer, _ from: Double, _ to: Double) -> [Float] {
        let a = Int(from * b.sampleRate), z = min(b.frameCount, Int(to * b.sampleRate))
        return (a..<max(a, z)).map { b.samples[$0 * b.channelCount] }
    }

    /// The level the tone should have: ffmpeg's same sine as a file, in the same session,
    /// rendered offline by the same binary.
    static func expectedRMS(_ dir: URL, seconds: Int) throws -> Double {
        let tone = dir.appendingPathComponent("tone.wav").path
        try ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                          "sine=frequency=1000:sample_rate=48000:duration=\(seconds)", "-ac", "2", tone])
        let doc = dir.appendingPathComponent("file.json").path, out = dir.appendingPathComponent("file.wav").path
        try Data(session("./tone.wav", seconds: seconds).utf8).write(to: URL(fileURLWithPath: doc))
        let result = try ExternalTool.cabin(["render", doc, "-o", out, "--bits", "32f"])
        #expect(result.status == 0, "\(result.stderr)")
        return SignalAnalysis.rms(left(try SoundFile.read(out), 1.5, Double(seconds) - 0.5))
    }

    @Test func recordedStreamIsOnTheTimelineAtTheLayersLevel() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-record-live")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try IcecastServer()
        defer { server.stop() }
        try server.startSource(.opus, mount: "tone")
        let doc = dir.appendingPathComponent("s.json").path, out = dir.appendingPathComponent("out.wav").path
        try Data(Self.session(server.url("tone"), seconds: 6).utf8).write(to: URL(fileURLWithPath: doc))
        let started = Date()
        let result = try ExternalTool.cabin(["render", doc, "--record-live", "-o", out, "--bits", "32f"])
        let wall = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "cabin: recording the live stream in real time: this render takes 0:06.000, the length of what it writes",
                "\(result.stderr)")
        #expect(wall >= 6, "a real-time render of 6 s took \(wall) s")
        #expect(lines.contains { $0.hasPrefix("cabin: radio \(server.url("tone")): recorded") }, "\(result.stderr)")
        let recorded = try SoundFile.read(out)
        #expect(abs(Double(recorded.frameCount) / recorded.sampleRate - 6) < 0.001)
        // Nothing before the layer starts at 1 s; the tone from then on.
        #expect(Self.left(recorded, 0, 0.99).allSatisfy { $0 == 0 })
        let whole = Self.left(recorded, 0, 6)
        let onset = Double(try #require(whole.firstIndex { abs($0) > 0.01 })) / 48000
        // Measured 1.006 s three times on loopback (the layer starts inside a block: its first
        // 128 frames play as underflow while the station notices it is heard, then the 20 ms
        // fade-in crosses 0.01); 80 ms leaves room for a loaded machine.
        #expect(onset >= 1 && onset < 1.08, "the tone starts at \(onset) s; \(result.stderr)")
        let expected = try Self.expectedRMS(dir, seconds: 6)
        let steady = Self.left(recorded, onset + 0.1, 5.95)
        let level = 20 * log10(SignalAnalysis.rms(steady) / expected)
        #expect(abs(level) < 0.5, "\(level) dB from the file's level; \(result.stderr)")
        let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(steady, sampleRate: 48000))
        #expect(abs(frequency - 1000) <= 5, "\(frequency) Hz")
        // No gap: every 100 ms holds the tone at its level.
        for t in stride(from: onset + 0.1, to: 5.85, by: 0.1) {
            let window = 20 * log10(max(1e-9, SignalAnalysis.rms(Self.left(recorded, t, t + 0.1))) / expected)
            #expect(abs(window) < 1, "at \(t) s: \(window) dB")
        }
    }

    /// The source goes away mid-recording and comes back: the recording reports the
    /// reconnection as live play does, the gap is silence (faded), and the tone comes back.
    @Test func droppedStreamIsReportedAndReconnected() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-record-live")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try IcecastServer()
        defer { server.stop() }
        try server.startSource(.opus, mount: "live")
        let doc = dir.appendingPathComponent("s.json").path, out = dir.appendingPathComponent("out.wav").path
        try Data(Self.session(server.url("live"), seconds: 14).utf8).write(to: URL(fileURLWithPath: doc))
        nonisolated(unsafe) var result: ExternalTool.Result?
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            result = try? ExternalTool.cabin(["render", doc, "--record-live", "-o", out, "--bits", "32f"])
            done.signal()
        }
        // The render waits for a buffered second before its clock starts: the source goes
        // a few seconds in, and comes back 1 s later.
        sleep(5)
        server.stopSource("live")
        sleep(1)
        try server.startSource(.opus, mount: "live")
        done.wait()
        let r = try #require(result)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("reconnecting in 1 s (attempt 1)") }, "\(r.stderr)")
        let report = lines.first { $0.hasPrefix("cabin: radio \(server.url("live")): recorded; ") }
        #expect(report?.contains("of it missing (silence where the stream had not arrived)") == true
                && report?.contains("reconnection attempt") == true, "\(r.stderr)")
        let recorded = try SoundFile.read(out)
        let end = Self.left(recorded, 12.5, 13.9)
        let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(end, sampleRate: 48000), "\(r.stderr)")
        #expect(abs(frequency - 1000) <= 5)
        // Somewhere between there is a gap, and it starts with a fade, not a click: no step
        // larger than the tone's own (a 1 kHz sine at 1/8 moves at most 0.0164 a sample).
        let all = Self.left(recorded, 1, 14)
        var largest: Float = 0
        for i in 1..<all.count { largest = max(largest, abs(all[i] - all[i - 1])) }
        #expect(largest < 0.02, "largest step \(largest)")
        let silentWindows = stride(from: 1.1, to: 13.9, by: 0.1).filter { SignalAnalysis.rms(Self.left(recorded, $0, $0 + 0.1)) < 0.001 }
        #expect(!silentWindows.isEmpty, "a gap while the source was away")
    }
}
