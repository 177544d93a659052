import ArgumentParser
import CabinIO

/// `cabin devices`: where Cabin can play.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List ALSA playback devices (as 'aplay -L' does) to pass to -D/--device.",
        discussion: """
            Examples:
              cabin devices
              cabin devices --json
            """)

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let devices = ALSADevices.playback()
        if json {
            try CLIOutput.json(devices)
            return
        }
        let real = devices.filter { $0.name != "null" }
        if real.isEmpty {
            print("No ALSA playback devices found (no sound card, and no sound server configured for ALSA).")
            print("Sessions can still be rendered to files: cabin render SESSION.json -o out.wav")
            if !devices.isEmpty { print("(Only ALSA's 'null' device exists, which discards audio.)") }
            return
        }
        for device in devices {
            print(device.name)
            if !device.description.isEmpty { print("    \(device.description)") }
        }
    }
}
