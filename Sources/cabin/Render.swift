import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinPlayback
import CabinSession
import FoundationEssentials

/// `cabin render SESSION.json -o OUT.wav`: a session to a file, far faster than real time.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a session to a WAV, FLAC or Opus file, far faster than real time.",
        discussion: """
            The file is written under a temporary name and renamed at the end: an interrupted or failed render leaves nothing at OUT. A device or FIFO gets the bytes once the render is complete (never replaced); '-o -' writes WAV to standard output (the summary goes to stderr), and SESSION '-' reads the document from standard input. The same session gives the same bits on every run and with every --block-size (in Ogg files, all but the stream's random serial number).

            Formats, by OUT's extension: .wav (RF64 past 4 GiB), .flac, .aiff, .opus (96 kb/s), .ogg (Vorbis q5), .mp3 (LAME VBR -V2); a name with none of these is refused, except a device or FIFO (WAV).

            Haptics: --haptics HAPTICS.wav also writes the haptic track: every 'haptic' cue's pattern rendered as audio (as 'cabin haptics render' does) from its cue's exact frame; mono, same rate, same frames as OUT (sample-aligned). Haptic audio stays out of the main mix unless --haptics-in-mix puts it on a 'haptics' bus (the document's 'haptics' bus gain if declared, else -12 dB): the cues' patterns, and each haptic layer as a loop whose level follows its intensity map. Patterns: library names (Patterns/haptics/NAME.ahap, or $CABIN_PATTERNS) or paths relative to the document.

            Examples:
              cabin render drive.json -o drive.wav
              cabin render --preset drive --minutes 50 -o drive.flac --bits 24
              cabin render drive.json -o part.flac --from 12m --to 13m --bits 24
              cabin render drive.json -o drive.wav --haptics drive-haptics.wav
              cabin render drive.json -o - | aplay
              cabin render --preset drive --radio https://example.org/stream.opus --radio-fallback radio/lofi -o drive.wav
              cabin render drive.json --record-live -o drive.flac

            Live streams (http(s):// sounds) have no fixed content: a session with one renders with --radio-fallback NAME (a library bed in each stream's place, deterministic), or with --record-live, which connects to each stream, waits until a second is buffered, and renders in real time (the render takes the length of the part rendered) so the file holds what the stations sent, aligned to the timeline; gaps and reconnections follow the rules of live play and are reported.
            """)

    @Argument(help: "The session document (JSON; - for standard input); or use --preset.")
    var session: String?

    @OptionGroup(title: "Presets") var presets: PresetArguments

    @OptionGroup var mix: MixArguments

    @Option(name: .shortAndLong, help: "Output file: .wav, .flac, or .opus (Ogg Opus, 48 kHz only); - for WAV on standard output.")
    var output: String

    @Option(name: .long, help: "Sample rate in Hz.")
    var sampleRate: Int = 48000

    @Option(name: .long, help: "Sample format of WAV, AIFF and FLAC: 16, 24 or 32f (float; not FLAC).")
    var bits: String = "16"

    @Option(name: .long, help: "Frames per render block (the output does not depend on it).")
    var blockSize: Int = 512

    @Option(name: .long, help: "Start of the part to write (e.g. 12m30s); the mix before it is still computed.")
    var from: String?

    @Option(name: .long, help: "End of the part to write (default: the session's end).")
    var to: String?

    @Option(name: .long, help: "Also write the haptic track (mono, sample-aligned with the output) to this file.")
    var haptics: String?

    @Flag(name: .long, help: "Mix the haptic audio into the output on a 'haptics' bus (off by default).")
    var hapticsInMix = false

    @Option(help: "Haptic strength of the haptic track (and of --haptics-in-mix): off, light (intensity × 0.4), medium (× 0.7) or strong (× 1, as designed). Default: CABIN_HAPTIC_STRENGTH, else the config file's haptics.strength, else the document's hapticStrength.")
    var strength: HapticStrength?

    @Option(name: .long, help: ArgumentHelp("Render a session's live streams (http(s):// sounds) as this library bed instead (e.g. radio/lofi).",
                                            valueName: "name"))
    var radioFallback: String?

    @Flag(name: .long, help: "Record the session's live streams in real time while rendering (the render takes as long as the part rendered).")
    var recordLive = false

    func validate() throws {
        guard SoundFileFormat.SampleEncoding(rawValue: bits) != nil else {
            throw ValidationError("--bits must be 16, 24 or 32f, not '\(bits)'")
        }
        if let haptics {
            if bits == "32f" && haptics.lowercased().hasSuffix(".flac") {
                throw ValidationError("FLAC has no float samples: use --bits 16 or 24, or write the haptic track as .wav")
            }
            if URL(fileURLWithPath: haptics).standardized == URL(fileURLWithPath: output).standardized {
                throw ValidationError("--haptics must name another file than -o")
            }
        }
        if bits == "32f" && output.lowercased().hasSuffix(".flac") {
            throw ValidationError("FLAC has no float samples: use --bits 16 or 24, or write a .wav")
        }
        guard (8000...384_000).contains(sampleRate) else {
            throw ValidationError("--sample-rate must be between 8000 and 384000 Hz")
        }
        if recordLive && radioFallback != nil {
            throw ValidationError("give --record-live (record the live streams) or --radio-fallback NAME (a bed in their place), not both")
        }
        guard (1...65536).contains(blockSize) else { throw ValidationError("--block-size must be 1…65536 frames") }
        try presets.validateUsage(hasSession: session != nil)
        if session == nil && presets.preset == nil {
            throw ValidationError("give a session file or --preset NAME (see 'cabin session presets')")
        }
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value { try CLIInput.validateTime(value, option: name) }
        }
    }

    func run() throws {
        // A preset's default options come from the config file, and stations by name (a
        // preset's --radio NAME, a document's "station:NAME").
        let settings = try CLIConfig.hapticsSettings(strength: strength)
        CLIConfig.noteMissingHome(keepsState: false)
        // The outputs are checked (their formats, and their temporaries made) before any work.
        let encoding = SoundFileFormat.SampleEncoding(rawValue: bits)!
        let inputs = session.map { [$0] } ?? []
        let format = try CLIOutput.format(output, encoding: encoding, inputs: inputs)
        let destination = try CLIOutput.open(output, inputs: inputs)
        let hapticDestination = try haptics.map { try CLIOutput.open($0, inputs: inputs + [output]) }
        let source = try CLISession.source(file: session, presets: presets, settings: settings)
        var options = try mix.options(hapticsBusGain: hapticsInMix ? SessionCompileOptions.defaultHapticsBusGain : nil)
        // The listener's haptic strength, as 'cabin play' and 'cabin haptics render' apply it.
        if let strength = settings.hapticStrengthOverride { options.hapticStrength = strength }
        let (loaded, recording) = try load(source, options: options)
        let inputFiles = source.inputFiles(loaded.document)
        try CLIOutput.refuseSame(output, inputs: inputFiles)
        let hapticFormat = try haptics.map { try CLIOutput.format($0, encoding: encoding, inputs: inputFiles + [output]) }
        Interrupt.install()
        if recording { try startRecording(loaded) }
        var renderer = OfflineRenderer(blockFrames: blockSize)
        renderer.radio = loaded.radio
        renderer.realTime = recording
        if let haptics, let hapticFormat {
            renderer.hapticTrack = .init(track: SessionHapticTrack(loaded.compiled, options: options.hapticAudio),
                                         path: haptics, format: hapticFormat, output: hapticDestination)
        }
        renderer.from = range.from
        renderer.to = range.to
        renderer.isCancelled = { Interrupt.isRequested }
        try write(loaded, with: renderer, to: destination, format: format, name: loaded.compiled.title ?? source.name, recording: recording)
    }

    /// `--from` and `--to` in seconds (already checked).
    var range: (from: Double?, to: Double?) { (from.flatMap(SessionTime.parse), to.flatMap(SessionTime.parse)) }

    /// The session loaded for this render, and whether it records live streams: a session
    /// with a live stream is refused unless --record-live records it or --radio-fallback
    /// renders a library bed in its place.
    func load(_ source: SessionSource, options: SessionCompileOptions) throws -> (SessionLoader.Loaded, recording: Bool) {
        let rate = Double(sampleRate)
        let loaded = try CLISession.load(source, sampleRate: rate, maxBlockFrames: blockSize, options: options)
        let recording = recordLive && loaded.radio.hasLiveStreams
        if recordLive && !recording {
            CLIOutput.note("--record-live: \(source.name) plays no live stream; rendering as usual")
        }
        guard let url = loaded.document.stations.first, !recording else { return (loaded, recording) }
        // A live stream has no fixed content: render a library bed in its place, if asked.
        guard let radioFallback else {
            CLIOutput.error("\(source.name) plays a live stream (\(url)), which has no fixed content to render; give --radio-fallback NAME (a library bed such as radio/lofi) to render one in its place, or --record-live to record the stream in real time")
            throw ExitCode.failure
        }
        let fallback = source.replacingStations(in: loaded.document, with: .library(radioFallback))
        return (try CLISession.load(fallback, sampleRate: rate, maxBlockFrames: blockSize, options: options), false)
    }

    /// Connects the live streams before a recording render, waiting up to 15 s for each to buffer.
    func startRecording(_ loaded: SessionLoader.Loaded) throws {
        let length = min(range.to ?? .infinity, Double(loaded.compiled.durationFrames) / Double(sampleRate)) - (range.from ?? 0)
        CLIOutput.note("recording the live stream\(loaded.document.stations.count == 1 ? "" : "s") in real time: this render takes \(CLIOutput.clock(max(0, length))), the length of what it writes")
        try loaded.radio.startLiveStreams()
        if !loaded.radio.waitUntilBuffered(timeoutSeconds: 15, shouldStop: { Interrupt.isRequested }) && !Interrupt.isRequested {
            CLIOutput.warning("a live stream is not buffered after 15 s; recording anyway (silence until it arrives)")
        }
    }

    /// Renders with a progress bar (and the recording's events), then prints the summary;
    /// a failure is one line (exit 1, or the interrupt's status).
    func write(_ loaded: SessionLoader.Loaded, with renderer: OfflineRenderer, to destination: OutputFile, format: SoundFileFormat,
               name: String, recording: Bool) throws {
        var renderer = renderer
        let runner = SessionRunner(loaded.compiled)
        var recorder = LiveRecordingReport(radio: loaded.radio, sampleRate: Double(sampleRate))
        if recording {
            // The runner's pre-roll has started the streams its first layers play.
            loaded.radio.waitUntilFlowing(timeoutSeconds: 0.5)
            recorder.begin()
        }
        let bar = ProgressBar(label: recording ? "recording" : "rendering", secondsPerUnit: 1 / Double(sampleRate))
        renderer.progress = { done, total in
            if recording { for line in recorder.poll(at: done) { bar.interject(line) } }
            bar.update(done, of: total)
        }
        do {
            let summary = try renderer.write(runner, to: destination, format: format)
            bar.finish()
            if recording {
                let end = Int64(((range.from ?? 0) * Double(sampleRate)).rounded()) + summary.frames
                for line in recorder.poll(at: end, force: true) { StandardStreams.writeError(line + "\n") }
                loaded.radio.stop()
                for line in recorder.finish() { CLIOutput.note(line) }
            }
            report(summary, loaded: loaded, track: renderer.hapticTrack?.track, destination: destination, format: format, name: name)
        } catch {
            bar.finish()
            CLIOutput.error(error)
            throw ExitCode(Interrupt.isRequested ? Interrupt.status : 1)
        }
    }

    /// The playlist's skipped tracks (one line each) and the summary lines.
    func report(_ summary: OfflineRenderer.Summary, loaded: SessionLoader.Loaded, track: SessionHapticTrack?, destination: OutputFile,
                format: SoundFileFormat, name: String) {
        let summaryOutput = haptics == "-" ? "-" : output  // stdout carries audio: summary to stderr
        // A playlist's tracks that could not be played: one line each.
        for event in loaded.radio.poll() {
            switch event {
            case .skipped, .error: CLIOutput.warning(RadioLine.describe(event))
            default: break
            }
        }
        CLIOutput.summary("\(destination.name): \(CLIOutput.clock(summary.seconds)) of \(name) at \(sampleRate) Hz (\(format.description(frames: summary.frames, channels: 2))), "
                          + String(cFormat: "rendered in %.2f s (%.0f× real time)", summary.wallSeconds, summary.speed), output: summaryOutput)
        if let haptics, let track {
            let cues = track.clips.count, patterns = Set(track.clips.map(\.pattern)).count
            CLIOutput.summary("\(haptics): haptic track, \(cues) cue\(cues == 1 ? "" : "s") (\(patterns) pattern\(patterns == 1 ? "" : "s")), mono, sample-aligned with \(destination.name)",
                              output: summaryOutput)
        }
    }
}

/// The CLI's side of loading sessions: the library resolves and loads
/// (`SessionSource`, `SessionLoader`); this prints what they say, one line each, and exits.
enum CLISession {
    /// The session a command's argument and preset options name (`SessionSource`), with the
    /// config file's default preset, preset options under those given and stations
    /// (`CabinSettings.presetChoice(named:given:)`). A preset option it rejects is one line and
    /// exit 64 (a usage error); an unreadable sound file, one line and exit 1.
    static func source(file: String?, presets: PresetArguments, settings: CabinSettings, loopFor: Double? = nil) throws -> SessionSource {
        let (name, options) = settings.presetChoice(named: presets.preset, given: presets.given)
        do {
            return try SessionSource(file: file, preset: name, presetOptions: options, stations: settings.stationURLs, loopFor: loopFor)
        } catch { throw exit(error) }
    }

    /// The session a state file remembers (`cabin play --resume`), stations by name as the
    /// config file has them now.
    static func source(resuming session: PlayState.Session, settings: CabinSettings) throws -> SessionSource {
        do {
            return try SessionSource(rememberedFile: session.file, preset: session.preset, options: session.options,
                                     stations: settings.stationURLs)
        } catch { throw exit(error) }
    }

    /// Prints the failure and gives its exit status.
    static func exit(_ error: SessionSource.Failure) -> ExitCode {
        CLIOutput.error(error.commandLine)
        if case .preset = error { return ExitCode(64) }
        return .failure
    }

    /// Loads, printing warnings; on errors prints them (one line each) and exits 1.
    static func load(_ source: SessionSource, sampleRate: Double, maxBlockFrames: Int,
                     options: SessionCompileOptions = .init(), progressive: Bool = false,
                     startingAt start: Double = 0) throws -> SessionLoader.Loaded {
        try load(source.name, sampleRate: sampleRate, maxBlockFrames: maxBlockFrames) { library throws(SessionLoader.Failure) in
            try source.load(sampleRate: sampleRate, maxBlockFrames: maxBlockFrames, library: library, options: options,
                            progressive: progressive, startingAt: start)
        }
    }

    /// Loads, printing warnings; on errors prints them (one line each) and exits 1.
    static func load(_ path: String, sampleRate: Double, maxBlockFrames: Int,
                     options: SessionCompileOptions = .init(), stations: [String: String] = [:],
                     progressive: Bool = false, startingAt start: Double = 0) throws -> SessionLoader.Loaded {
        try load(path, sampleRate: sampleRate, maxBlockFrames: maxBlockFrames) { library throws(SessionLoader.Failure) in
            try SessionLoader.load(path: path, sampleRate: sampleRate, maxBlockFrames: maxBlockFrames, library: library,
                                   patterns: HapticPatternLibrary.locate(), options: options, stations: stations,
                                   progressive: progressive, startingAt: start)
        }
    }

    static func load(_ name: String, sampleRate: Double, maxBlockFrames: Int,
                     _ body: (SoundLibrary?) throws(SessionLoader.Failure) -> SessionLoader.Loaded) throws -> SessionLoader.Loaded {
        let library: SoundLibrary?
        do { library = try SoundLibrary.standard() } catch {
            CLIOutput.error("sound library: \(error)")
            throw ExitCode.failure
        }
        do {
            let loaded = try body(library)
            for diagnostic in loaded.diagnostics { StandardStreams.writeError("\(diagnostic)".terminalSafe + "\n") }
            for warning in loaded.warnings { CLIOutput.warning(warning) }
            return loaded
        } catch {
            for line in error.lines {
                StandardStreams.writeError((line.contains(": error: ") ? line : "cabin: error: \(line)").terminalSafe + "\n")
            }
            throw ExitCode.failure
        }
    }
}

/// What the CLI's hints say of a session.
extension SessionSource {
    /// The arguments that name this session again (for hints).
    var commandLine: String {
        if let file { return ChildProcess.shellQuoted(file) }
        return (["--preset \(ChildProcess.shellQuoted(preset ?? ""))"] + options.sorted { $0.key < $1.key }.map { "--\($0.key) \(ChildProcess.shellQuoted($0.value))" })
            .joined(separator: " ")
    }

    /// A name for its render in the working folder: the preset's, or the document's
    /// (`focus.json` → `focus.wav`).
    var suggestedOutput: String {
        guard let file, file != "-" else { return "\(preset ?? "session").wav" }
        let name = file.lastPathComponent
        let base = name.hasSuffix(".json") ? String(name.dropLast(5)) : name
        return ChildProcess.shellQuoted((base.isEmpty ? "session" : base) + ".wav")
    }
}
