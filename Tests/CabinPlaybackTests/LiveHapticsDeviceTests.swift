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

/// The haptics device (`cabin play --haptics-device`, a DualSense's channels 3–4) follows
/// the running session as the rumble does: a speed changed while it plays moves the road
/// texture there, and `leave-focus` plays the speed-bump from the frame it was sent and lets
/// the road fall away — what `cabin render --haptics` writes for a document scripting the
/// same changes. And the haptics follow every parameter the session's haptic layers read,
/// not the first few. Through the library on the fake output (the haptics device a 4-channel
/// fake beside the session's).
@Suite struct LiveHapticsDeviceTests {
    static let library = HapticPatternLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics"))
    static let rate = 8000
    static let period = 32

    /// Ten parameters before `speed`, so the one the road reads is the eleventh.
    static func load(_ dir: URL, cues: String) throws -> CompiledSession {
        let others = (0..<10).map { #""a\#($0)": { "value": 0, "min": 0, "max": 1 }"# }.joined(separator: ", ")
        let path = dir.appendingPathComponent("road-\(cues.hashValue).json").path
        try Data("""
            { "cabin": 1, "duration": "6s",
              "parameters": { \(others), "speed": { "value": 20, "min": 0, "max": 80 } },
              "layers": { "road": { "haptic": "road-smooth", "loop": true,
                                    "intensity": { "parameter": "speed", "map": [[0, 0], [80, 1]] } } },
              "focus": { "away": 0, "fall": "500ms", "rise": "500ms" },
              "cues": [ { "at": 0, "start": "road" } \(cues) ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = try SessionLoader.load(path: path, sampleRate: Double(rate), maxBlockFrames: 16, patterns: library)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        return loaded.compiled
    }

    static func track(_ session: CompiledSession, frames: Int) -> [Float] {
        var track = [Float](repeating: 0, count: frames)
        track.withUnsafeMutableBufferPointer { SessionHapticTrack(session).render(into: $0, from: 0, frameCount: frames) }
        return track
    }

    static func rms(_ x: [Float], _ range: Range<Int>) -> Double {
        (range.reduce(0.0) { $0 + Double(x[$1]) * Double(x[$1]) } / Double(range.count)).squareRoot()
    }

    /// With no sound (`playSilently`), the haptics device still opens on the backend sound
    /// would have used, whether it was set before or after: the order callers set options in
    /// cannot send it to the silent clock (the studio's options once did, and the device got
    /// nothing).
    @Test func aHapticsDeviceKeepsItsBackendWhicheverIsSetFirst() throws {
        let backend = FakeAudioBackend(rate: Self.rate)
        for hapticsFirst in [true, false] {
            var options = LivePlayer.Options(device: "fake")
            options.backend = backend
            if hapticsFirst { options.hapticsDevice = "fakehaptics" }
            options.playSilently(because: "a test")
            if !hapticsFirst { options.hapticsDevice = "fakehaptics" }
            #expect(options.resolvedOutput.backend is SilentClockBackend)
            let haptics = try #require(options.resolvedHaptics)
            #expect((haptics.backend as? FakeAudioBackend) === backend, "haptics first: \(hapticsFirst)")
            #expect(haptics.device == "fakehaptics")
        }
        // With the registry's backend (none set), the haptics device is resolved by its
        // scheme, never the silent clock's.
        var options = LivePlayer.Options(device: "default")
        options.playSilently(because: "a test")
        options.hapticsDevice = "hw:9"
        let haptics = try #require(options.resolvedHaptics)
        #expect(haptics.backend is ALSABackend && haptics.device == "hw:9")
    }

    @Test func aLiveSpeedChangeAndLeaveFocusReachChannelsThreeAndFour() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-live-haptics-device")
        defer { try? FileManager.default.removeItem(at: dir) }
        let compiled = try Self.load(dir, cues: "")
        #expect(compiled.config.parameter(named: "speed")?.index == 10)
        let backend = FakeAudioBackend(rate: Self.rate)
        var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(
            sampleRate: Self.rate, channelCount: 2, periodFrames: Self.period, periodCount: 3))
        options.backend = backend
        options.realtime = false
        options.hapticsDevice = "fakehaptics"
        let player = try LivePlayer(session: compiled, options: options)
        backend.clock.at(2.0) { player.setParameter("speed", to: 80) }
        backend.clock.at(4.0) { try? player.trigger("leave-focus") }
        try player.start()
        player.waitUntilFinished()
        #expect(player.hapticsDeviceState?.droppedFrames == 0 && player.hapticsDeviceState?.failed == false)
        let device = try #require(backend.outputs.first { $0.device == "fakehaptics" })
        let frames = Int(compiled.durationFrames)
        #expect(device.negotiated.channelCount == 4 && device.startedAt == 0 && device.xrunCount == 0)
        #expect(device.heard.count >= 4 * frames)
        let felt = (0..<frames).map { device.heard[4 * $0 + 2] }
        #expect((0..<frames).allSatisfy { device.heard[4 * $0] == 0 && device.heard[4 * $0 + 1] == 0 && device.heard[4 * $0 + 3] == felt[$0] })
        let sent = try #require(player.triggeredHaptics.first)
        #expect(abs(Double(sent.frame) / Double(Self.rate) - 4.0) < 0.02, "leave-focus sent at frame \(sent.frame)")

        // The speed change is felt: the road about four times as strong at 80 as at 20.
        let slow = Self.rms(felt, 8000..<12000), fast = Self.rms(felt, 24000..<28000)
        #expect(slow > 0.02 && fast > 3 * slow, "road \(slow) → \(fast)")
        // Nothing live yet: the offline track itself.
        let plain = Self.track(compiled, frames: frames)
        let untouched = (0..<16000).map { abs(Double(felt[$0] - plain[$0])) }.max() ?? 0
        #expect(untouched < 1e-6, "before the change the device differs from the offline track by \(untouched)")

        // The oracle: the same changes scripted. The live `set` lands where the mixer next
        // begins a block after it was sent (within the output's buffer of 2 s), ramped over
        // the mixer's 50 ms; its frame is found as the one whose script matches best.
        let focus = "{ \"at\": \"\(Double(sent.frame) / Double(Self.rate))s\", \"trigger\": \"leave-focus\" }"
        var best = (frame: -1, worst: Double.infinity)
        for frame in 16000...(16000 + 4 * Self.period) {
            let session = try Self.load(dir, cues: ", { \"at\": \"\(Double(frame) / Double(Self.rate))s\", \"set\": \"speed\", \"to\": 80, \"over\": \"50ms\" }")
            let track = Self.track(session, frames: 20000)
            let worst = (15000..<20000).map { abs(Double(felt[$0] - track[$0])) }.max() ?? 0
            if worst < best.worst { best = (frame, worst) }
        }
        #expect(best.frame >= 16000 && best.frame <= 16000 + 3 * Self.period + 16, "the change landed at \(best.frame)")
        let scripted = try Self.load(dir, cues: """
            , { "at": "\(Double(best.frame) / Double(Self.rate))s", "set": "speed", "to": 80, "over": "50ms" }, \(focus)
            """)
        let oracle = Self.track(scripted, frames: frames)
        // The device reads the mixer's ramps once a period, a few frames from where the
        // timeline has them (the mixer's own block steps); on the steepest ramp here (the
        // 500 ms fall, 2 of full intensity a second) that is 8.3e-4 at most (measured:
        // about 0.4 ms of the fall), with 4 ms periods.
        var worst = 0.0
        for i in 0..<frames { worst = max(worst, abs(Double(felt[i] - oracle[i]))) }
        #expect(worst < 1e-3, "channels 3–4 differ from the scripted document's haptic track by up to \(worst)")
        #expect(best.worst < 1e-3)
        // The speed-bump is there, from the frame sent: the scripted track without it differs.
        let withoutBump = Self.track(try Self.load(dir, cues: """
            , { "at": "\(Double(best.frame) / Double(Self.rate))s", "set": "speed", "to": 80, "over": "50ms" }
            """), frames: frames)
        let start = Int(sent.frame)
        #expect((start - 400..<start).allSatisfy { abs(felt[$0] - withoutBump[$0]) < 1e-3 })
        let bump = (start..<(start + 4000)).map { abs(Double(oracle[$0] - withoutBump[$0])) }.max() ?? 0
        #expect(bump > 0.2, "the speed-bump adds up to \(bump)")
        // And the road falls away with the speed.
        #expect(Self.rms(felt, 44000..<47000) < 0.01)
    }

    /// The rumble follows the eleventh parameter live too (it followed the first eight).
    @Test func theRumbleFollowsAParameterPastTheEighth() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-live-rumble-wide")
        defer { try? FileManager.default.removeItem(at: dir) }
        let compiled = try Self.load(dir, cues: "")
        let backend = FakeAudioBackend(rate: Self.rate)
        var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(
            sampleRate: Self.rate, channelCount: 2, periodFrames: 16, periodCount: 3))
        options.backend = backend
        options.realtime = false
        let player = try LivePlayer(session: compiled, options: options)
        #expect(player.hapticFeed.parameters == [10])
        let device = RecordingRumbleDevice()
        let rumble = try SessionRumble(device: "/dev/input/event7", player: player,
                                       system: RecordingRumbleSystem(devices: ["/dev/input/event7": device]))
        for k in 0...1200 {
            backend.clock.at(Double(k) * 0.005) {
                let position = player.position
                device.clock.time = .microseconds(Int64((position * 1000).rounded(.down)) * 1000)
                try? rumble.follow(position: position)
            }
        }
        backend.clock.at(2.0) { player.setParameter("speed", to: 80) }
        try player.start()
        player.waitUntilFinished()
        let planOptions = RumblePlanOptions(transientVoices: 3)
        let continuous = planOptions.refreshMilliseconds + planOptions.slackMilliseconds
        let slow = LiveRumbleTests.level(device.log, at: 1025, continuousLength: continuous)
        let fast = LiveRumbleTests.level(device.log, at: 3025, continuousLength: continuous)
        #expect(slow.strong > 0 && Double(fast.strong) > 3 * Double(slow.strong), "\(slow) → \(fast)")
    }
}
