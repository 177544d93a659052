import CabinAudio
import CabinHaptics
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Haptic layers in sessions: read and written, combined as Core Haptics combines players,
/// rendered in the haptic track at any block size, and the drive's road texture.
@Suite struct HapticLayerTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static let library = HapticPatternLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics"))

    /// A constant continuous pattern of `seconds`, written to `dir/name`.
    static func flat(_ dir: URL, _ name: String, intensity: Double, sharpness: Double, seconds: Double = 1) throws {
        try Data("""
            {"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": \(seconds),
              "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": \(intensity)},
                                  {"ParameterID": "HapticSharpness", "ParameterValue": \(sharpness)}]}}]}
            """.utf8).write(to: dir.appendingPathComponent(name))
    }

    static func load(_ json: String, in dir: URL, rate: Double = 8000) throws -> SessionLoader.Loaded {
        let path = dir.appendingPathComponent("s.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return try SessionLoader.load(path: path, sampleRate: rate, patterns: library)
    }

    @Test func aHapticLayerReadsWritesBackAndChecksItsRanges() throws {
        let json = """
            { "cabin": 1, "duration": "1m",
              "parameters": { "speed": { "value": 0, "min": 0, "max": 80 } },
              "layers": { "road": { "haptic": "road-smooth", "loop": true,
                                    "intensity": { "parameter": "speed", "map": [[0, 0], [65, 0.5]] },
                                    "sharpness": { "parameter": "speed", "map": [[0, -0.1], [65, 0.2]] } } },
              "cues": [ { "at": 0, "start": "road", "fadeIn": "2s" },
                        { "at": "30s", "crossfade": "road", "to": "road-rough", "over": "3s" },
                        { "at": "50s", "stop": "road", "fadeOut": "4s" } ] }
            """
        let read = SessionReader.read(json, file: "d.json")
        let document = try #require(read.document, "\(read.diagnostics)")
        #expect(document.hapticLayers == [HapticLayer(
            name: "road", pattern: "road-smooth", isLooping: true,
            intensity: LayerMap(parameter: "speed", points: [(0, 0), (65, 0.5)]),
            sharpness: LayerMap(parameter: "speed", points: [(0, -0.1), (65, 0.2)]))])
        #expect(document.cues[1].hapticCrossfade == Cue.HapticCrossfade(layer: "road", to: "road-rough", over: 3))
        #expect(document.hapticPatternsToLoad == ["road-smooth", "road-rough"])
        let again = SessionReader.read(document.json(), file: "again.json")
        #expect(again.document == document, "\(again.diagnostics)")

        let bad = SessionReader.read("""
            { "cabin": 1, "duration": "1m",
              "parameters": { "speed": { "value": 0, "min": 0, "max": 80 } },
              "layers": { "road": { "haptic": "road-smooth", "bus": "ambient",
                                    "intensity": { "parameter": "speed", "map": [[0, 0], [65, 1.5]] } } },
              "cues": [ { "at": 0, "fade": "road", "to": -6 } ] }
            """, file: "b.json")
        #expect(bad.diagnostics.errors.map(\.description) == [
            #"b.json:3:50: error: layers.road.bus: "bus" belongs to sound layers; a haptic layer has haptic, loop, intensity, sharpness"#,
            #"b.json:4:83: error: layers.road.intensity.map[1][1]: an intensity factor 1.5 is outside 0…1"#,
            #"b.json:5:32: error: cues[0].fade: no layer named "road""#,  // (the layer itself was wrong)
        ])
        let fade = SessionReader.read(#"{ "cabin": 1, "layers": { "road": { "haptic": "tick" } }, "cues": [ { "at": 0, "fade": "road", "to": -6 } ] }"#,
                                      file: "f.json")
        #expect(fade.diagnostics.errors.map(\.description) == [
            #"f.json:1:88: error: cues[0].fade: "road" is a haptic layer: it starts, stops and crossfades, and its "intensity" map sets its level"#,
        ])
    }

    /// Issue 30: a looping layer plays its pattern as a loop (`CompiledHaptics.looped`): the
    /// road texture holds its level through every seam (one pass dipped to 0 there for 2 ms).
    @Test func aLoopingLayerHasNoSeam() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptic-loop")
        let loaded = try Self.load("""
            { "cabin": 1, "duration": "7s", "layers": { "road": { "haptic": "road-smooth", "loop": true } },
              "cues": [ { "at": 0, "start": "road" } ] }
            """, in: dir)
        let signal = try #require(SessionHapticSignal(loaded.compiled))
        for seam in [2.0, 4.0, 6.0] {
            let around = stride(from: seam - 0.003, through: seam + 0.003, by: 0.001).map { signal.value(at: $0).intensity }
            #expect(around.allSatisfy { $0 > 0.1 }, "at \(seam) s: \(around)")
            #expect(zip(around.dropFirst(), around).allSatisfy { abs($0 - $1) <= 0.02 }, "at \(seam) s: \(around)")
        }
    }

    @Test func layersCombineAsCoreHapticsCombinesPlayers() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptic-layers")
        try Self.flat(dir, "a.ahap", intensity: 0.6, sharpness: 0.2)
        try Self.flat(dir, "b.ahap", intensity: 0.7, sharpness: 0.8)
        try Self.flat(dir, "c.ahap", intensity: 0.2, sharpness: 0.5)
        let loaded = try Self.load("""
            { "cabin": 1, "duration": "20s",
              "parameters": { "level": { "value": 1, "min": 0, "max": 1 } },
              "layers": { "a": { "haptic": "a.ahap", "loop": true },
                          "b": { "haptic": "b.ahap", "loop": true,
                                 "intensity": { "parameter": "level", "map": [[0, 0], [1, 1]] } } },
              "cues": [ { "at": 0, "start": "a", "fadeIn": "2s" },
                        { "at": "4s", "start": "b" },
                        { "at": "6s", "set": "level", "to": 0.5 },
                        { "at": "8s", "set": "level", "to": 0, "over": "2s" },
                        { "at": "12s", "crossfade": "a", "to": "c.ahap", "over": "2s" },
                        { "at": "16s", "stop": "a", "fadeOut": "2s" } ] }
            """, in: dir)
        #expect(loaded.warnings.isEmpty)
        let signal = try #require(SessionHapticSignal(loaded.compiled))
        func at(_ t: Double) -> (intensity: Double, sharpness: Double) { signal.value(at: t) }
        // (Whole seconds are where each loop of a 1 s pattern re-attacks: its 2 ms attack.)
        #expect(abs(at(1.25).intensity - 0.6 * 0.625) < 1e-6)   // into a's 2 s fade-in
        #expect(abs(at(3.5).intensity - 0.6) < 1e-6)             // a alone, looped past its 1 s
        #expect(abs(at(3.5).sharpness - 0.2) < 1e-6)
        #expect(abs(at(5.5).intensity - 1) < 1e-6)               // 0.6 + 0.7 clipped to 1
        #expect(abs(at(5.5).sharpness - (0.6 * 0.2 + 0.7 * 0.8) / 1.3) < 1e-6)  // weighted by intensity
        #expect(abs(at(7.5).intensity - (0.6 + 0.35)) < 1e-6)    // b's map at level 0.5
        #expect(abs(at(9.5).intensity - (0.6 + 0.7 * 0.125)) < 1e-6)  // level ramping 0.5 → 0 over 8…10 s
        #expect(abs(at(11.5).intensity - 0.6) < 1e-6)
        #expect(abs(at(13.5).intensity - (0.6 * 0.25 + 0.2 * 0.75)) < 1e-6)  // crossfade a → c, 3/4 through
        #expect(abs(at(15.5).intensity - 0.2) < 1e-6)
        #expect(abs(at(17.5).intensity - 0.2 * 0.25) < 1e-6)     // fading out over 16…18 s
        #expect(at(18.5).intensity == 0)

        // The haptic track follows the signal, the same at every block size.
        let track = SessionHapticTrack(loaded.compiled)
        func rendered(block: Int) -> [Float] {
            let frames = Int(loaded.compiled.durationFrames)
            var out = [Float](repeating: 0, count: frames)
            var block = [Float](repeating: 0, count: block)
            var position = 0
            while position < frames {
                let n = min(block.count, frames - position)
                block.withUnsafeMutableBufferPointer { track.render(into: $0, from: FrameTime(position), frameCount: n) }
                out.replaceSubrange(position..<position + n, with: block[0..<n])
                position += n
            }
            return out
        }
        let whole = rendered(block: 512)
        let one = rendered(block: 1) == whole, seven = rendered(block: 7) == whole  // (compared here: a diff of
        #expect(one)                                                               //  160,000 samples is slow)
        #expect(seven)
        func peak(_ from: Double, _ to: Double) -> Float {
            whole[Int(from * 8000)..<Int(to * 8000)].map { abs($0) }.max() ?? 0
        }
        let ceiling = Float(HapticAudioOptions().peakCeiling)
        #expect(abs(peak(2.5, 3.5) - 0.6 * ceiling) < 0.01)
        #expect(abs(peak(4.5, 5.5) - ceiling) < 0.01)
        #expect(peak(19, 20) == 0)
    }

    /// The drive preset: road texture under the wheels while it drives, none while parked at
    /// the rest stop, rougher on back roads.
    @Test func theDriveHasRoadTextureWhileDrivingAndNoneWhileParked() throws {
        func drive(_ route: String) throws -> CompiledSession {
            let document = try SessionPresets.make("drive", options: ["minutes": "40", "rest-every": "25m", "route": route])
            #expect(document.hapticLayers.map(\.pattern) == [route == "backroads" ? "road-rough" : "road-smooth"])
            let haptics = SessionHapticLoader.load(document, documentFolder: URL(fileURLWithPath: "/"), library: Self.library)
            #expect(haptics.failures.isEmpty)
            return SessionCompiler.compile(document, sounds: ResolvedSounds(), haptics: haptics, sampleRate: 8000)
        }
        let highway = try drive("highway")
        let rest = try #require(highway.marks.first { $0.name == "rest" }).frame
        let back = try #require(highway.marks.last { $0.name == "drive" }).frame
        let track = SessionHapticTrack(highway)
        func rms(_ from: FrameTime, _ seconds: Double) -> [Double] {
            let frames = Int(seconds * 8000)
            var out = [Float](repeating: 0, count: frames)
            out.withUnsafeMutableBufferPointer { track.render(into: $0, from: from, frameCount: frames) }
            return stride(from: 0, to: frames, by: 800).map { i in
                (out[i..<i + 800].reduce(0.0) { $0 + Double($1 * $1) } / 800).squareRoot()
            }
        }
        // Cruising ten minutes in: every 100 ms has texture.
        let driving = rms(8000 * 600, 20)
        #expect(driving.allSatisfy { $0 > 0.02 }, "\(driving.min() ?? 0)")
        // Parked: from a minute after pulling in until the engine restarts, nothing.
        let parkedStart = rest + 8000 * 60
        let parked = rms(parkedStart, Double(back - 8000 * 40 - parkedStart) / 8000)
        #expect(parked.allSatisfy { $0 < 1e-6 }, "\(parked.max() ?? 0)")

        // Rough roads vary more than smooth ones.
        func variance(_ session: CompiledSession) throws -> Double {
            let signal = try #require(SessionHapticSignal(session))
            let values = (0..<20_000).map { signal.value(at: 600 + Double($0) / 1000).intensity }
            let mean = values.reduce(0, +) / Double(values.count)
            return values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        }
        let rough = try drive("backroads")
        #expect(try variance(rough) > 2 * variance(highway))
        // The rumble plan follows the same signal: levels while driving, none while parked.
        let plan = highway.rumblePlan()
        let parkedMs = Int(parkedStart / 8), resumeMs = Int((back - 8000 * 40) / 8)
        #expect(plan.steps.contains { $0.time >= 600_000 && $0.time < 620_000 })
        #expect(!plan.steps.contains { step in
            if case .play = step.action { return step.time >= parkedMs && step.time < resumeMs }
            return false
        })
    }
}
