import ArgumentParser
import CabinAudio
import CabinConfig
import CabinPlayback
import CabinSession
import Glibc

extension SessionCommand {
    /// `cabin session levels FILE|--preset NAME`: each cue against the bed it lands on.
    struct Levels: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "levels",
            abstract: "How loud each played or spoken cue lands over the bed under it, and how hard it drives the limiter.",
            discussion: """
                The session is rendered offline twice at its master gain with the limiter off: the bed (every layer, the cues silenced but still ducking) and the cues (no layers). For each cue: its loudest momentary loudness (EBU R128, 400 ms) within its sound's length; the bed it lands on, the median of the bed's momentary loudness over the 3 s before it (what the listener was hearing when it came), and the difference, the jump heard (LU over the bed); the bed under the cue's loudest window (lower where the cue ducks it or it fades); the true peak of the two together before the limiter (dBTP); and how many dB the limiter pulls the mix down because of the cue (the peak above the limiter's ceiling of \(String(cFormat: "%.1f", Mixer.limiterCeiling.value)) dBTP, less what the bed alone would make it do). A cue over a silent bed shows 'alone'.

                Examples:
                  cabin session levels --preset drive
                  cabin session levels --preset pomodoro --cycles 2 --json
                  cabin session levels Patterns/sessions/example.json
                """)

        /// Rendered at 48 kHz: the true peak is measured at the rate sessions play at.
        static let sampleRate = 48000.0

        @Argument(help: "The session document (JSON; - for standard input); or use --preset.")
        var session: String?

        @OptionGroup(title: "Presets") var presets: PresetArguments

        @OptionGroup var mix: MixArguments

        @Flag(help: "Print JSON: the master gain, the ceiling and every cue's figures.")
        var json = false

        func validate() throws {
            try presets.validateUsage(hasSession: session != nil)
        }

        func run() throws {
            let settings = try CLIConfig.settings().settings
            let source = try CLISession.source(file: session, presets: presets, settings: settings)
            var options = try mix.options()
            if let strength = settings.hapticStrengthOverride { options.hapticStrength = strength }
            let loaded = try CLISession.load(source, sampleRate: Self.sampleRate, maxBlockFrames: 4800, options: options)
            let report: CueLevels.Report
            do {
                report = try CueLevels.measure(loaded.document, options: options) { document, options in
                    try CLISession.load(source.with(document: document), sampleRate: Self.sampleRate, maxBlockFrames: 4800, options: options)
                }
            } catch let error as ExitCode {
                throw error
            } catch {
                CLIOutput.error("levels: \(error)")
                throw ExitCode.failure
            }
            if json { return try CLIOutput.json(report) }
            print(Self.text(report), terminator: "")
        }

        /// The report as a table, a line a cue, and the two worst.
        static func text(_ report: CueLevels.Report) -> String {
            let title = (report.title ?? "session").terminalSafe
            var out = "\"\(title)\": cues over the bed (momentary loudness, 400 ms); master gain "
                + String(cFormat: "%+.1f dB, limiter ceiling %.1f dBTP\n", report.masterGain, report.ceiling)
            let width = min(40, report.cues.map { $0.name.terminalSafe.count }.max() ?? 4)
            let segmentWidth = min(18, report.cues.map { ($0.segment ?? "").terminalSafe.count }.max() ?? 0)
            out += "  " + "time".leftPadded(9) + "  " + "segment".padded(toLength: segmentWidth) + "  " + "cue".padded(toLength: width)
                + "  " + "bus".padded(toLength: 6) + "    cue    bed    over  under   peak  limiter\n"
            let number = { (v: Double?, format: String) in v.map { String(cFormat: format, $0) } ?? "-" }
            for cue in report.cues {
                let name = cue.name.terminalSafe, segment = (cue.segment ?? "").terminalSafe
                let over: String = cue.margin.map { String(cFormat: "%+.1f", $0) } ?? (cue.loudness == nil ? "-" : "alone")
                out += "  " + clock(cue.time).leftPadded(9) + "  " + String(segment.prefix(segmentWidth)).padded(toLength: segmentWidth)
                    + "  " + String(name.prefix(width)).padded(toLength: width) + "  " + cue.bus.terminalSafe.padded(toLength: 6)
                    + "  " + number(cue.loudness, "%.1f").leftPadded(5) + "  " + number(cue.bedLoudness, "%.1f").leftPadded(5)
                    + "  " + over.leftPadded(6) + "  " + number(cue.bedUnder, "%.1f").leftPadded(5) + "  " + number(cue.peak, "%.1f").leftPadded(5)
                    + "  " + String(cFormat: "%.1f dB", cue.limiterDrive).leftPadded(7) + "\n"
            }
            if let loudest = report.loudest, loudest.loudness != nil {
                let over = loudest.margin.map { String(cFormat: "%+.1f LU over its bed", $0) } ?? "over a silent bed"
                out += "loudest over its bed: \(loudest.name.terminalSafe) at \(clock(loudest.time)), \(over)\n"
            }
            if let hardest = report.hardest {
                out += hardest.limiterDrive > 0
                    ? "hardest on the limiter: \(hardest.name.terminalSafe) at \(clock(hardest.time)), " + String(cFormat: "%.1f dB\n", hardest.limiterDrive)
                    : "no cue drives the limiter\n"
            }
            return out
        }

        /// `m:ss.s` (`h:mm:ss.s` past an hour).
        static func clock(_ t: Double) -> String {
            let tenths = Int((t * 10).rounded())
            let s = tenths / 10, h = s / 3600, m = (s / 60) % 60
            let rest = String(cFormat: "%02d.%d", s % 60, tenths % 10)
            return h > 0 ? "\(h):" + String(cFormat: "%02d", m) + ":" + rest : "\(m):" + rest
        }
    }
}
