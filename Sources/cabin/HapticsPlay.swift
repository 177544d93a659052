import ArgumentParser
import CabinAudio
import CabinHaptics
import CabinIO
import CabinPlayback

extension HapticsCommand {
    /// `cabin haptics play FILE --audio | --device /dev/input/eventN`.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a pattern on a rumble device (evdev), or as audio (ALSA).",
            discussion: """
                --device plays on a rumble device (a gamepad's two motors, through Linux evdev force feedback; list them with 'cabin devices --rumble'). Intensity and sharpness become strong/weak motor magnitudes by --mapping: equal-power-split (default) sends low sharpness to the strong (low-frequency) motor and high sharpness to the weak one at constant power; intensity-only drives both motors with the intensity. --audio renders the pattern as sound (as 'haptics render' does, with the pattern's own AudioCustom/AudioContinuous sound mixed in) and plays it on the ALSA device -D (default: 'default'). Ctrl-C stops at once; every effect is stopped and removed from the device.

                Examples:
                  cabin haptics play Boing.ahap --device /dev/input/event5
                  cabin haptics play Boing.ahap --device /dev/input/event5 --gain 0.5
                  cabin haptics play Boing.ahap --device /dev/input/event5 --strength light
                  cabin haptics play Boing.ahap --device /dev/input/event5 --mapping intensity-only
                  cabin haptics play Boing.ahap --audio
                  cabin haptics play Boing.ahap --audio -D plughw:1 --channels 4
                """)

        @Argument(help: "A haptic pattern (.ahap, .haptic).")
        var file: String

        @Option(help: "Rumble device (evdev node), e.g. /dev/input/event5.")
        var device: String?

        @Option(help: "Rumble gain 0…1 (FF_GAIN): the device's own gain.")
        var gain: Double = 1

        @Option(help: "Haptic strength: off, light (intensity × 0.4), medium (× 0.7) or strong (× 1, as designed).")
        var strength: HapticStrength = .strong

        @Option(help: "Rumble mapping: equal-power-split or intensity-only.")
        var mapping: RumbleMapping = .equalPowerSplit

        @Flag(help: "Play as audio through ALSA.")
        var audio = false

        @Option(name: [.customShort("D"), .customLong("alsa-device")], help: "ALSA device for --audio.")
        var alsaDevice: String = "default"

        @OptionGroup var audioOptions: HapticAudioArguments

        func validate() throws {
            guard audio != (device != nil) else {
                throw ValidationError("say where to play: --device /dev/input/eventN (rumble) or --audio (ALSA), not both")
            }
            guard gain.isFinite, (0...1).contains(gain) else { throw ValidationError("--gain must be 0…1") }
        }

        func run() throws {
            let (pattern, compiled) = try CLIHaptics.load(file, strength: strength)
            Interrupt.install()
            if let device {
                do {
                    let player = try RumblePlayer.open(device)
                    defer { player.close() }
                    let outcome = try player.play(compiled, options: RumblePlanOptions(mapping: mapping), gain: gain,
                                                  isCancelled: { Interrupt.isRequested })
                    if outcome == .cancelled { throw ExitCode(130) }
                    print("\(file): played \(CLIOutput.clock(compiled.endTime)) on \(player.info.name) (\(device))")
                } catch let error as ForceFeedbackError {
                    CLIOutput.error("\(error)")
                    throw ExitCode.failure
                }
                return
            }
            let rendered = try CLIHaptics.withPatternAudio(pattern, file: file,
                                                           HapticAudioRenderer.synthesize(compiled, options: audioOptions.options),
                                                           options: audioOptions.options)
            let buffer = AudioBuffer(samples: rendered.samples, channelCount: rendered.channelCount,
                                     sampleRate: rendered.sampleRate)
            do {
                let outcome = try BufferPlayer.play(buffer, device: alsaDevice, isCancelled: { Interrupt.isRequested })
                if outcome == .cancelled { throw ExitCode(130) }
                print("\(file): played \(CLIOutput.clock(buffer.duration)) as audio on \(alsaDevice)")
            } catch let error as AudioDeviceError {
                CLIOutput.error("\(error)")
                throw ExitCode.failure
            }
        }
    }
}

extension RumbleMapping: ExpressibleByArgument {}
extension HapticStrength: ExpressibleByArgument {}
