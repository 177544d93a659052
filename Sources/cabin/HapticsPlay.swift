import ArgumentParser
import CabinAudio
import CabinHaptics
import CabinIO
import Foundation

extension HapticsCommand {
    /// `cabin haptics play FILE --audio | --device /dev/input/eventN`.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play a pattern as audio through ALSA, or on a rumble device (evdev force feedback).",
            discussion: """
                --audio renders the pattern as sound (as 'haptics render' does) and plays it on
                the ALSA device -D (default: 'default'). Ctrl-C stops at once.

                Examples:
                  cabin haptics play Boing.ahap --audio
                  cabin haptics play Boing.ahap --audio -D plughw:1 --channels 4
                """)

        @Argument(help: "A haptic pattern (.ahap, .haptic).")
        var file: String

        @Flag(help: "Play as audio through ALSA.")
        var audio = false

        @Option(name: [.customShort("D"), .customLong("alsa-device")], help: "ALSA device for --audio.")
        var alsaDevice: String = "default"

        @OptionGroup var audioOptions: HapticAudioArguments

        func validate() throws {
            guard audio else { throw ValidationError("say where to play: --audio (ALSA)") }
        }

        func run() throws {
            let (_, compiled) = try CLIHaptics.load(file)
            let rendered = HapticAudioRenderer.render(compiled, options: audioOptions.options)
            let buffer = AudioBuffer(samples: rendered.samples, channelCount: rendered.channelCount,
                                     sampleRate: rendered.sampleRate)
            Interrupt.install()
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
