import CabinHaptics
import CabinIO
import Glibc

/// `cabin haptics doctor`: what a rumble device reports, and a short pulse per motor, with
/// a hint for the most common Linux rumble complaint (the device says it rumbles, the calls
/// fail or nothing moves).
///
/// The examination, in order: open the node read-only and probe it (`EV_FF`, `FF_RUMBLE`,
/// `FF_PERIODIC`/`FF_CONSTANT`, `FF_GAIN`, `EVIOCGEFFECTS`, name); then, unless pulses are
/// off, open it read-write, set `FF_GAIN` to 100 % where supported, and for each motor
/// (strong = low-frequency, weak = high-frequency) upload a 200 ms `FF_RUMBLE` effect at full
/// magnitude on that motor only, play it once, wait 300 ms, and remove it. Every step's
/// result is recorded; the first failure stops the pulses and gives the hint.
///
/// "Memless": the kernel's `ff-memless` layer (most USB and Bluetooth pads) emulates effects
/// in software, holds exactly 16 of them and plays rumble only. Userspace cannot ask for it,
/// so the report says "likely memless" when a device has 16 slots and rumble alone (or
/// rumble with the periodic effects ff-memless emulates), and says it is a guess.
///
/// Thread: control thread (opens devices and sleeps on the clock).
public enum RumbleDoctor {
    /// One examination.
    public struct Report: Sendable {
        /// The evdev nodes looked at (all of them when no device was named).
        public var scanned: Int
        /// The rumble devices found (`EV_FF` with `FF_RUMBLE`); empty: none.
        public var devices: [RumbleDeviceInfo]
        /// Nodes that could not be opened (usually permission), with the error.
        public var unreadable: [(path: String, error: SystemError)]
        /// The node named but not a rumble device (no `EV_FF`/`FF_RUMBLE`).
        public var notRumble: String?
        /// Whether one node was named (rather than every node scanned).
        public var named: Bool
        /// Per motor, what happened: `nil` = pulsed, otherwise the failing step.
        public var pulses: [(motor: String, failure: SystemError?)]
        /// The node pulsed (nil: no pulse asked for, or not exactly one device found).
        public var pulsedPath: String?
        /// The report, one fact per line.
        public var lines: [String]
    }

    /// How long each motor's pulse plays, in ms.
    public static let pulseMilliseconds: UInt16 = 200
    /// How long after a pulse starts its effect is removed and the next motor pulses, in ms.
    public static let pauseMilliseconds = 300

    /// Examines `path` (or every node when `nil`) on `system`; pulses the named device (or
    /// the only one found) when `pulse` is true.
    public static func examine(path: String?, pulse: Bool, system: any ForceFeedbackSystem = EvdevSystem(),
                               clock: any RumbleClock = SystemRumbleClock()) -> Report {
        var report = Report(scanned: 0, devices: [], unreadable: [], notRumble: nil, named: path != nil, pulses: [],
                            pulsedPath: nil, lines: [])
        if let path {
            report.scanned = 1
            do {
                let device = try RumbleDevices.open(path, writable: false, system: system)
                defer { _ = device.close() }
                if let info = try RumbleDevices.probe(device, path: path) {
                    report.devices.append(info)
                } else {
                    report.notRumble = path
                }
            } catch {
                report.unreadable.append((path, error))
            }
        } else {
            let listing = RumbleDevices.list(system: system)
            report.scanned = listing.scanned
            report.devices = listing.devices
            report.unreadable = listing.unreadable
        }
        if pulse, report.devices.count == 1, let info = report.devices.first {
            report.pulsedPath = info.path
            report.pulses = pulses(info, system: system, clock: clock)
        }
        report.lines = describe(report, pulse: pulse)
        return report
    }

    /// Whether the device looks like an `ff-memless` one (see the type).
    public static func isLikelyMemless(_ info: RumbleDeviceInfo) -> Bool {
        info.effectSlots == 16 && !info.otherEffects.contains("constant")
    }

    private static func pulses(_ info: RumbleDeviceInfo, system: any ForceFeedbackSystem,
                               clock: any RumbleClock) -> [(motor: String, failure: SystemError?)] {
        let device: any ForceFeedbackDevice
        do {
            device = try RumbleDevices.open(info.path, writable: true, system: system)
        } catch {
            return [("strong (low-frequency)", error), ("weak (high-frequency)", error)]
        }
        defer { _ = device.close() }
        if info.supportsGain { _ = device.writeEvent(.gain(0xFFFF)) }
        var results: [(motor: String, failure: SystemError?)] = []
        for (motor, magnitudes) in [("strong (low-frequency)", RumbleMagnitudes(strong: 0xFFFF, weak: 0)),
                                    ("weak (high-frequency)", RumbleMagnitudes(strong: 0, weak: 0xFFFF))] {
            var effect = RumbleEffect(id: -1, magnitudes: magnitudes, lengthMilliseconds: pulseMilliseconds)
            if device.uploadEffect(&effect) != 0 {
                results.append((motor, SystemError.fromErrno(operation: "upload (EVIOCSFF)")))
                break
            }
            if device.writeEvent(.play(effect.id, count: 1)) < 0 {
                results.append((motor, SystemError.fromErrno(operation: "play (write EV_FF)")))
                _ = device.removeEffect(id: effect.id)
                break
            }
            clock.sleep(for: .milliseconds(pauseMilliseconds))
            _ = device.removeEffect(id: effect.id)
            results.append((motor, nil))
        }
        return results
    }

    /// The report's lines (see ``Report/lines``).
    static func describe(_ report: Report, pulse: Bool) -> [String] {
        var lines: [String] = []
        for (path, error) in report.unreadable {
            lines.append("\(path): cannot open: \(error.reason)"
                         + (error.code == EACCES ? " (no permission: add yourself to the 'input' group or add a udev rule)" : ""))
        }
        if let path = report.notRumble {
            lines.append("\(path): not a rumble device (it reports no EV_FF with FF_RUMBLE)")
        }
        if report.devices.isEmpty {
            if report.scanned == 0 {
                lines.append("no input devices on this machine (no /dev/input/event* nodes): no rumble device to examine")
            } else if !report.named {
                let unreadable = report.unreadable.isEmpty ? "" : " (\(report.unreadable.count) could not be opened)"
                lines.append("no rumble device found among \(report.scanned) input device"
                             + (report.scanned == 1 ? "" : "s") + unreadable)
            }
            return lines
        }
        for info in report.devices {
            lines.append("\(info.path): \(info.name)")
            let effects = (["rumble"] + info.otherEffects).joined(separator: ", ")
            lines.append("  effects: \(effects)")
            lines.append("  effect slots: \(info.effectSlots)")
            lines.append("  FF_GAIN: \(info.supportsGain ? "yes (set to 100 % for the test)" : "no (strength is the effect's magnitude alone)")")
            lines.append("  memless: " + (isLikelyMemless(info)
                ? "likely (16 slots, rumble emulated by the kernel's ff-memless: updates every 50 ms, sums are clamped)"
                : "likely not (\(info.effectSlots) slots\(info.otherEffects.contains("constant") ? ", constant force" : ""))"))
        }
        guard pulse else { return lines }
        guard let path = report.pulsedPath else {
            lines.append("pulses: \(report.devices.count) rumble devices; name one with --device to pulse its motors")
            return lines
        }
        for (motor, failure) in report.pulses {
            if let failure {
                lines.append("  pulse \(motor): failed: \(failure)")
            } else {
                lines.append("  pulse \(motor): played \(pulseMilliseconds) ms")
            }
        }
        if let failure = report.pulses.first(where: { $0.failure != nil })?.failure {
            lines.append("hint: \(path) reports rumble but \(failure.operation) failed (\(failure.reason)). "
                         + hint(for: failure.code))
        } else {
            lines.append("hint: if you felt nothing although both pulses played, the driver accepts rumble it does not "
                         + "pass on (common with Bluetooth pads on older kernels and with pads behind Steam Input); "
                         + "try the pad over USB, or close Steam")
        }
        return lines
    }

    private static func hint(for code: Int32) -> String {
        switch code {
        case EACCES, EPERM:
            return "Writing to the device needs write permission on its node: add a udev rule (TAG+=\"uaccess\") or use the 'input' group."
        case ENOSPC:
            return "Every effect slot is taken: another program (a game, Steam) holds them; close it and try again."
        case EINVAL:
            return "The driver refused the effect: it lists FF_RUMBLE but does not accept this rumble effect."
        case ENODEV:
            return "The device went away (unplugged or asleep)."
        default:
            return "This is the usual Linux rumble failure: the device lists rumble but the driver cannot play it."
        }
    }
}
