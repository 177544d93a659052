import CabinAudio
import CabinHaptics
import CabinIO
import CabinOutput
import CabinPlayback
import CabinTesting
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Leaving focus: the speed-bump warning as a live event (through the library on a fake
/// output) and as a cue verb (rendered offline).
@Suite struct FocusEventTests {
    static let library = HapticPatternLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics"))
    static let rate = 8000

    static func session(_ dir: URL, cues: String) throws -> String {
        let click = AudioBuffer(samples: [Float](repeating: 0.5, count: 400), channelCount: 1, sampleRate: Double(rate))
        try SoundFile.write(click, to: dir.appendingPathComponent("bump.wav").path, format: .wav(.float32))
        let path = dir.appendingPathComponent("focus.json").path
        try Data("""
            { "cabin": 1, "duration": "6s",
              "parameters": { "speed": { "value": 60, "min": 0, "max": 80 } },
              "focus": { "away": 20, "fall": "1s", "rise": "500ms", "sound": "bump.wav", "bus": "ui", "gain": 0 },
              "cues": [ \(cues) ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aTriggerCueBumpsSlowsAndReturns() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-focus-cue")
        let path = try Self.session(dir, cues: #"{ "at": "1s", "trigger": "leave-focus" }, { "at": "4s", "trigger": "return-focus" }"#)
        let loaded = try SessionLoader.load(path: path, sampleRate: Double(Self.rate), patterns: Self.library)
        #expect(loaded.warnings.isEmpty)
        let compiled = loaded.compiled
        #expect(compiled.haptics.map(\.pattern) == ["speed-bump"])
        #expect(compiled.haptics.map(\.frame) == [FrameTime(Self.rate)])
        #expect(compiled.parameterValue("speed", at: FrameTime(Self.rate)) == 60)
        #expect(compiled.parameterValue("speed", at: FrameTime(Self.rate * 3)) == 20)
        #expect(compiled.parameterValue("speed", at: FrameTime(Self.rate * 5)) == 60)
        // The sound lands on the cue's frame.
        let runner = SessionRunner(compiled)
        let frames = Int(compiled.durationFrames)
        var out = [Float](repeating: 0, count: 2 * frames)
        _ = out.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: frames) }
        let first = try #require((0..<frames).first { out[2 * $0] != 0 })
        #expect(first == Self.rate)
        // The document writes it back.
        let again = SessionReader.read(loaded.document.json(), file: "again.json")
        #expect(again.document == loaded.document, "\(again.diagnostics)")
        // Without "focus" a trigger is a located error.
        let bad = SessionReader.read(#"{ "cabin": 1, "cues": [ { "at": 0, "trigger": "leave-focus" }, { "at": 1, "trigger": "nap" } ] }"#,
                                     file: "b.json")
        #expect(bad.diagnostics.errors.map(\.description) == [
            #"b.json:1:47: error: cues[0].trigger: "trigger": "leave-focus" needs "focus" at the top level ("focus": {} takes the defaults)"#,
            #"b.json:1:86: error: cues[1].trigger: unknown event "nap": a cue triggers leave-focus or return-focus"#,
        ])
    }

    /// `player.trigger("leave-focus")` on a fake output: the bump's sound starts on the
    /// frame the event was sent at (the first the mixer had not rendered), the speed-bump is
    /// listed there, the speed falls, and `return-focus` brings it back.
    @Test func leaveFocusLiveLandsOnTheFrameItWasSent() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-focus-live")
        let path = try Self.session(dir, cues: #"{ "at": 0, "mark": "go" }"#)
        let loaded = try SessionLoader.load(path: path, sampleRate: Double(Self.rate), maxBlockFrames: 16,
                                            patterns: Self.library,
                                            options: SessionCompileOptions(hapticsBusGain: -12))
        let backend = FakeAudioBackend(rate: Self.rate)
        var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(
            sampleRate: Self.rate, channelCount: 2, periodFrames: 16, periodCount: 3))
        options.backend = backend
        options.realtime = false
        let player = try LivePlayer(session: loaded.compiled, options: options)
        #expect(player.liveEventList.map(\.name) == ["leave-focus", "return-focus"])
        final class Box: @unchecked Sendable { var speeds: [Double] = [] }
        let box = Box()
        backend.clock.at(1.0) { try? player.trigger("leave-focus") }
        backend.clock.at(3.0) { box.speeds.append(player.parameterValue("speed") ?? -1); try? player.trigger("return-focus") }
        backend.clock.at(4.0) { box.speeds.append(player.parameterValue("speed") ?? -1) }
        try player.start()
        player.waitUntilFinished()
        let sent = try #require(player.triggeredHaptics.first)
        #expect(player.triggeredHaptics.map(\.pattern) == ["speed-bump"])
        #expect(abs(Double(sent.frame) / Double(Self.rate) - 1.0) < 0.02)
        let heard = backend.heard()
        let first = try #require((0..<(heard.count / 2)).first { heard[2 * $0] != 0 })
        #expect(FrameTime(first) == sent.frame)
        #expect(box.speeds == [20, 60])
    }
}
