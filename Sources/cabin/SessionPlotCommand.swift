import ArgumentParser
import CabinAudio
import CabinConfig
import CabinIO
import CabinJSON
import CabinPlayback
import CabinSession

extension SessionCommand {
    /// `cabin session plot FILE|--preset NAME -o OUT.svg`: a picture of the session.
    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plot",
            abstract: "Draw a session as SVG: layers as lanes with their fades and crossfades, cues and marks, ducking, parameters, haptic cues, loudness over time.",
            discussion: """
                Each layer is a lane showing its level (dB from its gain) as the cues start, stop, fade and crossfade it (a red cross over a crossfade, named with the sound it goes to); one-shots and spoken cues as ticks with bars as long as their sounds; when each ducking rule holds its buses down; each parameter over time (the drive's speed profile) and each bus effect a cue moves; the haptic cues; and the short-term loudness (LUFS, EBU R128) of a quick offline render at \(Int(Plot.sampleRate)) Hz, with the document's loudness target dashed. Marks are dashed lines across every lane. Live streams are drawn as their layers; the loudness leaves them silent.

                Examples:
                  cabin session plot --preset drive -o drive.svg
                  cabin session plot Patterns/sessions/example.json -o example.svg --width 2400
                  cabin session plot --preset pomodoro --cycles 2 -o pomodoro.svg --no-loudness
                """)

        /// The quick render's rate: enough for the loudness of a bed (K-weighting is
        /// designed at any rate), three times fewer samples than 48 kHz.
        static let sampleRate = 16000.0

        @Argument(help: "The session document (JSON; - for standard input); or use --preset.")
        var session: String?

        @OptionGroup(title: "Presets") var presets: PresetArguments

        @OptionGroup var mix: MixArguments

        @Option(name: .shortAndLong, help: ArgumentHelp("Output file (.svg).", valueName: "out.svg"))
        var output: String

        @Option(help: "Width in pixels (\(SessionPlot.widthRange.lowerBound)…\(SessionPlot.widthRange.upperBound)).")
        var width = 1600

        @Flag(inversion: .prefixedNo, help: "Render the session quickly to draw its loudness over time.")
        var loudness = true

        func validate() throws {
            try presets.validateUsage(hasSession: session != nil)
            guard SessionPlot.widthRange.contains(width) else {
                throw ValidationError("--width must be \(SessionPlot.widthRange.lowerBound)…\(SessionPlot.widthRange.upperBound) pixels, not \(width)")
            }
        }

        /// The picture of `loaded` (loaded at ``sampleRate``) as this command draws it, with its
        /// loudness when `loudness` (a quick render; its failure is thrown); `cabin studio`
        /// shows a session's lanes with it.
        static func plot(_ loaded: SessionLoader.Loaded, width: Int, loudness: Bool) throws -> SessionPlot {
            var plot = SessionPlot(document: loaded.document, width: width)
            plot.soundLengths = loaded.sounds.sounds.mapValues { Double($0.frameCount) / Plot.sampleRate }
            if loudness {
                plot.loudness = try LoudnessProfile.measure(loaded.compiled, step: LoudnessProfile.step(for: loaded.compiled.duration),
                                                            radio: loaded.radio)
            }
            return plot
        }

        func run() throws {
            let inputs = session.map { [$0] } ?? []
            // An input named as the output is that problem first; then the name must say SVG.
            try CLIOutput.refuseSame(output, inputs: inputs)
            try CLIOutput.requireExtension(output, "svg", what: "an SVG picture")
            let destination = try CLIOutput.open(output, inputs: inputs)
            // What 'cabin play' would play: the config's default preset and its options, the
            // stations by name, the haptic strength.
            let settings = try CLIConfig.settings().settings
            let source = try CLISession.source(file: session, presets: presets, settings: settings)
            var options = try mix.options()
            if let strength = settings.hapticStrengthOverride { options.hapticStrength = strength }
            let loaded = try CLISession.load(source, sampleRate: Plot.sampleRate, maxBlockFrames: 1024, options: options)
            try CLIOutput.refuseSame(output, inputs: source.inputFiles(loaded.document))
            let plot: SessionPlot
            do {
                plot = try Self.plot(loaded, width: width, loudness: loudness)
            } catch {
                destination.discard()
                CLIOutput.error("loudness: \(error)")
                throw ExitCode.failure
            }
            try CLIOutput.write(plot.svg(), to: destination)
            let d = loaded.document
            var parts = ["\(SessionTime.format(d.duration))", CLIHaptics.plural(d.layers.count, "layer"), CLIHaptics.plural(d.cues.count, "cue"),
                         CLIHaptics.plural(d.marks.count, "mark")]
            if let last = plot.loudness.last {
                parts.append("loudness every \(NumberText.decimals(last.time / Double(plot.loudness.count), 3)) s")
            }
            CLIOutput.summary("\(output): \(d.title ?? source.name), \(parts.joined(separator: ", "))", output: output)
        }
    }
}
