import CabinAudio
import CabinHaptics
import CabinIO
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Haptic patterns of sessions loaded from the library and from files, and the haptic
/// track written beside the mix, sample-aligned.
@Suite struct SessionHapticTrackFileTests {
    static let library = HapticPatternLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics"))

    @Test func everyLibraryPatternLoadsStrictlyClean() throws {
        #expect(Self.library.names == [
            "arrival", "break-start", "breath-hold", "breath-in", "breath-out", "celebration", "counter-step", "engine-off",
            "engine-start", "engine-start-diesel", "engine-start-electric", "engine-start-four", "engine-start-v6",
            "engine-start-vintage", "focus-start", "gear-shift", "milestone", "rest-stop", "road-rough",
            "road-smooth", "seatbelt", "session-end", "speed-bump", "streak-success", "tick", "toggle", "turn-signal",
            "unlock", "warning",
        ])
        for name in Self.library.names {
            let bytes = Array(try Data(contentsOf: Self.library.url(for: name)))
            let result = HapticReader.read(bytes, file: "\(name).ahap", options: .strict)
            #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)")
            let compiled = try #require(result.pattern.map { HapticCompiler.compile($0) })
            #expect(compiled.endTime > 0)
        }
    }

    /// A session's `hapticStrength` scales its cues' intensities as documented; a wrong value
    /// is a located error; the document writes it back.
    @Test func sessionHapticStrengthScalesItsPatterns() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptic-strength")
        func loaded(_ strength: String?) throws -> CompiledHaptics {
            let session = dir.appendingPathComponent("s-\(strength ?? "default").json").path
            let field = strength.map { #", "hapticStrength": "\#($0)""# } ?? ""
            try Data(#"{ "cabin": 1, "duration": "2s"\#(field), "cues": [ { "at": "0.5s", "haptic": "breath-hold" } ] }"#.utf8)
                .write(to: URL(fileURLWithPath: session))
            let l = try SessionLoader.load(path: session, sampleRate: 48000, patterns: Self.library)
            if let strength {
                #expect(l.document.hapticStrength.rawValue == strength)
                #expect(l.document.json().contains(#""hapticStrength": "\#(strength)""#) == (strength != "strong"))
            }
            return try #require(l.compiled.hapticPatterns["breath-hold"])
        }
        let full = try loaded(nil)
        for (strength, factor) in [("off", 0.0), ("light", 0.4), ("medium", 0.7), ("strong", 1.0)] {
            let scaled = try loaded(strength)
            #expect(zip(full.breakpoints, scaled.breakpoints).allSatisfy { abs($1.intensity - $0.intensity * factor) < 1e-12 })
            #expect(full.breakpoints.map(\.time) == scaled.breakpoints.map(\.time))
        }
        let bad = SessionReader.read(#"{ "cabin": 1,\#n  "hapticStrength": "loud" }"#, file: "b.json")
        #expect(bad.diagnostics.errors.map(\.description)
                == [#"b.json:2:21: error: hapticStrength: unknown haptic strength "loud": use off, light, medium or strong"#])
    }

    @Test func renderWritesAHapticTrackAlignedWithTheMix() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptic-track")
        let click = AudioBuffer(samples: [Float](repeating: 0.5, count: 100), channelCount: 1, sampleRate: 48000)
        try SoundFile.write(click, to: dir.appendingPathComponent("click.wav").path, format: .wav(.float32))
        try Data(#"{"Version": 1, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}]}}]}"#.utf8)
            .write(to: dir.appendingPathComponent("knock.ahap"))
        let session = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "3s",
              "cues": [ { "at": "0.5s", "play": "click.wav", "haptic": "tick" },
                        { "at": "1.2s", "play": "click.wav", "haptic": "knock.ahap" } ] }
            """.utf8).write(to: URL(fileURLWithPath: session))
        let loaded = try SessionLoader.load(path: session, sampleRate: 48000, patterns: Self.library)
        #expect(loaded.warnings.isEmpty)
        var renderer = OfflineRenderer(blockFrames: 333)
        let hapticsPath = dir.appendingPathComponent("h.wav").path
        renderer.hapticTrack = .init(track: SessionHapticTrack(loaded.compiled), path: hapticsPath, format: .wav(.float32))
        let mixPath = dir.appendingPathComponent("mix.wav").path
        _ = try renderer.write(SessionRunner(loaded.compiled), to: mixPath, format: .wav(.float32))

        let mix = try SoundFile.read(mixPath), haptics = try SoundFile.read(hapticsPath)
        #expect(haptics.channelCount == 1)
        #expect(haptics.sampleRate == mix.sampleRate)
        #expect(haptics.frameCount == mix.frameCount)
        #expect(mix.frameCount == 144000)
        for frame in [24000, 57600] {
            // The click (a `play`) and the pattern (a `haptic`) of the same cue start on its frame
            // (`tick` taps at 0 s; `seatbelt` taps 10 ms in, on its own sound's first click).
            #expect(mix.samples[2 * (frame - 1)] == 0 && mix.samples[2 * frame] != 0, "mix at \(frame)")
            #expect(haptics.samples[frame - 1] == 0 && haptics.samples[frame] != 0, "haptics at \(frame)")
        }
        #expect(haptics.samples[96000...].allSatisfy { $0 == 0 }, "nothing after the patterns")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix("cabin-tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func fromAndToCutTheHapticTrackLikeTheMix() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptic-track")
        let session = dir.appendingPathComponent("s.json").path
        try Data(#"{ "cabin": 1, "duration": "2s", "cues": [ { "at": "1s", "haptic": "tick" } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: session))
        let loaded = try SessionLoader.load(path: session, sampleRate: 48000, patterns: Self.library)
        var renderer = OfflineRenderer()
        renderer.from = 0.5
        renderer.to = 1.5
        let hapticsPath = dir.appendingPathComponent("h.wav").path
        renderer.hapticTrack = .init(track: SessionHapticTrack(loaded.compiled), path: hapticsPath, format: .wav(.float32))
        _ = try renderer.write(SessionRunner(loaded.compiled), to: dir.appendingPathComponent("m.wav").path, format: .wav(.pcm16))
        let haptics = try SoundFile.read(hapticsPath)
        #expect(haptics.frameCount == 48000)
        #expect(haptics.samples[23999] == 0 && haptics.samples[24000] != 0, "the tick at 1 s is frame 24000 of the part")
    }
}
