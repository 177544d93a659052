import ArgumentParser
import CabinHaptics

extension HapticsCommand {
    /// `cabin haptics convert FILE -o OUT.ahap` / `--android`.
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert a pattern to normalized AHAP, or to an Android waveform or composition.",
            discussion: """
                AHAP: .haptic files become AHAP (curves as Lofelt's converter wrote them); AHAP files come back normalized (sorted events, relative curve times, at most 16 points per curve). The result passes 'cabin haptics check --strict'. --android: VibrationEffect.createWaveform timings (ms) and amplitudes (0-255) as JSON; Android has no sharpness, so it is dropped. --android-composition: VibrationEffect composition primitives as JSON (transients → CLICK/TICK/THUD/LOW_TICK by sharpness and intensity, continuous ramps → QUICK_RISE/SLOW_RISE/QUICK_FALL), with the primitives a device must support (check them with Vibrator.arePrimitivesSupported: an unsupported primitive plays nothing). Without -o the result goes to standard output.

                Examples:
                  cabin haptics convert shot.haptic -o shot.ahap
                  cabin haptics convert Boing.ahap --android -o boing.json
                  cabin haptics convert Boing.ahap --android-composition -o boing-composition.json
                """)

        @Argument(help: "A haptic pattern (.ahap, .haptic).")
        var file: String

        @Option(name: .shortAndLong, help: "Output file (default: standard output).")
        var output: String?

        @Flag(help: "Write an Android VibrationEffect waveform (JSON) instead of AHAP.")
        var android = false

        @Flag(help: "Write Android composition primitives (JSON) instead of AHAP.")
        var androidComposition = false

        @OptionGroup var reading: HapticsReadingArguments

        func validate() throws {
            if android && androidComposition {
                throw ValidationError("--android and --android-composition are two exports; choose one")
            }
        }

        func run() throws {
            if let output { try CLIOutput.refuseSame(output, inputs: [file]) }
            let (pattern, compiled) = try CLIHaptics.load(file, reading)
            let text: String
            if android {
                // Android refuses a waveform with no non-zero timing, and one of zero amplitudes plays nothing.
                let waveform = AndroidWaveform(compiled)
                guard waveform.timings.reduce(0, +) > 0, waveform.amplitudes.contains(where: { $0 > 0 }) else {
                    CLIOutput.error("\(file): nothing to feel on Android: the pattern has no haptic event above zero intensity, and VibrationEffect.createWaveform needs one; nothing written")
                    throw ExitCode.failure
                }
                text = waveform.json + "\n"
            } else if androidComposition {
                let composition = AndroidComposition(compiled)
                guard !composition.elements.isEmpty else {
                    CLIOutput.error("\(file): no composition primitive: the pattern has no transient and no rise or fall of 0.1 or more, and an empty composition throws in compose(); --android writes its continuous track as a waveform; nothing written")
                    throw ExitCode.failure
                }
                text = composition.jsonDocument.serialized()
            } else {
                text = AHAPWriter.write(pattern)
            }
            guard let output else {
                print(text, terminator: "")
                return
            }
            try CLIHaptics.write(text, to: output, input: file)
            CLIOutput.summary("\(output): \(android ? "Android waveform" : androidComposition ? "Android composition" : "AHAP") of \(file) (\(CLIHaptics.summary(pattern, compiled)))", output: output)
        }
    }
}
