import ArgumentParser
import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import Glibc

/// `cabin play SESSION.json`: a session live on an ALSA device.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a session live through ALSA, with a status line and keyboard control.",
        discussion: """
            Keys while playing: space pulls over (fades out and pauses the clock) and resumes, ←/→ seek 30 s, +/− change the speed parameter, 9/0 (or / and *) volume down/up by 2 dB, m mutes, l leaves focus (the speed-bump warning, the speed falls) and r returns to it (sessions with "focus", like the drive), q or Ctrl-C fade out and quit (a second Ctrl-C quits at once).

            Control from outside: a session listens on a socket ($XDG_RUNTIME_DIR/cabin/control, or --ipc PATH) for 'cabin ctl' and for newline-delimited JSON in mpv's style ({"command": ["pause"], "request_id": 7}).

            With no sound device (-D none, or no sound card and no sound server), the session runs on the system clock with everything but the sound.

            When stdout is a terminal a status line is redrawn in place; otherwise one plain line is printed per event. --json prints events (start, mark, xrun, device error, end; radio-buffering, radio-playing, radio-title, radio-reconnect, radio-error for live streams) as JSON lines for scripts.

            With no session and no --preset, plays the default preset: a 25-minute drive.

            Examples:
              cabin play
              cabin play --preset drive --minutes 50 --vehicle v8 --destination Yosemite
              cabin play --preset pomodoro --ambient ambient/rain
              cabin play --radio https://radio.example/live.opus
              cabin play drive.json
              cabin play drive.json -D pulse --period 512
              cabin play drive.json --from 24m50s
              cabin play drive.json --json | jq -c 'select(.event == "mark")'
              cabin play --volume 60% --volume radio=-6dB
              cabin play --preset ambient --minutes 480 --stop-after 45m --fade-out 60s
              cabin play --preset pomodoro --on-mark 'notify-send "Cabin: $CABIN_MARK"'
              cabin play --ipc /tmp/cabin.sock    then: cabin ctl --ipc /tmp/cabin.sock pause
            """)

    @Argument(help: "The session document (JSON); or use --preset.")
    var session: String?

    @OptionGroup(title: "Presets") var presets: PresetArguments

    @OptionGroup var mix: MixArguments

    @Option(name: [.customShort("D"), .long], help: "ALSA device: default, pulse, hw:0,0, plughw:…, jack (see 'cabin devices'); none: no sound, the session on the system clock.")
    var device = "default"

    @Option(help: "Frames per period (a power of two; 128–1024).")
    var period = 256

    @Option(help: "Periods per buffer (2–8).")
    var periods = 3

    @Option(name: .long, help: "Sample rate in Hz.")
    var sampleRate = 48000

    @Option(help: "Start here on the session's timeline (e.g. 24m50s), to resume or to hear one part.")
    var from: String?

    @Flag(help: "No status line or event lines (errors only).")
    var quiet = false

    @Flag(help: "Print events as JSON lines.")
    var json = false

    @Flag(help: "Do not ask for real-time (SCHED_FIFO) scheduling.")
    var noRealtime = false

    @Option(help: "Play the session's haptic cues on this rumble device (/dev/input/eventN; see 'cabin devices').")
    var rumble: String?

    @Option(help: ArgumentHelp("Volume: of the master (80, 80%: mpv's percent; -6dB), or of a bus (radio=-6dB). Repeatable.", valueName: "[bus=]level"))
    var volume: [String] = []

    @Option(help: ArgumentHelp("A sleep timer: end the session this long after it starts (e.g. 45m; pauses count).", valueName: "time"))
    var stopAfter: String?

    @Option(help: ArgumentHelp("With --stop-after: fade out over this long before the end (e.g. 60s).", valueName: "time"))
    var fadeOut: String?

    @Option(help: ArgumentHelp("After the session ends by itself, by --stop-after or 'cabin ctl stop': quit (the default) or run this shell command.", valueName: "quit|command"))
    var then: String?

    @Option(help: ArgumentHelp("Run this shell command at each mark, with CABIN_MARK, CABIN_TIME and CABIN_SESSION set.", valueName: "command"))
    var onMark: String?

    @Option(help: ArgumentHelp("The control socket ('cabin ctl'): a path, or off (default: $XDG_RUNTIME_DIR/cabin/control).", valueName: "path"))
    var ipc: String?

    func validate() throws {
        guard period >= 16, period <= 8192, period & (period - 1) == 0 else {
            throw ValidationError("--period must be a power of two between 16 and 8192 frames, not \(period)")
        }
        guard (2...8).contains(periods) else { throw ValidationError("--periods must be 2…8, not \(periods)") }
        guard (8000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000 Hz") }
        if quiet && json { throw ValidationError("--quiet and --json cannot be used together") }
        if let from { try CLIInput.validateTime(from, option: "--from") }
        try presets.validateUsage(hasSession: session != nil)
        _ = try volumeSettings()
        if let stopAfter { try CLIInput.validateTime(stopAfter, option: "--stop-after") }
        if let fadeOut {
            try CLIInput.validateTime(fadeOut, option: "--fade-out")
            guard let stopAfter else { throw ValidationError("--fade-out goes with --stop-after (a sleep timer that fades out)") }
            if (SessionTime.parse(fadeOut) ?? 0) > (SessionTime.parse(stopAfter) ?? 0) {
                throw ValidationError("--fade-out '\(fadeOut)' is longer than --stop-after '\(stopAfter)'")
            }
        }
    }

    /// `--volume` values as (bus or nil for the master, level).
    func volumeSettings() throws -> [(bus: String?, level: Decibels)] {
        try volume.map { text in
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            let (bus, value) = parts.count == 2 ? (Optional(parts[0]), parts[1]) : (nil, text)
            guard let level = VolumeLevel.parse(value) else {
                throw ValidationError("--volume '\(text)': \(VolumeLevel.rule)")
            }
            return (bus, level)
        }
    }

    func run() throws {
        let source = try CLISession.Source(file: session, presets: presets)
        let compileOptions = try mix.options()
        var options = LivePlayer.Options(device: device, configuration: PCMConfiguration(
            sampleRate: sampleRate, channelCount: 2, periodFrames: period, periodCount: periods))
        options.realtime = !noRealtime
        options.startTime = from.flatMap(SessionTime.parse) ?? 0
        if device == SilentClockBackend.device { playSilently(&options, source: source, reason: "-D none") }
        let player: LivePlayer
        let decoding: SoundDecoding
        do {
            (player, decoding) = try open(options, source: source, compileOptions: compileOptions)
        } catch let error as AudioDeviceError {
            // No sound device at all: the session on the system clock, with everything but the sound.
            guard device == "default" && !ALSADevices.hasSoundDevice() else {
                CLIOutput.error("\(error)")
                throw ExitCode.failure
            }
            playSilently(&options, source: source, reason: "no sound device (no sound card, no sound server)")
            (player, decoding) = try open(options, source: source, compileOptions: compileOptions)
        }
        for (bus, level) in try volumeSettings() {
            do { try player.setVolume(level, bus: bus) } catch {
                CLIOutput.error("--volume: \(error)")
                throw ExitCode(64)
            }
        }
        _ = player.poll()   // the volumes set before the start are not news
        let view = PlayView(mode: json ? .json : quiet ? .quiet : (isatty(STDOUT_FILENO) == 1 ? .terminal : .lines),
                            title: player.session.title ?? source.name)
        var sessionRumble: SessionRumble?
        if let rumble {
            do { sessionRumble = try SessionRumble(device: rumble, player: player) } catch {
                CLIOutput.error("\(error)")
                throw ExitCode.failure
            }
        }
        let control = try openControl(player: player, title: view.title)
        var session = PlaySession(player: player, view: view, rumble: sessionRumble, decoding: decoding, control: control)
        session.timer = stopAfter.flatMap(SessionTime.parse).map { SleepTimer(stopAfter: $0, fadeOut: fadeOut.flatMap(SessionTime.parse) ?? 0) }
        session.hooks = onMark.map { MarkHooks(command: $0, session: view.title, outputToStandardError: json) }
        session.then = then
        let status = try session.run()
        control?.close()
        throw ExitCode(status)
    }
}

extension Play {
    /// The device first, then the session at the rate it plays (`LivePlayer.open`).
    /// Playback starts once the first second of every sound is decoded; the rest decodes
    /// while it plays.
    func open(_ options: LivePlayer.Options, source: CLISession.Source, compileOptions: SessionCompileOptions) throws
        -> (LivePlayer, SoundDecoding)
    {
        let (player, loaded) = try LivePlayer.open(options: options) { rate, _ in
            try CLISession.load(source, sampleRate: rate, maxBlockFrames: period, options: compileOptions, progressive: true)
        }
        return (player, loaded.decoding)
    }

    /// Switches `options` to the system clock with no sound, saying so in one line.
    func playSilently(_ options: inout LivePlayer.Options, source: CLISession.Source, reason: String) {
        options.device = SilentClockBackend.device
        options.backend = SilentClockBackend()
        if !quiet {
            CLIOutput.note("\(reason): playing silently on the system clock; to hear it, render it: cabin render \(source.commandLine) -o \(source.suggestedOutput)")
        }
    }

    /// The control socket: `--ipc PATH`, none with `--ipc off`, else the default place when
    /// `$XDG_RUNTIME_DIR` is set. A default socket another session holds is a warning (this
    /// one plays without); a path given that cannot be used is an error.
    func openControl(player: LivePlayer, title: String) throws -> ControlServer? {
        if ipc == "off" { return nil }
        do {
            guard let path = try ipc ?? ControlServer.defaultPath() else { return nil }
            return try ControlServer(path: path, player: player, title: title) { PlayEventJSON.line($0, title: title) }
        } catch {
            if ipc == nil {
                CLIOutput.warning("no control socket: \(error) (give another with --ipc PATH)")
                return nil
            }
            CLIOutput.error("--ipc: \(error)")
            throw ExitCode.failure
        }
    }
}
