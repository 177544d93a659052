import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// `cabin play` and `cabin render` with a live stream in the session, as the real binary.
struct RadioCommandTests {
    static func session(station: String, seconds: Int) -> String {
        """
        { "cabin": 1, "title": "radio", "duration": "\(seconds)s",
          "layers": { "radio": { "bus": "radio", "sound": "\(station)", "loop": true },
                      "tone": { "bus": "ambient", "sound": "synth:sine?frequency=440", "loop": true } },
          "cues": [ { "at": 0, "start": ["radio", "tone"] } ] }
        """
    }

    /// An HTML page where a station should be: one line says so, the rest of the session
    /// plays on through the paced sink without a gap.
    @Test(.enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
    func badStationIsOneLineAndTheSessionPlaysOn() throws {
        let server = try HostileHTTPServer(reply: .response("200 OK", headers: ["Content-Type: text/html"],
                                                            body: Array("<html><body>not radio</body></html>".utf8)))
        defer { server.stop() }
        let dir = try TestEnvironment.temporaryDirectory("cabin-radio-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session(station: server.url(), seconds: 3).utf8).write(to: URL(fileURLWithPath: path))
        let capture = dir.appendingPathComponent("capture.wav").path
        let result = try SinkLock.exclusive {
            try ExternalTool.cabin(["play", path], environment: [PacedSink.captureVariable: capture])
        }
        #expect(result.status == 0, "\(result.stderr)")
        let radioLines = (result.stdout + result.stderr).split(separator: "\n").filter { $0.contains("HTML page") }
        #expect(radioLines == ["radio \(server.url()): an HTML page, not an audio stream"], "\(result.stdout)\(result.stderr)")
        // The tone plays in every 250 ms window of the session.
        let played = try SoundFile.read(capture)
        let window = Int(played.sampleRate / 4)
        for w in 0..<(Int(2.75 * played.sampleRate) / window) {
            let part = (w * window..<(w + 1) * window).map { played.samples[$0 * played.channelCount] }
            #expect(SignalAnalysis.rms(part) > 0.01, "window \(w) is silent")
        }
    }

    /// libcurl (and the ~40 libraries it pulls in) is opened when a station first connects,
    /// not at every start: the dynamic loader's own log (LD_DEBUG=files) names it for a
    /// session with a station and not for one without.
    @Test func libcurlIsOpenedOnlyWhenAStationConnects() throws {
        let plain = try ExternalTool.cabin(["--version"], environment: ["LD_DEBUG": "files"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("file=libsndfile.so.1"), "the loader's log: \(plain.stderr.prefix(300))")
        #expect(!plain.stderr.contains("libcurl"))

        let server = try HostileHTTPServer(reply: .response("404 Not Found"))
        defer { server.stop() }
        let dir = try TestEnvironment.temporaryDirectory("cabin-radio-curl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session(station: server.url(), seconds: 2).utf8).write(to: URL(fileURLWithPath: path))
        let radio = try ExternalTool.cabin(["play", path, "-D", "none"], environment: ["LD_DEBUG": "files"])
        #expect(radio.status == 0, "\(radio.stderr.suffix(500))")
        let opened = radio.stderr.split(separator: "\n").filter { $0.contains("file=libcurl.so.4") }
        #expect(opened.contains { $0.contains("dynamically loaded by") }, "\(opened)")
    }

    @Test func renderSaysALiveStreamHasNoFixedContent() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-radio-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session(station: "https://radio.invalid/live.mp3", seconds: 2).utf8).write(to: URL(fileURLWithPath: path))
        let out = dir.appendingPathComponent("out.wav").path
        let refused = try ExternalTool.cabin(["render", path, "-o", out])
        #expect(refused.status == 1)
        let lines = refused.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("plays a live stream (https://radio.invalid/live.mp3)")
                && lines[0].contains("--radio-fallback"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let rendered = try ExternalTool.cabin(["render", path, "-o", out, "--radio-fallback", "radio/lofi"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let buffer = try SoundFile.read(out)
        #expect(abs(Double(buffer.frameCount) / buffer.sampleRate - 2) < 0.01)
        let unknown = try ExternalTool.cabin(["render", path, "-o", out, "--radio-fallback", "radio/nothing"])
        #expect(unknown.status == 1)
    }

    @Test func drivePresetTakesAStationURL() throws {
        let result = try ExternalTool.cabin(["session", "--preset", "drive", "--radio", "http://127.0.0.1:8000/live.opus"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""sound": "http://127.0.0.1:8000/live.opus""#), "\(result.stdout)")
        let bad = try ExternalTool.cabin(["session", "--preset", "drive", "--radio", "http:// spaced"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--radio"))
    }

    @Test(.enabled(if: ExternalTool.which("ffmpeg") != nil, "needs ffmpeg"))
    func benchMeasuresRadioDecoding() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-radio-bench")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.mp3").path
        try ExternalTool.check("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                                          "sine=frequency=1000:sample_rate=44100:duration=5", "-ac", "2", "-c:a", "libmp3lame", file])
        let result = try ExternalTool.cabin(["bench", "--seconds", "1", "--radio", file])
        #expect(result.status == 0, "\(result.stderr)")
        let line = result.stdout.split(separator: "\n").first { $0.contains("(MP3)") }
        #expect(line?.contains("× real time = ") == true, "\(result.stdout)")
        #expect(line?.contains(" 5.0 s in ") == true || line?.contains("   5.0 s in ") == true, "\(result.stdout)")
        let html = dir.appendingPathComponent("page.mp3").path
        try Data("<!DOCTYPE html><html>not a stream</html>".utf8).write(to: URL(fileURLWithPath: html))
        let bad = try ExternalTool.cabin(["bench", "--seconds", "1", "--radio", html])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("an HTML page, not an audio stream"), "\(bad.stderr)")
    }
}
