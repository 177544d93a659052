import CabinIO
import CabinPlayback
import Glibc
import Testing

/// `cabin haptics doctor`'s report logic, against recorded fake devices.
@Suite struct RumbleDoctorTests {
    @Test func noInputDevicesSaysSoInOneLine() {
        let report = RumbleDoctor.examine(path: nil, pulse: true, system: RecordingRumbleSystem(devices: [:]),
                                          clock: FakeRumbleClock())
        #expect(report.lines == ["no input devices on this machine (no /dev/input/event* nodes): no rumble device to examine"])
        #expect(report.devices.isEmpty)
    }

    @Test func aWorkingPadIsDescribedAndEachMotorPulsedOnce() {
        let clock = FakeRumbleClock()
        let pad = RecordingRumbleDevice(clock: clock, name: "Wireless Pad")
        let keyboard = RecordingRumbleDevice(clock: clock, ffBits: [], name: "Keyboard")
        let system = RecordingRumbleSystem(devices: ["/dev/input/event3": keyboard, "/dev/input/event5": pad])
        let report = RumbleDoctor.examine(path: nil, pulse: true, system: system, clock: clock)
        #expect(report.lines == [
            "/dev/input/event5: Wireless Pad",
            "  effects: rumble, periodic",
            "  effect slots: 16",
            "  FF_GAIN: yes (set to 100 % for the test)",
            "  memless: likely (16 slots, rumble emulated by the kernel's ff-memless: updates every 50 ms, sums are clamped)",
            "  pulse strong (low-frequency): played 200 ms",
            "  pulse weak (high-frequency): played 200 ms",
            "hint: if you felt nothing although both pulses played, the driver accepts rumble it does not pass on "
                + "(common with Bluetooth pads on older kernels and with pads behind Steam Input); try the pad over USB, "
                + "or close Steam",
        ])
        // The pulses: gain to full, then per motor upload (that motor only), play once, wait, remove.
        #expect(Array(pad.log.drop { !$0.contains("gain") }) == [
            "@0 write EV_FF gain 65535",
            "@0 EVIOCSFF id -1 strong 65535 weak 0 length 200 -> id 0",
            "@0 write EV_FF play 0 x1",
            "@300 EVIOCRMFF 0",
            "@300 EVIOCSFF id -1 strong 0 weak 65535 length 200 -> id 0",
            "@300 write EV_FF play 0 x1",
            "@600 EVIOCRMFF 0",
            "@600 close",
        ])
        #expect(pad.effects.isEmpty)
    }

    @Test func rumbleReportedButUploadRefusedGivesTheHint() {
        let clock = FakeRumbleClock()
        let pad = RecordingRumbleDevice(clock: clock, slots: 4, ffBits: [EvdevCode.ffRumble], name: "Old Pad")
        pad.failures = [(prefix: "EVIOCSFF", code: EACCES, count: 1)]
        let report = RumbleDoctor.examine(path: "/dev/input/event2", pulse: true,
                                          system: RecordingRumbleSystem(devices: ["/dev/input/event2": pad]), clock: clock)
        #expect(report.lines.contains("  FF_GAIN: no (strength is the effect's magnitude alone)"))
        #expect(report.lines.contains("  memless: likely not (4 slots)"))
        #expect(report.lines.contains { $0.hasPrefix("  pulse strong (low-frequency): failed: upload (EVIOCSFF): ") })
        #expect(!report.lines.contains { $0.hasPrefix("  pulse weak") })
        let hint = report.lines.last ?? ""
        #expect(hint.hasPrefix("hint: /dev/input/event2 reports rumble but upload (EVIOCSFF) failed"))
        #expect(hint.contains("write permission"))
        #expect(!pad.log.contains { $0.contains("play") })
    }

    @Test func aNamedNodeThatCannotRumbleOrBeOpenedIsSaidSo() {
        let keyboard = RecordingRumbleDevice(ffBits: [], name: "Keyboard")
        let system = RecordingRumbleSystem(devices: ["/dev/input/event3": keyboard],
                                           openErrors: ["/dev/input/event4": EACCES])
        let notRumble = RumbleDoctor.examine(path: "/dev/input/event3", pulse: true, system: system, clock: FakeRumbleClock())
        #expect(notRumble.lines == ["/dev/input/event3: not a rumble device (it reports no EV_FF with FF_RUMBLE)"])
        let locked = RumbleDoctor.examine(path: "/dev/input/event4", pulse: true, system: system, clock: FakeRumbleClock())
        #expect(locked.lines.count == 1)
        #expect(locked.lines[0].hasPrefix("/dev/input/event4: cannot open: "))
        #expect(locked.lines[0].hasSuffix("(no permission: add yourself to the 'input' group or add a udev rule)"))
        let scan = RumbleDoctor.examine(path: nil, pulse: true, system: system, clock: FakeRumbleClock())
        #expect(scan.lines.last == "no rumble device found among 2 input devices (1 could not be opened)")
    }
}
