import CabinHaptics
import CabinIO
import CabinOutput
import CabinPlayback
import Foundation
import Glibc
import Testing

/// The rumble player's exact operation sequences, against a recording device.
@Suite struct RumblePlayerTests {
    static let probe = ["@0 EVIOCGBIT 0", "@0 EVIOCGBIT 21", "@0 EVIOCGNAME", "@0 EVIOCGEFFECTS"]

    static func pattern(_ elements: String) -> CompiledHaptics {
        let result = HapticReader.read(Array(#"{"Version": 1, "Pattern": [\#(elements)]}"#.utf8), file: "t.ahap")
        return HapticCompiler.compile(result.pattern!)
    }

    static func continuous(_ intensity: Double, _ sharpness: Double, _ duration: Double) -> CompiledHaptics {
        pattern(#"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": \#(duration), "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": \#(intensity)}, {"ParameterID": "HapticSharpness", "ParameterValue": \#(sharpness)}]}}"#)
    }

    static func transients(_ times: [String], sharpness: Double = 1) -> CompiledHaptics {
        pattern(times.map {
            #"{"Event": {"Time": \#($0), "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": \#(sharpness)}]}}"#
        }.joined(separator: ","))
    }

    @Test func continuousPatternUploadsPlaysStopsAndRemoves() throws {
        let device = RecordingRumbleDevice()
        let player = try RumblePlayer(device: device, path: "/dev/input/event9")
        #expect(player.info == RumbleDeviceInfo(path: "/dev/input/event9", name: "Test Pad", effectSlots: 16,
                                                supportsGain: true, otherEffects: ["periodic"]))
        let outcome = try player.play(Self.continuous(1, 0, 0.1), gain: 0.75, clock: device.clock)
        #expect(outcome == .finished)
        #expect(device.log == Self.probe + [
            "@0 write EV_FF gain 49151",
            "@0 EVIOCSFF id -1 strong 63569 weak 0 length 150 -> id 0",
            "@0 write EV_FF play 0 x1",
            "@50 EVIOCSFF id 0 strong 65535 weak 0 length 150",
            "@50 write EV_FF play 0 x1",
            "@100 EVIOCSFF id 0 strong 32768 weak 0 length 103",
            "@100 write EV_FF play 0 x1",
            "@103 write EV_FF stop 0",
            "@103 write EV_FF stop 0",
            "@103 EVIOCRMFF 0",
        ])
        #expect(device.effects.isEmpty)
        player.close()
        #expect(device.log.last == "@103 close")
    }

    @Test func longEffectsAreUploadedAgainBeforeTheirReplayLengthEnds() throws {
        let device = RecordingRumbleDevice()
        let player = try RumblePlayer(device: device, path: "/dev/input/event9")
        try player.play(Self.continuous(0.5, 1, 2.5), clock: device.clock)
        let uploads = device.log.filter { $0.contains("EVIOCSFF") }
        #expect(uploads == [
            "@0 EVIOCSFF id -1 strong 0 weak 31784 length 150 -> id 0",
            "@50 EVIOCSFF id 0 strong 0 weak 32768 length 1100",
            "@1050 EVIOCSFF id 0 strong 0 weak 32768 length 1100",
            "@2050 EVIOCSFF id 0 strong 0 weak 32768 length 550",
            "@2500 EVIOCSFF id 0 strong 0 weak 16384 length 103",
        ])
    }

    @Test func transientsLastThirtyMillisecondsAndReuseTheirSlots() throws {
        let device = RecordingRumbleDevice(slots: 3)
        let player = try RumblePlayer(device: device, path: "/dev/input/event9")
        // 3 slots: voice 0 (continuous, unused here) + 2 transient voices.
        try player.play(Self.transients(["0", "0.01", "0.02", "0.04"]), clock: device.clock)
        #expect(Array(device.log.dropFirst(5)) == [
            "@0 EVIOCSFF id -1 strong 0 weak 65535 length 30 -> id 0",
            "@0 write EV_FF play 0 x1",
            "@10 EVIOCSFF id -1 strong 0 weak 65535 length 30 -> id 1",
            "@10 write EV_FF play 1 x1",
            "@20 EVIOCSFF id 0 strong 0 weak 65535 length 30",
            "@20 write EV_FF play 0 x1",
            "@40 EVIOCSFF id 1 strong 0 weak 65535 length 30",
            "@40 write EV_FF play 1 x1",
            "@70 write EV_FF stop 0",
            "@70 EVIOCRMFF 0",
            "@70 write EV_FF stop 1",
            "@70 EVIOCRMFF 1",
        ])
    }

    @Test(.needsSharedFixtures) func aOneSlotDeviceGetsTransientsMergedIntoItsOnlySlot() throws {
        let device = RecordingRumbleDevice(slots: 1, ffBits: [EvdevCode.ffRumble])
        let player = try RumblePlayer(device: device, path: "/dev/input/event9")
        #expect(player.planOptions().transientVoices == 0)
        let heartbeats = try HapticReader.read(
            Array(Data(contentsOf: TestFixtures.url("ahap/apple__unityplugins__Heartbeats.ahap"))), file: "h.ahap")
        try player.play(HapticCompiler.compile(#require(heartbeats.pattern)), clock: device.clock)
        #expect(device.log.contains { $0.contains("-> id 0") })
        #expect(!device.log.contains { $0.contains("gain") }, "no FF_GAIN bit, no gain write")
        #expect(device.log.filter { $0.contains("-> id") }.allSatisfy { $0.hasSuffix("-> id 0") })
        #expect(!device.log.contains { $0.contains("errno") })
        #expect(device.effects.isEmpty)
    }

    @Test func eintrIsRetried() throws {
        let device = RecordingRumbleDevice()
        device.failures = [("EVIOCSFF", EINTR, 1), ("write EV_FF play", EINTR, 2)]
        let player = try RumblePlayer(device: device, path: "/dev/input/event9")
        let outcome = try player.play(Self.transients(["0"]), clock: device.clock)
        #expect(outcome == .finished)
        #expect(Array(device.log.dropFirst(5)) == [
            "@0 EVIOCSFF id -1 strong 0 weak 65535 length 30 -> errno \(EINTR)",
            "@0 EVIOCSFF id -1 strong 0 weak 65535 length 30 -> id 0",
            "@0 write EV_FF play 0 x1 -> errno \(EINTR)",
            "@0 write EV_FF play 0 x1 -> errno \(EINTR)",
            "@0 write EV_FF play 0 x1",
            "@30 write EV_FF stop 0",
            "@30 EVIOCRMFF 0",
        ])
    }

    @Test func enodevIsADisconnectedDeviceErrorAfterCleanupIsTried() throws {
        let device = RecordingRumbleDevice()
        let player = try RumblePlayer(device: device, path: "/dev/input/event9")
        device.failures = [("@50 EVIOCSFF", ENODEV, 1), ("@50 write", ENODEV, 5), ("@50 EVIOCRMFF", ENODEV, 5)]
        #expect {
            try player.play(Self.continuous(1, 0, 0.1), gain: 1, clock: device.clock)
        } throws: { error in
            guard let e = error as? ForceFeedbackError else { return false }
            return e.kind == .disconnected && e.operation == "EVIOCSFF" && e.code == ENODEV
                && e.description == "rumble device /dev/input/event9: EVIOCSFF: No such device (errno 19); reconnect the controller and play again"
        }
        #expect(Array(device.log.dropFirst(7)) == [
            "@50 EVIOCSFF id 0 strong 65535 weak 0 length 150 -> errno \(ENODEV)",
            "@50 write EV_FF stop 0 -> errno \(ENODEV)",
            "@50 EVIOCRMFF 0 -> errno \(ENODEV)",
        ])
    }

    @Test func cancellingStopsAndRemovesAtOnce() throws {
        let device = RecordingRumbleDevice()
        let player = try RumblePlayer(device: device, path: "/dev/input/event9")
        let clock = device.clock
        let outcome = try player.play(Self.continuous(1, 0, 1), clock: clock, isCancelled: { clock.milliseconds >= 60 })
        #expect(outcome == .cancelled)
        #expect(Array(device.log.dropFirst(9)) == ["@60 write EV_FF stop 0", "@60 EVIOCRMFF 0"])
        #expect(device.effects.isEmpty)
    }

    @Test func devicesWithoutRumbleAreRefused() throws {
        let keyboard = RecordingRumbleDevice(ffBits: [])
        #expect(throws: ForceFeedbackError(.unsupported, device: "/dev/input/event2", operation: "EVIOCGBIT", code: 0,
                                           detail: "no FF_RUMBLE force feedback")) {
            try RumblePlayer(device: keyboard, path: "/dev/input/event2")
        }
        let system = RecordingRumbleSystem(devices: [:], openErrors: ["/dev/input/event4": EACCES])
        #expect {
            try RumblePlayer.open("/dev/input/event4", system: system)
        } throws: { error in
            (error as? ForceFeedbackError)?.description
                == "rumble device /dev/input/event4: open: Permission denied (errno 13); add yourself to the 'input' group (then log in again), or use a udev rule"
        }
    }

    @Test func discoveryListsRumbleDevicesAndUnreadableNodes() {
        let pad = RecordingRumbleDevice(slots: 16, name: "Sony DualSense")
        let keyboard = RecordingRumbleDevice(ffBits: [], name: "AT Keyboard")
        let system = RecordingRumbleSystem(
            devices: ["/dev/input/event0": keyboard, "/dev/input/event3": pad],
            openErrors: ["/dev/input/event5": EACCES])
        let listing = RumbleDevices.list(system: system)
        #expect(listing.scanned == 3)
        #expect(listing.devices == [RumbleDeviceInfo(path: "/dev/input/event3", name: "Sony DualSense", effectSlots: 16,
                                                     supportsGain: true, otherEffects: ["periodic"])])
        #expect(listing.unreadable.map(\.path) == ["/dev/input/event5"])
        #expect(listing.unreadable.first?.error.code == EACCES)
        #expect(keyboard.log == ["@0 EVIOCGBIT 0", "@0 close"])
        #expect(pad.log.last == "@0 close")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["CABIN_RUMBLE_DEVICE"] != nil,
                   "set CABIN_RUMBLE_DEVICE=/dev/input/eventN to play on a real rumble device (none on CI machines)"))
    func playsOnARealDevice() throws {
        let path = ProcessInfo.processInfo.environment["CABIN_RUMBLE_DEVICE"]!
        let player = try RumblePlayer.open(path)
        defer { player.close() }
        #expect(player.info.effectSlots > 0)
        let start = ContinuousClock.now
        #expect(try player.play(Self.continuous(0.6, 0.3, 0.4)) == .finished)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(400) && elapsed < .milliseconds(900))
    }
}

/// The shared fixtures (../shared/fixtures).
enum TestFixtures {
    static func url(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/\(name)")
    }
}
