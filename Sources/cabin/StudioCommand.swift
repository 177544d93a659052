import ArgumentParser
import CabinConfig
import CabinHaptics
import CabinIO
import CabinJSON
import CabinPlayback
import CabinSession
import CabinStudio
import Dispatch
import Glibc
import Synchronization

/// `cabin studio [FILE…]`: a local page that shows patterns and reloads them on save.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "A page in the browser that draws haptic patterns, plays them and reloads them on every save.",
        discussion: """
            Serves a page on 127.0.0.1 only, at an address with a random token (requests without it are refused), prints the address and opens it with xdg-open when there is a display (DISPLAY or WAYLAND_DISPLAY). Each FILE (no FILE: the built-in pattern library) is a timeline, all on one time axis: intensity (blue), sharpness (dashed orange, where the continuous track sounds), transients (red stems), and the pattern's sound as a waveform (grey): the haptics rendered as audio with the pattern's own sound mixed in, as 'haptics render' makes it, which the page plays with a playhead (and again and again with 'loop'). 'compare with' draws another pattern's intensity, sharpness and transients (purple) over a timeline, A over B on one lane. Zoom with the wheel or the slider. Below each timeline: its diagnostics, each line:column a link to that place in the source. When a FILE is saved (inotify, as 'haptics watch') it is read again and the page redraws without a reload (server-sent events); a broken save lists its located errors and the last good version stays drawn. Each reload is a line here, with how long after the save the page was sent the new version. Beside each pattern's play button, 'play on rumble pad' and 'play on DualSense' play it on this machine's devices, as 'haptics play --rumble' and '--dualsense' do: the rumble pad --rumble names (else the config's play.rumble, else the first one 'cabin devices --rumble' lists) and the DualSense audio device --dualsense names (else the first ALSA device that says it is a Wireless Controller); with no such device the button is disabled and says why. A session document (FILE.json) or --preset NAME is shown above the patterns as 'session plot' draws it (its lanes, without the loudness render). Ctrl-C stops.

            Examples:
              cabin studio Boing.ahap
              cabin studio a.ahap b.ahap --port 8377 --no-open
              cabin studio Boing.ahap --rumble /dev/input/event5 --dualsense hw:CARD=Controller
              cabin studio --preset drive Patterns/haptics/road-smooth.ahap
            """)

    @Argument(help: "Haptic patterns (.ahap, .haptic), and at most one session document (.json) whose lanes the page shows. No pattern and no session: the built-in library's patterns.")
    var files: [String] = []

    @OptionGroup(title: "A session to show (its lanes, as 'session plot' draws them)") var presets: PresetArguments

    @Option(help: "The port on 127.0.0.1 (0: any free port).")
    var port: Int = 0

    @Flag(name: .customLong("no-open"), help: "Only print the address; do not open it in a browser.")
    var noOpen = false

    @Flag(help: "Strict reading: every fix lenient reading would make is an error.")
    var strict = false

    @Option(help: "The rumble pad the page's 'play on rumble pad' plays on (an evdev node, /dev/input/eventN). Default: the config's play.rumble, else the first rumble device found.")
    var rumble: String?

    @Option(help: "The DualSense audio device (ALSA, 4 channels) the page's 'play on DualSense' plays on, e.g. hw:CARD=Controller. Default: the first ALSA device that says it is a Wireless Controller.")
    var dualsense: String?

    @Option(help: "How the rumble pad's motors follow intensity and sharpness: equal-power-split (default) or intensity-only.")
    var mapping: RumbleMapping = .equalPowerSplit

    @OptionGroup var reading: HapticsReadingArguments

    @Option(help: "Haptic strength: off, light (intensity × 0.4), medium (× 0.7) or strong (× 1, as designed). Default: CABIN_HAPTIC_STRENGTH, else the config file's haptics.strength, else strong.")
    var strength: HapticStrength?

    @OptionGroup var audio: HapticAudioArguments

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard !files.contains("-") else { throw ValidationError("standard input cannot be watched: name a file") }
        let sessions = files.filter { $0.hasSuffix(".json") }
        guard sessions.count <= 1 else { throw ValidationError("one session at a time: \(sessions.joined(separator: ", "))") }
        try presets.validateUsage(hasSession: !sessions.isEmpty)
    }

    func run() throws {
        let settings = try CLIConfig.hapticsSettings(strength: strength)
        let sessionFile = self.files.first { $0.hasSuffix(".json") }
        var files = self.files.filter { !$0.hasSuffix(".json") }
        // A session: its lanes, as 'session plot' draws them (its picture, without the loudness render).
        var session: StudioSession?
        if sessionFile != nil || presets.preset != nil {
            let sessionSettings = try CLIConfig.settings().settings
            let source = try CLISession.source(file: sessionFile, presets: presets, settings: sessionSettings)
            var options = SessionCompileOptions()
            if let strength = sessionSettings.hapticStrengthOverride { options.hapticStrength = strength }
            let loaded = try CLISession.load(source, sampleRate: SessionCommand.Plot.sampleRate, maxBlockFrames: 1024, options: options)
            let plot = try SessionCommand.Plot.plot(loaded, width: 1600, loudness: false)
            session = StudioSession(title: loaded.document.title ?? source.name, svg: plot.svg())
        }
        if files.isEmpty && session == nil {
            guard let library = HapticPatternLibrary.locate() else {
                CLIOutput.error("no FILE given and no pattern library found (set CABIN_PATTERNS to its folder)")
                throw ExitCode.failure
            }
            files = library.names.map { library.url(for: $0).path }
        }
        let devices = StudioDevices.find(rumble: rumble ?? settings.rumble.value, dualsense: dualsense, mapping: mapping)
        let studio = Studio(files: files, options: Studio.Options(
            read: reading.options(strict: strict), strength: settings.hapticStrength.value, audio: audio.options, quiet: reading.quiet,
            devices: devices, session: session))
        Interrupt.install()
        for report in studio.loadAll() { Self.print(report) }

        // The server on a task of its own; this thread watches the files.
        let address = Mutex<String?>(nil)
        let stopped = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        let port = self.port
        let server = Task.detached {
            do {
                try await studio.serve(port: port) { url in address.withLock { $0 = url } }
            } catch is CancellationError {
            } catch {
                failure.withLock { $0 = "cannot serve on 127.0.0.1:\(port): \(error)" }
            }
            stopped.signal()
        }
        defer { server.cancel() }
        // Wait for the address (or the server's failure).
        while address.withLock({ $0 }) == nil && failure.withLock({ $0 }) == nil && !Interrupt.isRequested { usleep(5_000) }
        if let failure = failure.withLock({ $0 }) {
            CLIOutput.error(failure.terminalSafe)
            throw ExitCode.failure
        }
        guard let url = address.withLock({ $0 }) else { return }
        Swift.print("cabin studio: \(url) (\(CLIHaptics.plural(files.count, "pattern")); Ctrl-C stops)")
        for kind in StudioDevices.Kind.allCases {
            let target = devices[kind]
            Swift.print((target.device == nil ? target.detail : "\(kind.label): \(target.detail)").terminalSafe)
        }
        var opener: ChildProcess?
        if !noOpen {
            do { opener = try DesktopOpener.open(url) } catch { CLIOutput.warning("cannot open the page: \(error)") }
            if opener != nil { Swift.print("opened in the browser (xdg-open)") }
        }
        CLIOutput.flush()
        do {
            try studio.watch(until: { Interrupt.isRequested || failure.withLock { $0 } != nil }) { report in
                Self.print(report)
                CLIOutput.flush()
            }
        } catch {
            CLIOutput.error("\(error)")
            studio.close()
            throw ExitCode.failure
        }
        _ = opener?.exitStatus(waiting: false)
        studio.close()
        server.cancel()
        _ = stopped.wait(timeout: .now() + 2)
        if let failure = failure.withLock({ $0 }) {
            CLIOutput.error(failure.terminalSafe)
            throw ExitCode.failure
        }
        Swift.print("cabin studio: stopped")
    }

    /// One reload as lines: `14:03:27  p.ahap: 0.52 s, 1 haptic event (1 transient)`, with
    /// how long after the save the pages were sent it, then its diagnostics (terminal-safe).
    static func print(_ report: Studio.Report) {
        let p = report.pattern
        let name = p.name.terminalSafe
        let kept = p.good.map { "; the version read at \($0.readAt) stays drawn" } ?? ""
        var line: String
        switch p.status {
        case .ok: line = "\(name): \(p.good?.summary ?? "")"
        case .soundErrors: line = "\(name): \(p.good?.summary ?? ""); its sound has errors: not played"
        case .errors: line = "\(name): not loaded (\(CLIHaptics.plural(max(1, p.diagnostics.filter(\.isError).count), "error")))\(kept)"
        case .unreadable: line = "cabin: error: \(p.failure ?? name)\(kept)"
        case .missing: line = "\(name): not there; waiting for it\(kept)"
        }
        if let savedAt = report.savedAt {
            line += " (sent \(Int((max(0, report.publishedAt - savedAt) * 1000).rounded())) ms after the save)"
        }
        Swift.print("\(TimeOfDay.now())  \(line.terminalSafe)")
        var diagnostics = Diagnostics(file: p.name)
        diagnostics.append(contentsOf: p.diagnostics)
        for text in diagnostics.lines() { Swift.print(text.terminalSafe) }
    }
}
