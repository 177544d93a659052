import ArgumentParser
import CabinAudio
import CabinHaptics
import CabinIO
import CabinJSON

extension HapticsCommand {
    /// `cabin haptics from-audio SOUND -o OUT.ahap|.haptic`.
    struct FromAudio: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "from-audio",
            abstract: "Make a haptic pattern from a sound: its envelope as intensity, its brightness as sharpness, its onsets as transients.",
            discussion: """
                As Meta Haptics Studio analyses audio: the sound's RMS level (channels mixed) becomes the continuous intensity, --resolution points a second and one at every onset, relative to its loudest point, times --gain, clipped to 1, with --headroom dB left above it for the transients; its spectral centroid becomes sharpness (log scale, 100 Hz -> 0, 8 kHz -> 1); its onsets (spectral flux with an adaptive threshold, --emphasis-threshold above the local mean, at least --min-gap apart) become transients with the level and brightness of their first 20 ms. The output's extension chooses the format: .ahap (Apple) or .haptic (Meta/Lofelt, each transient an emphasis).

                Examples:
                  cabin haptics from-audio Sounds/ui/seatbelt.opus -o seatbelt.ahap
                  cabin haptics from-audio knock.wav -o knock.haptic --gain 6 --headroom 3 --emphasis-threshold 0.2
                """)

        @Argument(help: "A sound file (WAV, FLAC, Ogg, Opus, MP3, …).")
        var sound: String

        @Option(name: .shortAndLong, help: "Output pattern (.ahap or .haptic).")
        var output: String

        @Option(help: "Gain on the envelope in dB (-60…60).")
        var gain: Double = 0

        @Option(help: "Points a second of the continuous curves (1…1000).")
        var resolution: Double = 50

        @Option(help: "dB between the continuous track's loudest point and full intensity (0…60).")
        var headroom: Double = 0

        @Option(name: .customLong("emphasis-threshold"), help: "How far the onset function must rise above its local mean to make a transient (0…1; higher: fewer).")
        var emphasisThreshold: Double = 0.07

        @Option(name: .customLong("min-gap"), help: "The least time between two transients in seconds (0.01…2).")
        var minimumGap: Double = 0.03

        @Option(name: .customLong("description"), help: "The pattern's description (AHAP Metadata.Description, .haptic metadata.description).")
        var patternDescription: String?

        var options: AudioToHapticsOptions {
            AudioToHapticsOptions(gainDecibels: gain, resolution: resolution, headroomDecibels: headroom, emphasisThreshold: emphasisThreshold,
                                  minimumGap: minimumGap)
        }

        func validate() throws {
            if let problem = options.problems.first { throw ValidationError(problem) }
        }

        func run() throws {
            let isHaptic = output.lowercased().hasSuffix(".haptic")
            guard isHaptic || output.lowercased().hasSuffix(".ahap") || output == "-" else {
                CLIOutput.error("\(output): the output must end in .ahap or .haptic (or be - for AHAP on standard output)")
                throw ExitCode(64)
            }
            try CLIOutput.refuseSame(output, inputs: [sound])
            let destination = try CLIOutput.open(output, inputs: [sound])
            let buffer: AudioBuffer
            do { buffer = try SoundFile.read(sound) } catch {
                CLIOutput.error(error)
                throw ExitCode.failure
            }
            let result = AudioToHaptics(buffer, options: options)
            var metadata = ["project": "Cabin", "author": "cabin haptics from-audio \(sound.lastPathComponent) (gain \(NumberText.decimals(gain, 2)) dB, resolution \(NumberText.decimals(resolution, 2)), headroom \(NumberText.decimals(headroom, 2)) dB, emphasis threshold \(NumberText.decimals(emphasisThreshold, 3)), min gap \(NumberText.decimals(minimumGap, 3)) s)"]
            metadata["description"] = patternDescription
            let text = isHaptic ? result.hapticDocument(metadata: metadata).serialized() : AHAPWriter.write(result.pattern(metadata: metadata))
            try CLIOutput.write(text, to: destination)
            let peak = result.points.map(\.intensity).max() ?? 0
            CLIOutput.summary("\(output): \(HapticPreviewText.seconds(result.duration)) s from \(sound), \(CLIHaptics.plural(result.transients.count, "transient")) at its onsets, \(CLIHaptics.plural(result.points.count, "point")) of intensity (peak \(NumberText.decimals(peak, 2))) and sharpness", output: output)
        }
    }
}
