import ArgumentParser

/// `-D/--device NAME`: the sound device, one option shared by every command that plays
/// (`play`, `sounds play`, `haptics play --audio`, `bench --live`). Rumble devices are
/// named by `--rumble` wherever they are used.
struct DeviceArguments: ParsableArguments {
    /// The device when none is given.
    static let defaultDevice = "default"

    @Option(name: [.customShort("D"), .long],
            help: ArgumentHelp("Sound device: pipewire or pipewire:NODE (a PipeWire sink), an ALSA name (default, pulse, hw:0,0, plughw:…, or alsa:NAME; see 'cabin devices'), or none for no sound (where the command can play silently). Default: the config file's play.device, CABIN_DEVICE, or default (PipeWire when its daemon answers, else ALSA's default).",
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

/// `--haptics-device NAME` (also spelled `--dualsense`): a 4-channel sound device whose
/// channels 3–4 play the haptics — a DualSense's USB audio, whose voice-coil actuators are
/// those channels — named as `-D` names the sound device (an ALSA name; see 'cabin devices').
/// In `play` the session goes on playing on `-D` and the haptic track follows it frame for
/// frame; in `haptics play` the pattern plays there (its sound on 1–2).
struct HapticsDeviceArguments: ParsableArguments {
    @Option(name: [.customLong("haptics-device"), .customLong("dualsense")],
            help: ArgumentHelp("Haptics device: a 4-channel ALSA device whose channels 3–4 play the haptics (a DualSense's USB audio, e.g. hw:CARD=Controller), beside the sound device -D.",
                               valueName: "name"))
    var hapticsDevice: String?
}
