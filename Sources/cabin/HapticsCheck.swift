import ArgumentParser
import CabinAudio
import CabinHaptics
import CabinIO
import CabinJSON
import CabinPlayback

extension HapticsCommand {
    /// `cabin haptics check FILE...`: every diagnostic, exit status 0/1.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Report every problem in haptic patterns (exit 1 on any error).",
            discussion: """
                Each problem is one line: FILE:LINE:COL: warning|error: JSON.PATH: what is wrong. A file that loads prints 'FILE: ok (…)' with its length and contents. In lenient mode (the default) accepted quirks are warnings and the file still loads; --strict makes every warning an error.

                Examples:
                  cabin haptics check Boing.ahap shot.haptic
                  cabin haptics check --strict Patterns/haptics/*.ahap
                """)

        @Argument(help: "Haptic patterns (.ahap, .haptic).")
        var files: [String]

        @Flag(help: "Treat every warning as an error (what a pattern library should pass).")
        var strict = false

        @Flag(help: "Print JSON: an array with each file's diagnostics and, when it loads, its length and contents.")
        var json = false

        @OptionGroup var reading: HapticsReadingArguments

        /// One file in `--json`.
        struct Report: Encodable {
            struct Problem: Encodable {
                var severity: String
                var line, column: Int
                var path, message, rule: String
                var value: String?
            }
            var file: String
            var ok: Bool
            var diagnostics: [Problem]
            /// Seconds; events and curves as in the `ok` line (`events`: the haptic ones).
            var duration: Double?
            var events: Int?
            /// The pattern's audio events (`AudioCustom`, `AudioContinuous`), which play beside
            /// its haptics: a waveform that is missing leaves its sound out, not its count.
            var audioEvents: Int?
            var transients: Int?
            var curves: Int?
            var summary: String?
            /// Why the file could not be read at all.
            var error: String?
        }

        func run() throws {
            if json { return try runJSON() }
            var failed = false
            for file in files {
                guard let bytes = CLIInput.readDocument(file) else { failed = true; continue }
                let result = HapticReader.read(bytes, file: file, options: reading.options(strict: strict))
                let waveforms = result.pattern.map { waveformDiagnostics($0, file: file) } ?? Diagnostics(file: file)
                var all = result.diagnostics
                all.append(contentsOf: waveforms)
                for line in all.lines(quiet: reading.quiet) { print(line.terminalSafe) }
                if waveforms.hasErrors { failed = true; continue }
                if let pattern = result.pattern {
                    print("\(file): ok (\(CLIHaptics.summary(pattern, HapticCompiler.compile(pattern))))")
                } else {
                    failed = true
                }
            }
            if failed { throw ExitCode.failure }
        }

        /// The pattern's `AudioCustom` waveforms as a preview loads them (their problems; a
        /// missing file a warning, an error with --strict).
        private func waveformDiagnostics(_ pattern: HapticPattern, file: String) -> Diagnostics {
            guard pattern.events.contains(where: { $0.type == .audioCustom }) else { return Diagnostics(file: file) }
            var diagnostics = HapticWaveformLoader.load(pattern, patternFile: file, sampleRate: 48_000).diagnostics
            if strict { diagnostics.escalateWarnings() }
            return diagnostics
        }

        private func runJSON() throws {
            var reports: [Report] = []
            for file in files {
                let bytes: [UInt8]
                do { bytes = try DocumentFile.read(file) } catch {
                    reports.append(Report(file: file, ok: false, diagnostics: [], error: "\(error)"))
                    continue
                }
                let result = HapticReader.read(bytes, file: file, options: reading.options(strict: strict))
                let waveforms = result.pattern.map { waveformDiagnostics($0, file: file) } ?? Diagnostics(file: file)
                var all = result.diagnostics
                all.append(contentsOf: waveforms)
                var report = Report(file: file, ok: result.pattern != nil && !waveforms.hasErrors, diagnostics: all.sortedByLocation.map {
                    .init(severity: $0.severity.rawValue, line: $0.line, column: $0.column, path: "\($0.path)",
                          message: $0.message, rule: $0.rule, value: $0.value)
                })
                if let pattern = result.pattern {
                    let compiled = HapticCompiler.compile(pattern)
                    let haptic = pattern.events.filter { $0.type.isHaptic }
                    report.duration = compiled.endTime
                    report.events = haptic.count
                    report.audioEvents = pattern.events.count - haptic.count
                    report.transients = haptic.filter { $0.type == .hapticTransient }.count
                    report.curves = pattern.parameterCurves.count
                    report.summary = CLIHaptics.summary(pattern, compiled)
                }
                reports.append(report)
            }
            try CLIOutput.json(reports)
            if reports.contains(where: { !$0.ok }) { throw ExitCode.failure }
        }
    }

    /// `cabin haptics compile FILE`: the event stream as JSON, or the sampled stream as CSV.
    struct Compile: ParsableCommand {
        enum Format: String, ExpressibleByArgument, CaseIterable { case json, csv }

        static let configuration = CommandConfiguration(
            commandName: "compile",
            abstract: "Print the compiled stream: breakpoints and transients (JSON) or samples (CSV).",
            discussion: """
                JSON: the continuous track as intensity/sharpness breakpoints (linear between them) and the transients, times in seconds, every control applied. CSV: the continuous track sampled at --rate Hz as time,intensity,sharpness rows, then the transients as '# transient,TIME,INTENSITY,SHARPNESS' comment lines.

                Examples:
                  cabin haptics compile Boing.ahap
                  cabin haptics compile Boing.ahap --format csv --rate 200 > boing.csv
                """)

        @Argument(help: "A haptic pattern (.ahap, .haptic).")
        var file: String

        @Option(help: "Output format: json or csv.")
        var format: Format = .json

        @Option(help: "Samples per second for --format csv.")
        var rate: Double = 1000

        @Flag(help: "Treat every warning as an error.")
        var strict = false

        @OptionGroup var reading: HapticsReadingArguments

        func validate() throws {
            guard rate.isFinite, (1...96_000).contains(rate) else { throw ValidationError("--rate must be 1…96000 Hz") }
        }

        func run() throws {
            let (_, compiled) = try CLIHaptics.load(file, strict: strict, reading)
            switch format {
            case .json: print(compiled.jsonDocument.serialized(), terminator: "")
            case .csv: print(compiled.sampled(rate: rate).csv, terminator: "")
            }
        }
    }
}
