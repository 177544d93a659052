import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// Stations over HTTPS: Debian's icecast2 serving TLS on 127.0.0.1 with a self-signed
/// certificate made by openssl for the test, played by the real `cabin` through the paced
/// sink. Trusted through `CURL_CA_BUNDLE`, it plays; not trusted, it is one `radio-error`
/// line and the rest of the session plays on.
@Suite(.serialized, .enabled(if: IcecastServer.problem == nil && ExternalTool.which("openssl") != nil
                             && TestEnvironment.pacedSinkReady,
                             Comment(rawValue: IcecastServer.problem ?? TestEnvironment.pacedSinkProblem)))
struct RadioTLSTests {
    /// The station, and with `tone` a 440 Hz layer beside it.
    static func session(_ station: String, seconds: Int, tone: Bool) -> String {
        let toneLayer = tone ? #", "tone": { "bus": "ambient", "sound": "synth:sine?frequency=440", "loop": true }"# : ""
        let starts = tone ? #"["radio", "tone"]"# : #""radio""#
        return """
            { "cabin": 1, "title": "tls", "duration": "\(seconds)s", "buses": { "radio": 0, "ambient": -6 },
              "layers": { "radio": { "bus": "radio", "sound": "\(station)", "loop": true, "normalize": false }\(toneLayer) },
              "cues": [ { "at": 0, "start": \(starts) } ] }
            """
    }

    static func left(_ b: AudioBuffer, _ from: Double, _ to: Double) -> [Float] {
        let a = Int(from * b.sampleRate), z = min(b.frameCount, Int(to * b.sampleRate))
        return (a..<max(a, z)).map { b.samples[$0 * b.channelCount] }
    }

    /// Plays the session with `environment`; the JSON event lines and the capture.
    static func play(_ station: String, seconds: Int, tone: Bool, environment: [String: String]) throws -> (ExternalTool.Result, [String], AudioBuffer) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-radio-tls")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data(session(station, seconds: seconds, tone: tone).utf8).write(to: URL(fileURLWithPath: path))
        let capture = dir.appendingPathComponent("capture.wav").path
        let result = try SinkLock.exclusive {
            try ExternalTool.cabin(["play", path, "--json", "--period", "1024", "--periods", "4"],
                                   environment: environment.merging([PacedSink.captureVariable: capture]) { a, _ in a })
        }
        let events = result.stdout.split(separator: "\n").map(String.init).filter { $0.contains(#""event":"radio-"#) }
        return (result, events, try SoundFile.read(capture))
    }

    @Test func trustedStationPlaysOverHTTPS() throws {
        let server = try IcecastServer(tls: true)
        defer { server.stop() }
        try server.startSource(.opus, mount: "tone")
        let (result, events, capture) = try Self.play(server.httpsURL("tone"), seconds: 10, tone: false,
                                                      environment: ["CURL_CA_BUNDLE": server.certificatePath])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(events.contains { $0.contains(#""event":"radio-playing""#) }, "\(events)")
        #expect(!events.contains { $0.contains(#""event":"radio-error""#) }, "\(events)")
        // The tone arrived (within 8 s, as over plain HTTP in RadioStationTests) and plays at the end.
        let end = Self.left(capture, 8, 9.8)
        #expect(SignalAnalysis.rms(end) > 0.05, "\(events)")
        let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(end, sampleRate: 48000), "\(events)")
        #expect(abs(frequency - 1000) <= 5, "\(frequency) Hz")
    }

    @Test func untrustedCertificateIsOneLineAndTheSessionPlaysOn() throws {
        let server = try IcecastServer(tls: true)
        defer { server.stop() }
        try server.startSource(.opus, mount: "tone")
        let (result, events, capture) = try Self.play(server.httpsURL("tone"), seconds: 4, tone: true,
                                                      environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        let errors = events.filter { $0.contains(#""event":"radio-error""#) }
        #expect(errors.count == 1, "\(events)")
        #expect(errors.first?.contains("TLS failed: SSL certificate problem: self-signed certificate") == true
                && errors.first?.contains("CURL_CA_BUNDLE") == true, "\(events)")
        // The 440 Hz layer plays in every 250 ms of the session.
        for w in 0..<15 {
            let part = Self.left(capture, Double(w) * 0.25, Double(w + 1) * 0.25)
            #expect(SignalAnalysis.rms(part) > 0.01, "window \(w) is silent")
        }
    }
}
