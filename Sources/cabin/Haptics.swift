import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinJSON
import CabinPlayback
import FoundationEssentials

/// `cabin haptics …`: haptic patterns (AHAP and Meta/Lofelt `.haptic`).
struct HapticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haptics",
        abstract: "Check, compile, render, plot, convert and play haptic patterns, or make them from sounds.",
        discussion: """
            Patterns are Apple AHAP files or Meta/Lofelt .haptic files, chosen by extension (or by content for other names). Reading is lenient by default, as Core Haptics loads files: missing keys take defaults, out-of-range values are clamped, and each such fix is a warning; --strict makes them errors.

            Examples:
              cabin haptics check Patterns/haptics/*.ahap --strict
              cabin haptics show Boing.ahap
              cabin haptics render Boing.ahap -o boing.wav --channels 4
              cabin haptics convert shot.haptic -o shot.ahap
              cabin haptics show Boing.ahap --as rumble
              cabin haptics from-audio knock.wav -o knock.ahap
              cabin haptics play seatbelt.ahap --rumble /dev/input/event5
              cabin haptics watch knock.ahap --audio --loop
            """,
        subcommands: [Check.self, Compile.self, RenderAudio.self, Plot.self, Show.self, Convert.self, FromAudio.self, Play.self, Watch.self, Doctor.self])
}

/// How the haptics commands that read patterns read them: `--curve-times` and `--quiet`.
struct HapticsReadingArguments: ParsableArguments {
    @Option(name: .customLong("curve-times"), help: ArgumentHelp(
        "How AHAP curve point times are read: auto (relative to the curve's Time, or absolute with a warning when the first point's Time equals it), relative (Apple's) or absolute (Lofelt's).",
        valueName: "auto|relative|absolute"))
    var curveTimes: HapticReadOptions.CurveTimes = .auto

    @Flag(help: "Print no warnings, only errors (identical warnings are otherwise shown three times, then counted).")
    var quiet = false

    /// The reader's options with `strict`.
    func options(strict: Bool) -> HapticReadOptions {
        HapticReadOptions(mode: strict ? .strict : .lenient, curveTimes: curveTimes)
    }
}

extension HapticReadOptions.CurveTimes: ExpressibleByArgument {}

/// Loading patterns for the haptics commands.
enum CLIHaptics {
    /// Reads and compiles `path`. Warnings go to stderr (one line each); on errors, or a
    /// file that cannot be read, prints them and throws exit status 1.
    static func load(_ path: String, strict: Bool = false, reading: HapticReadOptions.CurveTimes = .auto, quiet: Bool = false,
                     strength: HapticStrength = .strong) throws -> (pattern: HapticPattern, compiled: CompiledHaptics) {
        let read = self.read(path, strict: strict, reading: reading, quiet: quiet, strength: strength)
        for line in read.lines { StandardStreams.writeError(line + "\n") }
        guard let loaded = read.loaded else { throw ExitCode.failure }
        return loaded
    }

    /// `load` with the command's `--curve-times` and `--quiet`.
    static func load(_ path: String, strict: Bool = false, _ reading: HapticsReadingArguments,
                     strength: HapticStrength = .strong) throws -> (pattern: HapticPattern, compiled: CompiledHaptics) {
        try load(path, strict: strict, reading: reading.curveTimes, quiet: reading.quiet, strength: strength)
    }

    /// The pattern at `path` read, linted and compiled, or nil, and what was said on the
    /// way: its diagnostics by location (`Diagnostics.lines`: identical ones counted after
    /// three, no warnings when `quiet`), or why the file could not be read (lines made
    /// terminal-safe).
    static func read(_ path: String, strict: Bool = false, reading: HapticReadOptions.CurveTimes = .auto, quiet: Bool = false,
                     strength: HapticStrength = .strong)
        -> (loaded: (pattern: HapticPattern, compiled: CompiledHaptics)?, lines: [String]) {
        let read = HapticPatternFile.read(path, options: HapticReadOptions(mode: strict ? .strict : .lenient, curveTimes: reading),
                                          strength: strength)
        if let failure = read.failure { return (nil, ["cabin: error: \(failure)".terminalSafe]) }
        let lines = read.diagnostics.lines(quiet: quiet).map(\.terminalSafe)
        guard let pattern = read.pattern, let compiled = read.compiled else { return (nil, lines) }
        return ((pattern, compiled), lines)
    }

    /// `, strength light (environment CABIN_HAPTIC_STRENGTH)` after a summary when the
    /// strength is not Cabin's default; nothing when it is.
    static func strengthNote(_ strength: Setting<HapticStrength>) -> String {
        strength.origin == .builtIn ? "" : ", strength \(strength.value.rawValue) (\(strength.origin.description))"
    }

    /// The haptic preview of `compiled` with the pattern's own sound — its `AudioCustom` and
    /// `AudioContinuous` events — mixed in (`HapticPatternAudio.mix`: channels 1–2 of a
    /// 4-channel render, or added to a mono one), as one buffer. A waveform that cannot be
    /// loaded is a located error and exit status 1.
    static func previewWithPatternAudio(_ pattern: HapticPattern, _ compiled: CompiledHaptics, file: String,
                                        options: HapticAudioOptions) throws -> AudioBuffer {
        let preview = previewAudio(pattern, compiled, file: file, options: options)
        for line in preview.lines { StandardStreams.writeError(line + "\n") }
        guard let buffer = preview.buffer else { throw ExitCode.failure }
        return buffer
    }

    /// `previewWithPatternAudio`'s buffer, or nil when a waveform has an error, and the
    /// waveforms' diagnostics (terminal-safe lines).
    static func previewAudio(_ pattern: HapticPattern, _ compiled: CompiledHaptics, file: String,
                             options: HapticAudioOptions) -> (buffer: AudioBuffer?, lines: [String]) {
        let preview = HapticPatternFile.previewAudio(pattern, compiled, file: file, options: options)
        return (preview.buffer, preview.diagnostics.sortedByLocation.map { "\($0)".terminalSafe })
    }

    /// `0.27 s, 3 events (1 transient), 2 curves`.
    static func summary(_ pattern: HapticPattern, _ compiled: CompiledHaptics) -> String {
        HapticPatternFile.summary(pattern, compiled)
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// Writes text to `path` (never over `input`), or prints one line and throws exit status 1.
    static func write(_ text: String, to path: String, input: String) throws {
        try CLIOutput.write(text, to: CLIOutput.open(path, inputs: [input]))
    }
}

/// Number formatting shared by the haptics commands.
enum HapticPreviewText {
    /// Seconds with at most three decimals, no trailing zeros: `0.27`, `70`.
    static func seconds(_ s: Double) -> String { NumberText.decimals(s, 3) }
}
