import CabinAudio
import CabinIO
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// A seek on the session's timeline moves a playlist's track with it (`RadioStations.timelineMoved`,
/// which `LivePlayer.seek` calls): forward within the track, back to where the track was
/// that long ago, crossfaded over 30 ms. Driven block by block (as offline), so deterministic.
struct PlaylistSeekTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static let rate = 48000.0

    @Test(.enabled(if: ExternalTool.which("sox") != nil))
    func seekMovesWithinTheTrack() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-seek")
        defer { try? FileManager.default.removeItem(at: dir) }
        // One track, a second each of 300, 500, 700 and 900 Hz; a second track of 1100 Hz.
        var parts: [String] = []
        for f in [300, 500, 700, 900] {
            let part = dir.appendingPathComponent("p\(f).wav").path
            _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", part, "synth", "1", "sine", "\(f)", "vol", "0.2"])
            parts.append(part)
        }
        _ = try ExternalTool.check("sox", parts + [dir.appendingPathComponent("1 steps.flac").path])
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", dir.appendingPathComponent("2 high.flac").path,
                                           "synth", "3", "sine", "1100", "vol", "0.2"])
        let path = try PlaylistTests.session(dir, sound: "./", seconds: 4)
        let document = try #require(SessionReader.read(String(contentsOfFile: path, encoding: .utf8), file: "s.json").document)
        let compiled = SessionCompiler.compile(document, sounds: ResolvedSounds(), sampleRate: Self.rate, maxBlockFrames: 480)
        let radio = RadioStations(compiled, documentFolder: dir.path)
        let runner = SessionRunner(compiled)
        var out: [Float] = []
        var buffer = [Float](repeating: 0, count: 960)
        var done = 0
        while !runner.isFinished {
            // At 0.5 s (in the 300 Hz second) 2 s on: 2.5 s into the track (700 Hz). At 1.5 s
            // (2.5 + 1 = 3.5 s in: 900 Hz) 3 s back: 0.5 s in (300 Hz). At 2.5 s, 5 s on:
            // past the track's end, into the next (1100 Hz).
            if done == 24_000 { radio.timelineMoved(by: 2) }
            if done == 72_000 { radio.timelineMoved(by: -3) }
            if done == 120_000 { radio.timelineMoved(by: 5) }
            radio.fill(frames: 480)
            let n = buffer.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: 480) }
            out += buffer[0..<(2 * n)]
            done += n
        }
        func frequency(_ from: Double, _ to: Double) -> Double {
            PlaylistTests.frequency(out, from: from, to: to)
        }
        #expect(abs(frequency(0.1, 0.45) - 300) < 3)
        #expect(abs(frequency(0.6, 0.95) - 700) < 3)   // 2.6 … 2.95 s into the track
        #expect(abs(frequency(1.05, 1.45) - 900) < 3)
        #expect(abs(frequency(1.6, 1.95) - 300) < 3)   // 0.6 … 0.95 s in again
        #expect(abs(frequency(2.05, 2.45) - 500) < 3)
        #expect(abs(frequency(2.6, 3.9) - 1100) < 3)
        // The crossfades are short and smooth: no step larger than the tones' own.
        var largest: Float = 0
        for i in 1..<(out.count / 2) { largest = max(largest, abs(out[2 * i] - out[2 * i - 2])) }
        #expect(largest < 0.05, "largest step \(largest)")
    }
}
