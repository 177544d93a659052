import ArgumentParser
import CabinConfig
import CabinHaptics
import CabinIO
import CabinJSON
import CabinOutput
import CabinPlayback
import CabinRemote
import CabinSession
import CabinStudio
import Glibc

/// `cabin studio [FILE…]`: a local page that shows patterns and reloads them on save.
struct StudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "A page in the browser that draws haptic patterns, plays them and reloads them on every save.",
        discussion: """
            Serves a page on 127.0.0.1 only, at an address with a random token (requests without it are refused), prints the address and opens it with xdg-open when there is a display (DISPLAY or WAYLAND_DISPLAY). Each FILE (no FILE: the built-in pattern library) is a timeline, all on one time axis: intensity (blue), sharpness (dashed orange, where the continuous track sounds), transients (red stems), and the pattern's sound as a waveform (grey): the haptics rendered as audio with the pattern's own sound mixed in, as 'haptics render' makes it, which the page plays with a playhead (and again and again with 'loop'). 'compare with' draws another pattern's intensity, sharpness and transients (purple) over a timeline, A over B on one lane. Zoom with the wheel or the slider. Below each timeline: its diagnostics, each line:column a link to that place in the source. When a FILE is saved (inotify, as 'haptics watch') it is read again and the page redraws without a reload (server-sent events); a broken save lists its located errors and the last good version stays drawn. Each reload is a line here, with how long after the save the page was sent the new version. Beside each pattern's play button, 'play on rumble pad' and 'play on DualSense' play it on this machine's devices, as 'haptics play --rumble' and '--dualsense' do: the rumble pad --rumble names (else the config's play.rumble, else the first one 'cabin devices --rumble' lists) and the DualSense audio device --dualsense names (else the first ALSA device that says it is a Wireless Controller); with no such device the button is disabled and says why. A session document (FILE.json) or --preset NAME is shown above the patterns as 'session plot' draws it (its lanes, without the loudness render), and plays on this machine as 'cabin play' plays it (on -D, or the config's device; -D none: silently on the system clock), paused at its start: the page has its transport (play, pause, stop, a time to go to, a click on the lanes to go there), a volume slider and mute for each bus, a master mute, the position and a playhead over the lanes; each is the control socket's command ('cabin ctl'), and the socket is served too (--ipc, as 'cabin play'). Ctrl-C stops.

            Examples:
              cabin studio Boing.ahap
              cabin studio a.ahap b.ahap --port 8377 --no-open
              cabin studio Boing.ahap --rumble /dev/input/event5 --dualsense hw:CARD=Controller
              cabin studio --preset drive Patterns/haptics/road-smooth.ahap
              cabin studio --preset pomodoro -D none --ipc /tmp/studio.sock --no-open    then: cabin ctl --ipc /tmp/studio.sock status
            """)

    @Argument(help: "Haptic patterns (.ahap, .haptic), and at most one session document (.json) whose lanes the page shows. No pattern and no session: the built-in library's patterns.")
    var files: [String] = []

    @OptionGroup(title: "A session to show (its lanes, as 'session plot' draws them)") var presets: PresetArguments

    @OptionGroup(title: "Sound device (a session plays on it)") var output: DeviceArguments

    @Option(help: ArgumentHelp("The control socket of the session playing here ('cabin ctl'): a path, or off (default: $XDG_RUNTIME_DIR/cabin/control, as 'cabin play').", valueName: "path"))
    var ipc: String?

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
        if sessions.isEmpty && presets.preset == nil && (output.device != nil || ipc != nil) {
            throw ValidationError("\(output.device != nil ? "-D" : "--ipc") is for a session playing here: open one (FILE.json or --preset NAME)")
        }
    }

    func run() throws {
        let settings = try CLIConfig.hapticsSettings(strength: strength)
        let opened = try openSession()
        let files = try patternFiles(showing: opened != nil)
        let devices = StudioDevices.find(rumble: rumble ?? settings.rumble.value, dualsense: dualsense, mapping: mapping)
        let studio = Studio(files: files, options: Studio.Options(
            read: reading.options(strict: strict), strength: settings.hapticStrength.value, audio: audio.options, quiet: reading.quiet,
            devices: devices, session: opened?.session))
        Interrupt.install()
        for report in studio.loadAll() { Self.print(report) }
        let server = StudioServing(studio, port: port)
        guard let url = server.waitForAddress(giveUp: { Interrupt.isRequested }) else {
            opened?.close()
            server.stop()
            if let failure = server.failure { CLIOutput.error(failure.terminalSafe); throw ExitCode.failure }
            return
        }
        announce(url, patterns: files.count, devices: devices, session: opened)
        let opener = noOpen ? nil : Self.openBrowser(url)
        try watch(studio, server: server, playing: opened)
        _ = opener?.exitStatus(waiting: false)
        Swift.print("cabin studio: stopped")
    }

    /// The session shown (and played), with what must live as long as it plays.
    struct OpenedSession {
        var session: StudioSession
        var control: ControlServer?
        /// Its sounds still decoding while it plays.
        var decoding: SoundDecoding

        func close() {
            session.player?.player.stopNow()
            control?.close()
        }
    }

    /// The session named (FILE.json or --preset), if any: its lanes as 'session plot' draws
    /// them (without the loudness render), and the session itself opened as 'cabin play'
    /// opens it — on -D (or the config's device; none: the system clock), paused at its
    /// start — with its control socket (--ipc, as 'cabin play').
    func openSession() throws -> OpenedSession? {
        let file = files.first { $0.hasSuffix(".json") }
        guard file != nil || presets.preset != nil else { return nil }
        let layer = try CLIConfig.optionsLayer(device: output.device, period: nil, periods: nil, rumble: nil, volume: [])
        let settings = try CLIConfig.settings(options: layer).settings
        let source = try CLISession.source(file: file, presets: presets, settings: settings)
        var options = SessionCompileOptions()
        if let strength = settings.hapticStrengthOverride { options.hapticStrength = strength }
        let loaded = try CLISession.load(source, sampleRate: SessionCommand.Plot.sampleRate, maxBlockFrames: 1024, options: options)
        let plot = try SessionCommand.Plot.plot(loaded, width: 1600, loudness: false)
        let player: LivePlayer, decoding: SoundDecoding
        do {
            (player, decoding, _) = try Play.open(Play.deviceOptions(settings, sampleRate: 48000, needsLowLatency: false), source: source,
                                                  compileOptions: options)
        } catch let error as AudioDeviceError {
            CLIOutput.error("\(error)")
            throw ExitCode.failure
        }
        let title = loaded.document.title ?? source.name
        player.pause()   // heard from the page's play button
        try player.start()
        let control = try Play.openControl(ipc: ipc, player: player, title: title)
        let session = StudioSession(title: title, svg: plot.svg(), width: Double(plot.width), timeline: plot.timeline,
                                    player: StudioPlayer(player: player, title: title))
        return OpenedSession(session: session, control: control, decoding: decoding)
    }

    /// The FILEs that are patterns; none and no session: the built-in library's patterns.
    func patternFiles(showing session: Bool) throws -> [String] {
        let patterns = files.filter { !$0.hasSuffix(".json") }
        guard patterns.isEmpty && !session else { return patterns }
        guard let library = HapticPatternLibrary.locate() else {
            CLIOutput.error("no FILE given and no pattern library found (set CABIN_PATTERNS to its folder)")
            throw ExitCode.failure
        }
        return library.names.map { library.url(for: $0).path }
    }

    /// The address, the device buttons' devices and the session's sound device and socket.
    func announce(_ url: String, patterns: Int, devices: StudioDevices, session: OpenedSession?) {
        Swift.print("cabin studio: \(url) (\(CLIHaptics.plural(patterns, "pattern")); Ctrl-C stops)")
        for kind in StudioDevices.Kind.allCases {
            let target = devices[kind]
            Swift.print((target.device == nil ? target.detail : "\(kind.label): \(target.detail)").terminalSafe)
        }
        if let player = session?.session.player?.player {
            let device = player.options.silentReason.map { "\($0): on the system clock, silent" } ?? player.options.device
            Swift.print("session: plays on \(device)\(session?.control.map { "; control socket \($0.path)" } ?? "")".terminalSafe)
        }
        CLIOutput.flush()
    }

    /// The page in the browser (xdg-open, when there is a display), or nil with a warning.
    static func openBrowser(_ url: String) -> ChildProcess? {
        do {
            let opener = try DesktopOpener.open(url)
            if opener != nil { Swift.print("opened in the browser (xdg-open)") }
            CLIOutput.flush()
            return opener
        } catch {
            CLIOutput.warning("cannot open the page: \(error)")
            return nil
        }
    }

    /// Reloads each saved file until Ctrl-C (or the server fails), serving the session's
    /// control socket meanwhile; then stops the session, the pages and the server.
    func watch(_ studio: Studio, server: StudioServing, playing: OpenedSession?) throws {
        let player = playing?.session.player?.player, control = playing?.control
        var failure: FileWatcherError?
        do {
            try studio.watch(until: { Interrupt.isRequested || server.failure != nil }, each: {
                guard let player else { return }
                control?.update(with: player.poll())
                control?.serve(timeoutMilliseconds: 0)
            }) { report in
                Self.print(report)
                CLIOutput.flush()
            }
        } catch {
            failure = error
        }
        playing?.close()
        studio.close()
        server.stop()
        if let failure { CLIOutput.error("\(failure)"); throw ExitCode.failure }
        if let problem = server.failure { CLIOutput.error(problem.terminalSafe); throw ExitCode.failure }
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
