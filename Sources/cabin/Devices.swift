import ArgumentParser
import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback

/// `cabin devices`: where Cabin can play.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List playback devices, by backend, and rumble devices.",
        discussion: """
            Playback devices go to -D/--device, named as listed: ALSA's as 'aplay -L' lists them (a bare name, or alsa:NAME), PipeWire's sinks by node name (pipewire:NODE; pipewire alone is its default sink) when its daemon answers, and none (no sound: the session plays on the system clock). Rumble devices (/dev/input/event* with FF_RUMBLE) go to --rumble ('cabin play --rumble', 'cabin haptics play --rumble'). --json prints the playback devices (name, description, and the backend's scheme); --rumble lists only the rumble devices (as JSON with --json).

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
        let backends = OutputRegistry.standard.entries.map { ($0, $0.make().devices()) }
        if json {
            try CLIOutput.json(backends.flatMap { $0.1 })
            return
        }
        for (entry, devices) in backends {
            print("\(entry.scheme): \(entry.summary)")
            for device in devices {
                print(device.name.terminalSafe)
                if !device.description.isEmpty { print("    \(device.description.terminalSafe)") }
            }
            print()
        }
        if !ALSADevices.hasSoundDevice(ALSADevices.playback()) {
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
        if let unreadable = listing.unreadableSummary { print("    (\(unreadable))") }
    }
}
