import CabinAudio
import CabinHaptics
import CabinIO
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// `cabin play --haptics-device DEVICE`: the session plays on its device while a 4-channel
/// device (a DualSense's USB audio) gets the haptic track on channels 3–4, frame for frame.
/// Both are the project's paced sink (`default` and `cabinhaptics`), each capturing to a file.
@Suite(.serialized, .enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
struct HapticsDeviceTests {
    static let hapticsCapture = "CABIN_SINK_HAPTICS_FILE"

    @Test func channelsThreeAndFourCarryTheOfflineHapticTrackSampleAligned() throws {
        let json = """
            { "cabin": 1, "duration": "3s",
              "parameters": { "speed": { "value": 40, "min": 0, "max": 80 } },
              "layers": { "road": { "haptic": "road-rough", "loop": true,
                                    "intensity": { "parameter": "speed", "map": [[0, 0], [80, 1]] } } },
              "cues": [ { "at": "0.3s", "play": "synth:sine?frequency=1000", "haptic": "tick" },
                        { "at": "1s", "start": "road", "fadeIn": "200ms" },
                        { "at": "2s", "haptic": "speed-bump" } ] }
            """
        let loaded = try SessionLoader.load(bytes: Array(json.utf8), name: "dualsense.json", folder: TestEnvironment.packageRoot,
                                            sampleRate: 48000, maxBlockFrames: 256, patterns: HapticPatternLibrary.locate())
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let compiled = loaded.compiled
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics-device")
        let main = dir.appendingPathComponent("main.wav").path, haptics = dir.appendingPathComponent("haptics.wav").path
        var state: (droppedFrames: Int64, failed: Bool)?
        try SinkLock.recording(into: main) {
            setenv(Self.hapticsCapture, haptics, 1)
            defer { unsetenv(Self.hapticsCapture) }
            var options = LivePlayer.Options(device: "default")
            options.hapticsDevice = "cabinhaptics"
            let player = try LivePlayer(session: compiled, options: options)
            try player.start()
            player.waitUntilFinished()
            state = player.hapticsDeviceState
        }
        #expect(state?.droppedFrames == 0 && state?.failed == false, "\(String(describing: state))")

        // The offline haptic track (what `cabin render --haptics` writes).
        let frames = Int(compiled.durationFrames)
        var track = [Float](repeating: 0, count: frames)
        track.withUnsafeMutableBufferPointer { SessionHapticTrack(compiled).render(into: $0, from: 0, frameCount: frames) }
        #expect(SignalAnalysis.peak(track) > 0.1)

        let felt = try SoundFile.read(haptics)
        #expect(felt.channelCount == 4)
        #expect(felt.frameCount >= frames)
        var worst = 0.0
        var quiet = true
        for i in 0..<frames {
            let f = felt.samples[4 * i ..< 4 * i + 4]
            quiet = quiet && f[f.startIndex] == 0 && f[f.startIndex + 1] == 0
            worst = max(worst, abs(Double(f[f.startIndex + 2] - track[i])), abs(Double(f[f.startIndex + 3] - track[i])))
        }
        #expect(quiet, "channels 1–2 carry silence")
        #expect(worst < 1e-4, "channels 3–4 differ from the offline haptic track by up to \(worst)")

        // Sample-aligned with the session's own device: the tick and its sound start on the
        // same frame, the cue's.
        let heard = try SoundFile.read(main)
        let firstSound = (0..<heard.frameCount).first { heard.samples[2 * $0] != 0 }
        let firstFelt = (0..<felt.frameCount).first { felt.samples[4 * $0 + 2] != 0 }
        // (The sine starts at sin 0 = 0 on frame 14400, so its first non-zero sample is 14401.)
        #expect(firstSound == 14401, "sound from \(String(describing: firstSound))")
        #expect(firstFelt == 14400, "haptics from \(String(describing: firstFelt))")
    }

    /// The real binary: `cabin play --haptics-device` captures what `cabin render --haptics`
    /// writes, and `haptics play --dualsense` plays a pattern there.
    @Test func cabinPlayWithAHapticsDeviceMatchesRenderHaptics() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics-device-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "2s",
              "cues": [ { "at": "0.2s", "haptic": "seatbelt" }, { "at": "1.2s", "haptic": "speed-bump" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let capture = dir.appendingPathComponent("felt.wav").path, track = dir.appendingPathComponent("track.wav").path
        let render = try ExternalTool.cabin(["render", path, "-o", dir.appendingPathComponent("out.wav").path, "--haptics", track,
                                             "--bits", "32f"])
        #expect(render.status == 0, "\(render.stderr)")
        let played = try SinkLock.exclusive {
            try ExternalTool.cabin(["play", path, "--haptics-device", "cabinhaptics", "--ipc", "off", "--no-mpris"],
                                   environment: [Self.hapticsCapture: capture])
        }
        #expect(played.status == 0, "\(played.stderr)")
        let offline = try SoundFile.read(track), felt = try SoundFile.read(capture)
        #expect(offline.channelCount == 1 && felt.channelCount == 4)
        #expect(felt.frameCount >= offline.frameCount && offline.frameCount == 96000)
        var worst = 0.0
        for i in 0..<offline.frameCount {
            worst = max(worst, abs(Double(felt.samples[4 * i + 2] - offline.samples[i])), abs(Double(felt.samples[4 * i + 3] - offline.samples[i])))
        }
        #expect(worst < 1e-4, "channels 3–4 differ from render --haptics by up to \(worst)")
        #expect(SignalAnalysis.peak(offline.samples) > 0.1)

        let pattern = try ExternalTool.cabin(["haptics", "play", TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics/tick.ahap").path,
                                              "--dualsense", "cabinhaptics"], environment: [Self.hapticsCapture: capture])
        #expect(pattern.status == 0, "\(pattern.stderr)")
        let tick = try SoundFile.read(capture)
        #expect(tick.channelCount == 4)
        #expect(SignalAnalysis.peak((0..<tick.frameCount).map { tick.samples[4 * $0 + 2] }) > 0.1)
        #expect((0..<tick.frameCount).allSatisfy { tick.samples[4 * $0] == 0 }, "tick has no sound: channel 1 is silent")
    }

    /// `-D none --haptics-device`: no sound, and the haptics still play — paced by the
    /// haptics device's own clock — as `cabin render --haptics` writes them, on time.
    @Test func withNoSoundDeviceTheHapticsDeviceStillPlaysOnItsOwnClock() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-haptics-device-silent")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "3s",
              "parameters": { "speed": { "value": 40, "min": 0, "max": 80 } },
              "layers": { "road": { "haptic": "road-rough", "loop": true,
                                    "intensity": { "parameter": "speed", "map": [[0, 0], [80, 1]] } } },
              "cues": [ { "at": "0.2s", "haptic": "seatbelt" }, { "at": "1s", "start": "road" },
                        { "at": "2s", "haptic": "speed-bump" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let capture = dir.appendingPathComponent("felt.wav").path, track = dir.appendingPathComponent("track.wav").path
        let render = try ExternalTool.cabin(["render", path, "-o", dir.appendingPathComponent("out.wav").path, "--haptics", track,
                                             "--bits", "32f"])
        #expect(render.status == 0, "\(render.stderr)")
        let started = Date()
        let played = try SinkLock.exclusive {
            try ExternalTool.cabin(["play", path, "-D", "none", "--haptics-device", "cabinhaptics", "--ipc", "off", "--no-mpris"],
                                   environment: [Self.hapticsCapture: capture])
        }
        let elapsed = Date().timeIntervalSince(started)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stderr.contains("-D none: playing silently on the haptics device's clock (cabinhaptics)"), "\(played.stderr)")
        // In real time: the device's clock paced it (3 s of session, not as fast as it renders).
        #expect(elapsed > 2.8, "played in \(elapsed) s")
        let offline = try SoundFile.read(track), felt = try SoundFile.read(capture)
        #expect(offline.channelCount == 1 && felt.channelCount == 4)
        #expect(felt.frameCount >= offline.frameCount && offline.frameCount == 144000)
        var worst = 0.0
        for i in 0..<offline.frameCount {
            worst = max(worst, abs(Double(felt.samples[4 * i + 2] - offline.samples[i])), abs(Double(felt.samples[4 * i + 3] - offline.samples[i])))
        }
        #expect(worst < 1e-4, "channels 3–4 differ from render --haptics by up to \(worst)")
        #expect(SignalAnalysis.peak(offline.samples) > 0.1)
        #expect((0..<felt.frameCount).allSatisfy { felt.samples[4 * $0] == 0 && felt.samples[4 * $0 + 1] == 0 })
    }

    @Test func aHapticsDeviceThatCannotOpenStopsThePlayerWithItsName() throws {
        let loaded = try SessionLoader.load(bytes: Array(#"{ "cabin": 1, "duration": "1s" }"#.utf8), name: "d.json",
                                            folder: TestEnvironment.packageRoot, sampleRate: 48000)
        var options = LivePlayer.Options(device: "default")
        options.hapticsDevice = "nosuchdevice"
        do {
            _ = try LivePlayer(session: loaded.compiled, options: options)
            Issue.record("a haptics device that does not exist was opened")
        } catch {
            #expect("\(error)".contains("\"nosuchdevice\""), "\(error)")
        }
    }
}
