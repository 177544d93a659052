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

/// The live rumble follows the running session: a speed changed while it plays moves the
/// road texture on the rumble device, and `leave-focus` plays the speed-bump there, from the
/// frame it was sent — the same rumble a document scripting those changes gets from its
/// plan. Through the library on the fake output, the device a recording fake.
@Suite struct LiveRumbleTests {
    static let library = HapticPatternLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics"))
    static let rate = 8000

    static func load(_ dir: URL, cues: String) throws -> CompiledSession {
        let path = dir.appendingPathComponent("road-\(cues.hashValue).json").path
        try Data("""
            { "cabin": 1, "duration": "6s",
              "parameters": { "speed": { "value": 20, "min": 0, "max": 80 } },
              "layers": { "road": { "haptic": "road-smooth", "loop": true,
                                    "intensity": { "parameter": "speed", "map": [[0, 0], [80, 1]] } } },
              "focus": { "away": 0, "fall": "500ms", "rise": "500ms" },
              "cues": [ { "at": 0, "start": "road" } \(cues) ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let loaded = try SessionLoader.load(path: path, sampleRate: Double(rate), maxBlockFrames: 16, patterns: library)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        return loaded.compiled
    }

    /// Voice 0's magnitudes at `ms` from a plan (zero while stopped).
    static func level(_ plan: RumblePlan, at ms: Int) -> RumbleMagnitudes {
        var level = RumbleMagnitudes.zero
        for step in plan.steps where step.time <= ms {
            switch step.action {
            case .play(0, let m, _): level = m
            case .stop(0): level = .zero
            default: break
            }
        }
        return level
    }

    /// The same from the device's log: uploads of the continuous length, and stops of its id.
    static func level(_ log: [String], at ms: Int, continuousLength: Int) -> RumbleMagnitudes {
        var level = RumbleMagnitudes.zero
        var id: String?
        for line in log {
            let words = line.split(separator: " ").map(String.init)
            guard let t = Int(words[0].dropFirst()), t <= ms else { break }
            if words[1] == "EVIOCSFF", words[9] == "\(continuousLength)" {
                level = RumbleMagnitudes(strong: UInt16(words[5])!, weak: UInt16(words[7])!)
                id = words.count > 10 ? words.last : words[3]
            } else if words.count == 5, words[3] == "stop", words[4] == id {
                level = .zero
            }
        }
        return level
    }

    /// Haptic uploads of the transient length: (time, strong, weak).
    static func transients(_ log: [String], length: Int) -> [(Int, UInt16, UInt16)] {
        log.compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard words[1] == "EVIOCSFF", words[9] == "\(length)" else { return nil }
            return (Int(words[0].dropFirst())!, UInt16(words[5])!, UInt16(words[7])!)
        }
    }

    @Test func aLiveSpeedChangeAndLeaveFocusReachTheRumbleDevice() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-live-rumble")
        let compiled = try Self.load(dir, cues: "")
        let backend = FakeAudioBackend(rate: Self.rate)
        var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(
            sampleRate: Self.rate, channelCount: 2, periodFrames: 16, periodCount: 3))
        options.backend = backend
        options.realtime = false
        let player = try LivePlayer(session: compiled, options: options)
        let device = RecordingRumbleDevice()
        let rumble = try SessionRumble(device: "/dev/input/event7", player: player,
                                       system: RecordingRumbleSystem(devices: ["/dev/input/event7": device]))
        final class Box: @unchecked Sendable { var failure: String? }
        let box = Box()
        // The rumble follows every 5 ms of the fake clock, at the listener's position.
        for k in 0...1200 {
            backend.clock.at(Double(k) * 0.005) {
                let position = player.position
                device.clock.time = .microseconds(Int64((position * 1000).rounded(.down)) * 1000)
                do { try rumble.follow(position: position) } catch { box.failure = "\(error)" }
            }
        }
        backend.clock.at(2.0) { player.setParameter("speed", to: 80) }
        backend.clock.at(4.0) { try? player.trigger("leave-focus") }
        try player.start()
        player.waitUntilFinished()
        #expect(box.failure == nil)
        let sent = try #require(player.triggeredHaptics.first)
        #expect(abs(Double(sent.frame) / Double(Self.rate) - 4.0) < 0.01)

        // The oracle: the same changes scripted in the document, played from its plan.
        let scripted = try Self.load(dir, cues: """
            , { "at": "2s", "set": "speed", "to": 80, "over": "50ms" },
              { "at": "\(Double(sent.frame) / Double(Self.rate))s", "trigger": "leave-focus" }
            """)
        let planOptions = RumblePlanOptions(transientVoices: 3)
        let plan = scripted.rumblePlan(options: planOptions)
        let continuous = planOptions.refreshMilliseconds + planOptions.slackMilliseconds
        // Before the change, after it, and while the speed falls away and is gone: each
        // step's magnitudes as the scripted plan has them (the live ramp's first 50 ms and
        // the fall's start may sit a block apart, so those steps are left out).
        var compared = 0
        for ms in stride(from: 25, to: 5975, by: 50) where !(1975...2125).contains(ms) && !(3975...4125).contains(ms) {
            let live = Self.level(device.log, at: ms, continuousLength: continuous)
            let expected = Self.level(plan, at: ms)
            if (4125...4600).contains(ms) {
                // The fall: within one step's worth of the plan.
                #expect(abs(Int(live.strong) - Int(expected.strong)) < 2500, "at \(ms) ms: \(live) vs \(expected)")
            } else {
                #expect(live == expected, "at \(ms) ms: \(live) vs \(expected)")
            }
            compared += 1
        }
        #expect(compared > 100)
        // The speed change is felt: the road is about four times as strong at 80 as at 20.
        let slow = Self.level(device.log, at: 1025, continuousLength: continuous)
        let fast = Self.level(device.log, at: 3025, continuousLength: continuous)
        #expect(slow.strong > 0 && Double(fast.strong) > 3 * Double(slow.strong), "\(slow) → \(fast)")
        #expect(Self.level(device.log, at: 5500, continuousLength: continuous) == .zero)
        // The speed-bump's transients, at the times and magnitudes of the scripted plan.
        let heard = Self.transients(device.log, length: planOptions.minimumTransientMilliseconds)
        let planned = plan.steps.compactMap { step -> (Int, UInt16, UInt16)? in
            guard case .play(let voice, let m, _) = step.action, voice > 0 else { return nil }
            return (step.time, m.strong, m.weak)
        }
        #expect(planned.count >= 2)
        #expect(heard.count == planned.count, "\(heard) vs \(planned)")
        for (h, p) in zip(heard, planned) {
            #expect(h.0 >= p.0 && h.0 <= p.0 + 6, "\(h) vs \(p)")
            #expect(h.1 == p.1 && h.2 == p.2)
        }
        #expect(heard.first.map { $0.0 >= 4000 } == true)
    }
}
