import CabinAudio
import CabinIO
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// A playlist whose entries are an internet station (a server of the tests' own on
/// 127.0.0.1 sending an Ogg Opus stream made by opusenc) and a file, played live (its own
/// threads, in real time) and switched with `nextStation`.
struct PlaylistStationTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    @Test(.enabled(if: ExternalTool.which("opusenc") != nil))
    func aStationInAPlaylistPlaysAndSwitchesToTheNextTrack() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-station")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("station.wav").path
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "8", "sine", "700", "vol", "0.3"])
        let opus = dir.appendingPathComponent("station.opus").path
        _ = try ExternalTool.check("opusenc", ["--quiet", wav, opus])
        let server = try HostileHTTPServer(reply: .response("200 OK", headers: ["Content-Type: audio/ogg"],
                                                            body: Array(try Data(contentsOf: URL(fileURLWithPath: opus))), hold: true))
        defer { server.stop() }
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", dir.appendingPathComponent("a.wav").path,
                                           "synth", "10", "sine", "300", "vol", "0.3"])
        try Data("#EXTM3U\n\(server.url())\na.wav\n".utf8).write(to: dir.appendingPathComponent("l.m3u"))
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "1m", "layers": { "radio": { "bus": "radio", "sound": "l.m3u" } },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = try SessionLoader.load(path: path, sampleRate: 48000, progressive: true)
        defer { loaded.radio.stop() }
        let stream = try #require(loaded.compiled.stations.first?.stream)
        var heard: [Float] = []
        var chunk = [Float](repeating: 0, count: 2 * 48000)
        /// Reads what the playlist delivers (as a mixer would) until `frames` more have come.
        func listen(_ frames: Int, timeout: Double) {
            let target = heard.count / 2 + frames
            let deadline = Date().addingTimeInterval(timeout)
            while heard.count / 2 < target && Date() < deadline {
                let n = chunk.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, frames: min(4800, target - heard.count / 2)) }
                heard += chunk[0..<(2 * n)]
                if n == 0 { Thread.sleep(forTimeInterval: 0.01) }
            }
        }
        func left(_ range: Range<Int>) -> [Float] { range.map { heard[2 * $0] } }
        listen(48000, timeout: 10)
        #expect(heard.count == 2 * 48000, "the station delivered \(heard.count / 2) frames in 10 s")
        // The station fades in over 20 ms; the middle of its first second is its tone.
        let station = SignalAnalysis.zeroCrossingFrequency(left(24000..<48000), sampleRate: 48000) ?? 0
        #expect(abs(station - 700) < 5, "the station plays \(station) Hz")
        try loaded.radio.nextStation()
        listen(3 * 48000, timeout: 10)
        let end = heard.count / 2
        let next = SignalAnalysis.zeroCrossingFrequency(left((end - 48000)..<end), sampleRate: 48000) ?? 0
        #expect(abs(next - 300) < 2, "after next: \(next) Hz")
        let titles = loaded.radio.poll().compactMap { if case .title(let url, let t) = $0, url == "l.m3u" { t } else { nil } }
        #expect(titles == [server.url(), "a"], "\(titles)")
    }
}
