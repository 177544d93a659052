import ArgumentParser
import CabinAudio
import CabinHaptics

extension HapticsCommand {
    /// `cabin haptics plot FILE -o OUT.svg`.
    struct Plot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plot",
            abstract: "Plot intensity and sharpness over time, transients marked, as SVG.",
            discussion: """
                Intensity is the solid blue line, sharpness the dashed orange one, transients red stems at their intensity; the time axis is in seconds. --as plots what a device plays instead: rumble's strong and weak motor magnitudes as the evdev path sends them, Android's waveform steps, or its composition's primitives in their nominal shapes.

                Examples:
                  cabin haptics plot Boing.ahap -o boing.svg
                  cabin haptics plot Boing.ahap -o boing-rumble.svg --as rumble
                  cabin haptics plot long.ahap -o long.svg --width 1600
                """)

        @Argument(help: "A haptic pattern (.ahap, .haptic).")
        var file: String

        @Option(name: .shortAndLong, help: "Output file (.svg).")
        var output: String

        @Option(help: "Width in pixels.")
        var width: Int = 800

        @Option(help: "Height in pixels.")
        var height: Int = 280

        @OptionGroup var reading: HapticsReadingArguments

        @OptionGroup var view: HapticsDeviceViewArguments

        func validate() throws {
            guard (200...10_000).contains(width), (120...4000).contains(height) else {
                throw ValidationError("--width must be 200…10000 and --height 120…4000 pixels")
            }
        }

        func run() throws {
            try CLIOutput.refuseSame(output, inputs: [file])
            try CLIOutput.requireExtension(output, "svg", what: "an SVG picture")
            let (pattern, compiled) = try CLIHaptics.load(file, reading)
            let title = "\(file.lastPathComponent) — \(CLIHaptics.summary(pattern, compiled))\(view.note)"
            let svg = view.parsed.map { HapticDeviceView(compiled, as: $0).svg(width: width, height: height, title: title) }
                ?? HapticPreview.svg(compiled, width: width, height: height, title: title)
            try CLIHaptics.write(svg, to: output, input: file)
            CLIOutput.summary("\(output): \(CLIHaptics.summary(pattern, compiled))\(view.note)", output: output)
        }
    }

    /// `cabin haptics show FILE`: a terminal preview.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Preview a pattern in the terminal: intensity and sharpness sparklines, transients.",
            discussion: """
                Each column is an equal slice of the pattern; bars are the slice's intensity (largest) and sharpness (mean where it sounds); '•' marks transients. --as shows what a device plays instead: rumble[:MAPPING] the strong and weak motor magnitudes as the evdev path sends them ('•' where a transient pulse starts), android the createWaveform export's amplitude in its 10 ms steps, android-composition the primitives in their nominal shapes (C click, T tick, H thud, L low tick, R quick rise, S slow rise, F quick fall).

                Examples:
                  cabin haptics show Heartbeats.ahap
                  cabin haptics show Heartbeats.ahap --as rumble:intensity-only
                  cabin haptics show Heartbeats.ahap --as android-composition
                  cabin haptics show Patterns/haptics/*.ahap --width 60
                """)

        @Argument(help: "Haptic patterns (.ahap, .haptic).")
        var files: [String]

        @OptionGroup var reading: HapticsReadingArguments

        @Option(help: "Columns to use, labels included.")
        var width: Int = 80

        @OptionGroup var view: HapticsDeviceViewArguments

        func validate() throws {
            guard (20...1000).contains(width) else { throw ValidationError("--width must be 20…1000 columns") }
        }

        func run() throws {
            var failed = false
            for (index, file) in files.enumerated() {
                do {
                    let (pattern, compiled) = try CLIHaptics.load(file, reading)
                    if index > 0 { print() }
                    print("\(file): \(CLIHaptics.summary(pattern, compiled))\(view.note)".terminalSafe)
                    print(view.parsed.map { HapticDeviceView(compiled, as: $0).terminal(width: width) }
                        ?? HapticPreview.terminal(compiled, width: width))
                } catch {
                    failed = true
                }
            }
            if failed { throw ExitCode.failure }
        }
    }
}
