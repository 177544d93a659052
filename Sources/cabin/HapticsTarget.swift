import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinPlayback

/// Where `haptics play` and `haptics watch` play a pattern: a rumble device (evdev), the sound
/// device as audio (ALSA), or a DualSense's 4-channel device; and how.
struct HapticsTargetArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Rumble device (evdev node), e.g. /dev/input/event5 (see 'cabin devices --rumble').", valueName: "path"))
    var rumble: String?

    @Option(help: "Rumble gain 0…1 (FF_GAIN): the device's own gain.")
    var gain: Double = 1

    @Option(help: "Haptic strength: off, light (intensity × 0.4), medium (× 0.7) or strong (× 1, as designed). Default: CABIN_HAPTIC_STRENGTH, else the config file's haptics.strength, else strong.")
    var strength: HapticStrength?

    @Option(help: "Rumble mapping: equal-power-split or intensity-only.")
    var mapping: RumbleMapping = .equalPowerSplit

    @Flag(help: "Play as audio on the sound device (-D).")
    var audio = false

    @OptionGroup(title: "Sound device (--audio)") var output: DeviceArguments

    /// The earlier name of -D here (deprecated).
    @Option(name: .customLong("alsa-device"), help: .hidden)
    var alsaDevice: String?

    @OptionGroup var audioOptions: HapticAudioArguments

    @OptionGroup(title: "Haptics device") var haptics: HapticsDeviceArguments

    /// The rumble device: `--rumble`, or an evdev node given the earlier way (`--device`).
    var rumbleDevice: String? {
        rumble ?? output.device.flatMap { DeviceArguments.isRumbleNode($0) ? $0 : nil }
    }

    /// Whether a place to play was named (`--rumble`, `--audio`, `--dualsense`).
    var isNamed: Bool { audio || rumbleDevice != nil || haptics.hapticsDevice != nil }

    /// The sound device for `--audio`: given, else the config's (as `cabin play`'s).
    func soundDevice(_ settings: CabinSettings) -> String {
        if let alsaDevice { return alsaDevice }
        if let device = output.device, !DeviceArguments.isRumbleNode(device) { return device }
        return settings.device.value
    }

    func validate() throws {
        if rumble != nil, let device = output.device, DeviceArguments.isRumbleNode(device) {
            throw ValidationError("give the rumble device once: --rumble \(rumble!) (not also --device \(device))")
        }
        guard [audio, rumbleDevice != nil, haptics.hapticsDevice != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("say where to play: --rumble /dev/input/eventN, --audio [-D NAME] (ALSA) or --dualsense NAME, one of them")
        }
        guard gain.isFinite, (0...1).contains(gain) else { throw ValidationError("--gain must be 0…1") }
    }

    /// The lines for the deprecated spellings, once before playing.
    func warnDeprecated() {
        if rumble == nil, let device = rumbleDevice {
            CLIOutput.warning("--device \(device): naming the rumble device with --device is deprecated (-D/--device is the sound device); use --rumble \(device)")
        }
        if alsaDevice != nil { CLIOutput.warning("--alsa-device is deprecated: use -D/--device") }
    }

    /// The audio preview's render options: the DualSense layout (sound on 1–2, haptics on 3–4)
    /// for `--dualsense`.
    var renderOptions: HapticAudioOptions {
        var options = audioOptions.options
        if haptics.hapticsDevice != nil { options.layout = .dualSense }
        return options
    }
}
