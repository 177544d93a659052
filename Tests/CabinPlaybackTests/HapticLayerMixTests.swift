import CabinAudio
import CabinHaptics
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Haptic layers heard on the `haptics` bus (`render --haptics-in-mix`) and drawn in
/// `session plot`.
@Suite struct HapticLayerMixTests {
    static let document = """
        { "cabin": 1, "duration": "8s",
          "parameters": { "speed": { "value": 20, "min": 0, "max": 80 } },
          "layers": { "road": { "haptic": "flat.ahap", "loop": true,
                                "intensity": { "parameter": "speed", "map": [[0, 0], [80, 1]] } } },
          "cues": [ { "at": "1s", "start": "road", "fadeIn": "500ms" },
                    { "at": "4s", "set": "speed", "to": 80, "over": "100ms" },
                    { "at": "6s", "crossfade": "road", "to": "flat2.ahap", "over": "200ms" },
                    { "at": "7s", "stop": "road" } ] }
        """

    static func render(_ dir: URL, hapticsBusGain: Double?) throws -> (CompiledSession, [Float]) {
        try HapticLayerTests.flat(dir, "flat.ahap", intensity: 1, sharpness: 0.5, seconds: 0.5)
        try HapticLayerTests.flat(dir, "flat2.ahap", intensity: 1, sharpness: 0.5, seconds: 0.25)
        let path = dir.appendingPathComponent("mix.json").path
        try Data(Self.document.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = try SessionLoader.load(path: path, sampleRate: 8000, patterns: HapticLayerTests.library,
                                            options: SessionCompileOptions(hapticsBusGain: hapticsBusGain))
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let compiled = loaded.compiled
        let runner = SessionRunner(compiled)
        let frames = Int(compiled.durationFrames)
        var out = [Float](repeating: 0, count: 2 * frames)
        _ = out.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: frames) }
        return (compiled, out)
    }

    static func rms(_ out: [Float], _ from: Double, _ to: Double) -> Double {
        let a = Int(from * 8000), b = Int(to * 8000)
        var sum = 0.0
        for i in a..<b { sum += Double(out[2 * i]) * Double(out[2 * i]) }
        return (sum / Double(b - a)).squareRoot()
    }

    @Test func aHapticLayerIsHeardOnTheHapticsBusAtItsIntensity() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptic-layer-mix")
        let (_, silent) = try Self.render(dir, hapticsBusGain: nil)
        #expect(silent.allSatisfy { $0 == 0 }, "without --haptics-in-mix the layer is felt, not heard")
        let (compiled, out) = try Self.render(dir, hapticsBusGain: -12)
        #expect(compiled.config.layers.map(\.name) == ["road"])
        // Nothing before the start; the loop at speed 20 (factor 0.25), then at 80 (× 1):
        // 12 dB louder, as the haptic track's level follows the factor.
        #expect(Self.rms(out, 0, 0.99) == 0)
        let slow = Self.rms(out, 2, 3.5), fast = Self.rms(out, 4.5, 5.9)
        #expect(slow > 0.001)
        let rise = 20 * log10(fast / slow)
        #expect(abs(rise - 20 * log10(4)) < 0.5, "rise \(rise) dB")
        // The crossfade to the other pattern keeps it sounding; the stop ends it.
        #expect(abs(20 * log10(Self.rms(out, 6.5, 6.9) / fast)) < 1)
        #expect(Self.rms(out, 7.1, 7.9) < fast / 100)
        // The haptic track of the same session has the same shape (the mix plays its loop).
        let track = SessionHapticTrack(compiled)
        var felt = [Float](repeating: 0, count: Int(compiled.durationFrames))
        felt.withUnsafeMutableBufferPointer { track.render(into: $0, from: 0, frameCount: $0.count) }
        func trackRMS(_ a: Double, _ b: Double) -> Double {
            let s = felt[Int(a * 8000)..<Int(b * 8000)]
            return (s.reduce(0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
        }
        #expect(abs(20 * log10(trackRMS(4.5, 5.9) / trackRMS(2, 3.5)) - rise) < 0.5)
    }

    @Test func sessionPlotDrawsAHapticLayerLane() throws {
        let read = SessionReader.read(Self.document, file: "plot.json")
        let document = try #require(read.document, "\(read.diagnostics)")
        let plot = SessionPlot(document: document)
        let track = try #require(plot.hapticLayerTracks.first)
        #expect(track.layer == "road" && track.pattern == "flat.ahap")
        func at(_ t: Double) -> Double {
            let i = track.points.firstIndex { $0.time >= t }!
            let b = track.points[i], a = track.points[max(0, i - 1)]
            return b.time == a.time ? b.intensity : a.intensity + (b.intensity - a.intensity) * (t - a.time) / (b.time - a.time)
        }
        #expect(at(0.5) == 0)
        #expect(abs(at(1.25) - 0.125) < 1e-9, "half faded in at speed 20")
        #expect(abs(at(3) - 0.25) < 1e-9)
        #expect(abs(at(5) - 1) < 1e-9)
        #expect(at(7.5) == 0)
        #expect(track.crossfades.map(\.to) == ["flat2.ahap"])
        let svg = plot.svg()
        #expect(svg.contains("data-lane=\"haptic-layer:road\""))
        #expect(svg.contains("class=\"haptic-envelope\" data-layer=\"road\""))
    }
}
