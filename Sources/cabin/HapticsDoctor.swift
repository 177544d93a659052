import ArgumentParser
import CabinPlayback

extension HapticsCommand {
    /// `cabin haptics doctor [--rumble /dev/input/eventN]`.
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Examine rumble devices: what they report, and a short pulse per motor.",
            discussion: """
                Reports each rumble device's effects, effect slots, FF_GAIN and whether it is likely an ff-memless device, then (with one device, or the one named by --rumble) plays a 200 ms pulse on the strong (low-frequency) motor and then on the weak (high-frequency) one. When the device reports rumble but uploading or playing fails — the most common Linux rumble complaint — it says which call failed and what usually causes it. Exit status 1 when there is no rumble device or a pulse failed.

                Examples:
                  cabin haptics doctor
                  cabin haptics doctor --rumble /dev/input/event5
                  cabin haptics doctor --rumble /dev/input/event5 --no-pulse
                """)

        @Option(help: ArgumentHelp("The rumble device (evdev node) to examine (default: every /dev/input/event*).", valueName: "path"))
        var rumble: String?

        /// The earlier name of --rumble here (deprecated: -D/--device is the sound device).
        @Option(name: .customLong("device"), help: .hidden)
        var deprecatedDevice: String?

        func validate() throws {
            if rumble != nil && deprecatedDevice != nil { throw ValidationError("give the rumble device once, with --rumble") }
        }

        @Flag(inversion: .prefixedNo, help: "Pulse each motor once.")
        var pulse = true

        func run() throws {
            if let deprecatedDevice {
                CLIOutput.warning("--device is deprecated here (-D/--device is the sound device); use --rumble \(deprecatedDevice)")
            }
            let report = RumbleDoctor.examine(path: rumble ?? deprecatedDevice, pulse: pulse)
            for line in report.lines { print(line) }
            if report.devices.isEmpty || report.pulses.contains(where: { $0.failure != nil }) {
                throw ExitCode.failure
            }
        }
    }
}
