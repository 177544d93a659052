import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinOutput
import CabinPlayback

extension HapticsCommand {
    /// `cabin haptics play FILE --audio [-D NAME] | --rumble /dev/input/eventN`.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Play a pattern on a rumble device (evdev), or as audio (ALSA).",
            discussion: """
                --rumble plays on a rumble device (a gamepad's two motors, through Linux evdev force feedback; list them with 'cabin devices --rumble'). Intensity and sharpness become strong/weak motor magnitudes by --mapping: equal-power-split (default) sends low sharpness to the strong (low-frequency) motor and high sharpness to the weak one at constant power; intensity-only drives both motors with the intensity. --audio renders the pattern as sound (as 'haptics render' does, with the pattern's own AudioCustom/AudioContinuous sound mixed in) and plays it on the sound device -D/--device (default: 'default'), as every command that plays does. --dualsense NAME (also --haptics-device) plays it on a 4-channel device, haptics on channels 3–4 and the pattern's sound on 1–2, as a DualSense's USB audio takes them. Ctrl-C stops at once; every effect is stopped and removed from the device.

                Earlier spellings still work, with a line saying so: '--device /dev/input/eventN' (an evdev node) for --rumble, and '--alsa-device NAME' for -D.

                Examples:
                  cabin haptics play Boing.ahap --rumble /dev/input/event5
                  cabin haptics play Boing.ahap --rumble /dev/input/event5 --gain 0.5
                  cabin haptics play Boing.ahap --rumble /dev/input/event5 --strength light
                  cabin haptics play Boing.ahap --rumble /dev/input/event5 --mapping intensity-only
                  cabin haptics play Boing.ahap --audio
                  cabin haptics play Boing.ahap --audio -D plughw:1 --channels 4
                  cabin haptics play Boing.ahap --dualsense hw:CARD=Controller
                """)

        @Argument(help: "A haptic pattern (.ahap, .haptic).")
        var file: String

        @OptionGroup var target: HapticsTargetArguments

        @OptionGroup var reading: HapticsReadingArguments

        func run() throws {
            let settings = try CLIConfig.hapticsSettings(strength: target.strength)
            let strength = settings.hapticStrength
            let (pattern, compiled) = try CLIHaptics.load(file, reading, strength: strength.value)
            Interrupt.install()
            target.warnDeprecated()
            let rumbleDevice = target.rumbleDevice
            // Nowhere named: the config's rumble device (play.rumble, CABIN_RUMBLE), as 'cabin play' uses it.
            let configured = target.isNamed ? nil : settings.rumble.value
            if configured == nil && !target.isNamed {
                CLIOutput.error("say where to play: --rumble /dev/input/eventN, --audio [-D NAME] (ALSA) or --dualsense NAME, one of them (or set play.rumble in the config file)")
                throw ExitCode(64)
            }
            if let device = rumbleDevice ?? configured {
                do {
                    let player = try RumblePlayer.open(device)
                    defer { player.close() }
                    let outcome = try player.play(compiled, options: RumblePlanOptions(mapping: target.mapping), gain: target.gain,
                                                  isCancelled: { Interrupt.isRequested })
                    if outcome == .cancelled { throw ExitCode(130) }
                    print("\(file): played \(CLIOutput.clock(compiled.endTime)) on \(player.info.name) (\(device))\(CLIHaptics.strengthNote(strength))")
                } catch let error as ForceFeedbackError {
                    CLIOutput.error(error)
                    throw ExitCode.failure
                }
                return
            }
            // --dualsense: the DualSense layout (sound on 1–2, haptics on 3–4) on that device.
            let soundDevice = target.haptics.hapticsDevice ?? target.soundDevice(settings)
            let buffer = try CLIHaptics.previewWithPatternAudio(pattern, compiled, file: file, options: target.renderOptions)
            do {
                let outcome = try BufferPlayer.play(buffer, device: soundDevice, isCancelled: { Interrupt.isRequested })
                if outcome == .cancelled { throw ExitCode(130) }
                print("\(file): played \(CLIOutput.clock(buffer.duration)) as audio on \(soundDevice)\(CLIHaptics.strengthNote(strength))")
            } catch let error as AudioDeviceError {
                CLIOutput.error(error)
                throw ExitCode.failure
            }
        }
    }
}

extension RumbleMapping: ExpressibleByArgument {}
extension HapticStrength: ExpressibleByArgument {}
