import ArgumentParser
import CabinIO
import CabinPlayback

/// `cabin devices`: where Cabin can play.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List ALSA playback devices (as 'aplay -L' does) and rumble devices.",
        discussion: """
            ALSA devices go to -D/--device; rumble devices (/dev/input/event* with FF_RUMBLE) to --rumble ('cabin play --rumble', 'cabin haptics play --rumble'). --json prints the ALSA devices as before; --rumble lists only the rumble devices (as JSON with --json).

            Examples:
              cabin devices
              cabin devices --json
              cabin devices --rumble --json
            """)

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Only rumble devices.")
    var rumble = false

    func run() throws {
        if rumble {
            let listing = RumbleDevices.list()
            if json { try CLIOutput.json(listing.devices) } else { printRumble(listing) }
            return
        }
        let devices = ALSADevices.playback()
        if json {
            try CLIOutput.json(devices)
            return
        }
        for device in devices {
            print(device.name)
            if !device.description.isEmpty { print("    \(device.description)") }
        }
        if !ALSADevices.hasSoundDevice(devices) {
            print("No sound card or sound server is set up for ALSA (no 'default', no hw: device): 'cabin play' has nowhere to play; 'cabin render' writes sessions to files.")
        }
        print()
        printRumble(RumbleDevices.list())
    }

    private func printRumble(_ listing: RumbleDevices.Listing) {
        print("Rumble devices (evdev force feedback, for --rumble):")
        for device in listing.devices {
            print(device.path)
            var traits = ["\(device.effectSlots) effect slot\(device.effectSlots == 1 ? "" : "s")"]
            if device.supportsGain { traits.append("gain") }
            traits += device.otherEffects
            print("    \(device.name) (\(traits.joined(separator: ", ")))")
        }
        if listing.devices.isEmpty {
            print(listing.scanned == 0
                ? "    none: this machine has no input devices (/dev/input/event*)"
                : "    none among \(listing.scanned) input device\(listing.scanned == 1 ? "" : "s")")
        }
        if !listing.unreadable.isEmpty {
            let denied = listing.unreadable.allSatisfy { $0.error.code == 13 }
            print("    (\(listing.unreadable.count) could not be opened\(denied ? ": permission denied; add yourself to the 'input' group" : ": \(listing.unreadable[0].error)"))")
        }
    }
}
