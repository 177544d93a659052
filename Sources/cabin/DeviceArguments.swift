import ArgumentParser

/// `-D/--device NAME`: the sound device, one option shared by every command that plays
/// (`play`, `sounds play`, `haptics play --audio`, `bench --live`). Rumble devices are
/// named by `--rumble` wherever they are used.
struct DeviceArguments: ParsableArguments {
    /// The device when none is given.
    static let defaultDevice = "default"

    @Option(name: [.customShort("D"), .long],
            help: ArgumentHelp("Sound device: an ALSA name (default, pulse, hw:0,0, plughw:…; see 'cabin devices'), or none for no sound (where the command can play silently). Default: the config file's play.device, CABIN_DEVICE, or default.",
                               valueName: "name"))
    var device: String?

    /// The device to open: the one given, else `default`.
    var name: String { device ?? DeviceArguments.defaultDevice }

    /// The device to open as `cabin play` chooses it: the one given, else the config file's
    /// `play.device` or `CABIN_DEVICE`, else `default` (a problem in the config is its line
    /// and exit 1).
    func configured() throws -> String {
        if let device { return device }
        return try CLIConfig.settings().settings.device.value
    }

    /// Whether a name is a path (`/dev/input/event5`): a rumble device's node, never an ALSA
    /// name (those never start with `/`).
    static func isRumbleNode(_ name: String) -> Bool { name.hasPrefix("/") }
}
