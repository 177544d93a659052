import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinOutput
import CabinPlayback
import CabinRemote
import CabinSession
import FoundationEssentials
import Glibc

/// `cabin play SESSION.json`: a session live on a sound device (PipeWire or ALSA), or on the
/// system clock with none.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a session live through PipeWire or ALSA (or silently on the system clock), with a status line and keyboard control.",
        discussion: """
            Keys while playing: space pulls over (fades out and pauses the clock) and resumes, ←/→ seek 30 s, +/− change the speed parameter, 9/0 (or / and *) volume down/up by 2 dB, m mutes, n/p (or >/<) the radio's next/previous track (a playlist), l leaves focus (the speed-bump warning, the speed falls) and r returns to it (sessions with "focus", like the drive), q or Ctrl-C fade out and quit (a second Ctrl-C quits at once).

            Control from outside: a session listens on a socket ($XDG_RUNTIME_DIR/cabin/control, or --ipc PATH) for 'cabin ctl' and for newline-delimited JSON in mpv's style ({"command": ["pause"], "request_id": 7}). On a desktop it is also a media player on the session bus (MPRIS: org.mpris.MediaPlayer2.cabin), for the media keys, the sound menu and 'playerctl -p cabin pause'; --no-mpris turns that off.

            With no sound device (-D none, or no sound card and no sound server), the session runs on the system clock with everything but the sound.

            When stdout is a terminal a status line is redrawn in place; otherwise one plain line is printed per event. --json prints events (start, mark, xrun, device error, end; radio-buffering, radio-playing, radio-title, radio-reconnect, radio-error for live streams; radio-title and radio-skipped for playlists) as JSON lines for scripts.

            With no session and no --preset, plays the default preset: a 25-minute drive.

            Examples:
              cabin play
              cabin play --preset drive --minutes 50 --vehicle v8 --destination Yosemite
              cabin play --preset pomodoro --ambient ambient/rain
              cabin play --radio https://radio.example/live.opus
              cabin play --radio ~/Music/drive.m3u
              cabin play drive.json
              cabin play drive.json -D pulse --period 512
              cabin play drive.json --from 24m50s
              cabin play drive.json --json | jq -c 'select(.event == "mark")'
              cabin play --volume 60% --volume radio=-6dB
              cabin play --preset ambient --minutes 480 --stop-after 45m --fade-out 60s
              cabin play --preset pomodoro --on-mark 'notify-send "Cabin: $CABIN_MARK_TITLE"'
              cabin play --ipc /tmp/cabin.sock    then: cabin ctl --ipc /tmp/cabin.sock pause
              cabin play --resume

            Defaults come from the config file ($XDG_CONFIG_HOME/cabin/config.toml) and the environment (CABIN_DEVICE, CABIN_VOLUME …): see 'cabin config'. The last session, its position and the volumes it ended at are kept in $XDG_STATE_HOME/cabin/state.json.
            """)

    @Argument(help: "The session document (JSON), or a sound file (WAV, FLAC, Ogg Opus/Vorbis, MP3, AIFF) to play as a one-layer session; or use --preset.")
    var session: String?

    @OptionGroup(title: "Presets") var presets: PresetArguments

    @OptionGroup var mix: MixArguments

    @OptionGroup(title: "Sound device") var output: DeviceArguments

    @OptionGroup(title: "Haptics device") var haptics: HapticsDeviceArguments

    /// `--latency`, `--period`, `--periods`, `--volume` and `--rumble`: declared once, shared with `cabin config`.
    @OptionGroup var config: ConfigOptions
    /// The sound device given (`-D`); unset, the config's play.device, CABIN_DEVICE or
    /// `default`. `none` plays on the system clock with no sound.
    var device: String? { output.device }

    @Option(name: .long, help: "Sample rate in Hz.")
    var sampleRate = 48000

    @Option(help: "Start here on the session's timeline (e.g. 24m50s), to resume or to hear one part.")
    var from: String?

    @Option(help: ArgumentHelp("Stop here on the session's timeline (e.g. 26m), fading out as q does.", valueName: "time"))
    var to: String?

    @Option(help: ArgumentHelp("Play this long from --from (e.g. 90s): --to is --from plus --length.", valueName: "time"))
    var length: String?

    @Flag(help: "Play the range (--from … --to, or the whole session) again and again until stopped; a sound file loops seamlessly.")
    var loop = false

    @Flag(help: "No status line or event lines (errors only).")
    var quiet = false

    @Flag(help: "Print events as JSON lines.")
    var json = false

    @Flag(help: "Do not ask for real-time (SCHED_FIFO) scheduling.")
    var noRealtime = false

    @Option(help: "Haptic strength of the session's rumble and haptic track: off, light (intensity × 0.4), medium (× 0.7) or strong (× 1, as designed). Default: CABIN_HAPTIC_STRENGTH, else the config file's haptics.strength, else the document's hapticStrength.")
    var strength: HapticStrength?

    @Flag(help: "Continue the last session (its document, or its preset with its options) where it stopped.")
    var resume = false

    @Option(help: ArgumentHelp("A sleep timer: end the session this long after it starts (e.g. 45m; pauses count).", valueName: "time"))
    var stopAfter: String?

    @Option(help: ArgumentHelp("With --stop-after: fade out over this long before the end (e.g. 60s).", valueName: "time"))
    var fadeOut: String?

    @Option(help: ArgumentHelp("After the session ends by itself, by --stop-after or 'cabin ctl stop': quit (the default), suspend (systemctl suspend) or run this shell command.", valueName: "quit|suspend|command"))
    var then: String?

    @Option(help: ArgumentHelp("Run this shell command at each mark, with CABIN_MARK (its name), CABIN_MARK_TITLE (its title), CABIN_TIME and CABIN_SESSION set.", valueName: "command"))
    var onMark: String?

    @Option(help: ArgumentHelp("The control socket ('cabin ctl'): a path, or off (default: $XDG_RUNTIME_DIR/cabin/control).", valueName: "path"))
    var ipc: String?

    @Flag(help: "Do not offer the session to the desktop's media controls (MPRIS on the session bus; without a session bus there is none anyway).")
    var noMpris = false

    @Flag(help: "Leave the state file alone: no remembered volumes or resume point read, nothing written (for an app that spawns cabin play: what it sets is not remembered for the user's next session).")
    var noState = false

    @Flag(help: "Do not read the config file: the built-in defaults, the environment (CABIN_*) and these options only.")
    var noConfig = false

    @Flag(help: "End the session (fading out as q does) when the process that started cabin play ends, however it ends: for an app that spawns a player.")
    var exitWithParent = false

    func validate() throws {
        if let period = config.period, !(period >= 16 && period <= 8192 && period & (period - 1) == 0) {
            throw ValidationError("--period must be a power of two between 16 and 8192 frames, not \(period)")
        }
        if let periods = config.periods, !(2...8).contains(periods) { throw ValidationError("--periods must be 2…8, not \(periods)") }
        guard (8000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000 Hz") }
        if quiet && json { throw ValidationError("--quiet and --json cannot be used together") }
        if let from { try CLIInput.validateTime(from, option: "--from") }
        if let to { try CLIInput.validateTime(to, option: "--to") }
        if let length { try CLIInput.validateTime(length, option: "--length") }
        if to != nil && length != nil { throw ValidationError("give --to or --length, not both") }
        if let end = range.end, end <= range.start {
            throw ValidationError(to != nil ? "--to '\(to!)' must be after --from '\(from ?? "0")'" : "--length must be more than 0")
        }
        try presets.validateUsage(hasSession: session != nil)
        if resume {
            if session != nil || presets.preset != nil || !presets.given.isEmpty {
                throw ValidationError("--resume continues the last session: give no session file, --preset or preset options with it")
            }
            if from != nil { throw ValidationError("--resume starts where the last session stopped: not with --from") }
            if noState { throw ValidationError("--resume reads the state file, which --no-state leaves alone: not both") }
        }
        _ = try configLayer()
        if let stopAfter { try CLIInput.validateTime(stopAfter, option: "--stop-after") }
        if let fadeOut {
            try CLIInput.validateTime(fadeOut, option: "--fade-out")
            guard let stopAfter else { throw ValidationError("--fade-out goes with --stop-after (a sleep timer that fades out)") }
            if (SessionTime.parse(fadeOut) ?? 0) > (SessionTime.parse(stopAfter) ?? 0) {
                throw ValidationError("--fade-out '\(fadeOut)' is longer than --stop-after '\(stopAfter)'")
            }
        }
    }

    /// `--from`, `--to`/`--length` and `--loop` (times already checked).
    var range: PlaybackRange {
        let start = from.flatMap(SessionTime.parse) ?? 0
        let end = to.flatMap(SessionTime.parse) ?? length.flatMap(SessionTime.parse).map { start + $0 }
        return PlaybackRange(start: start, end: end, loops: loop)
    }

    func run() throws {
        // Watched from the first moment: a parent that dies while the session loads counts.
        let parent = exitWithParent ? ParentProcess() : nil
        let (settings, _) = try CLIConfig.settings(options: try configLayer(), readingFile: !noConfig)
        CLIConfig.noteMissingHome(keepsState: !noState)
        let (state, stateProblem) = noState ? (nil, nil) : CLIConfig.readState(warn: !resume)
        let start = try chooseSession(settings, state: state, stateProblem: stateProblem)
        var compileOptions = try start.mix.options()
        if let strength = settings.hapticStrengthOverride { compileOptions.hapticStrength = strength }
        let options = playerOptions(settings, range: start.range, startTime: start.time, compileOptions: compileOptions)
        let player: LivePlayer, decoding: SoundDecoding, live: Bool
        do {
            // With no sound device at all, "default" plays on the system clock with everything
            // but the sound (LivePlayer.open's fallback).
            (player, decoding, live) = try Play.open(options, source: start.source, compileOptions: compileOptions)
        } catch let error as AudioDeviceError {
            CLIOutput.error(error)
            throw ExitCode.failure
        }
        // Said once nothing more can reject the session (its volumes, its control socket).
        let silence = player.options.silentReason.map { silenceNote(player.options, source: start.source, reason: $0, live: live) }
        let (volumes, carried) = try setVolumes(settings, remembered: state, player: player)
        // The volumes set before the start are not news; the radio's first events are.
        let early = player.poll().filter { if case .radio = $0 { true } else { false } }
        let view = PlayView(mode: json ? .json : quiet ? .quiet : (isatty(STDOUT_FILENO) == 1 ? .terminal : .lines),
                            title: player.session.title ?? start.source.name)
        if let line = Play.volumeLine(volumes, player: player), view.mode == .lines || view.mode == .terminal { view.note(line) }
        if resume, view.mode == .lines || view.mode == .terminal {
            view.note("resuming \"\(view.title.terminalSafe)\" at \(CLIOutput.clock(start.time).dropLast(4))")
        }
        let rumble = try openRumble(settings, player: player)
        try play(player, view: view, rumble: rumble, decoding: decoding, source: start.source, mix: start.mix, carried: carried,
                 range: start.range, early: early, parent: parent, silence: silence)
    }

    /// What plays and from where: the session named (the library resolves it:
    /// `SessionSource`), or the last one (`--resume`, with its loudness and seed unless
    /// given); the range; and the time on the timeline it starts at.
    func chooseSession(_ settings: CabinSettings, state: PlayState?, stateProblem: String?) throws
        -> (source: SessionSource, mix: MixArguments, range: PlaybackRange, time: Double)
    {
        var mix = self.mix
        if resume {
            let resumed = try resumedSession(state, problem: stateProblem)
            let source = try CLISession.source(resuming: resumed, settings: settings)
            if mix.loudness == nil { mix.loudness = resumed.loudness }
            if mix.seed == nil { mix.seed = resumed.seed }
            return (source, mix, range, resumed.position)
        }
        // A sound file with --loop loops in the mixer (seamless), for --to or for the longest session.
        var range = self.range
        let source = try CLISession.source(file: session, presets: presets, settings: settings,
                                           loopFor: loop ? (range.end ?? SessionTime.maximum) : nil)
        if loop && source.document?.layers.first?.isLooping == true { range = PlaybackRange(start: range.start, end: range.end) }
        return (source, mix, range, range.start)
    }

    /// The player's device, latency and start. Haptics on a device and a rumble follow the
    /// sound closely: a small buffer from the start. Everything else (a bed left on for
    /// hours) opens relaxed, waking the CPU as rarely as the key response allows; with
    /// `--latency auto` the player goes low while something needs it (a key or `cabin ctl`,
    /// a range's end near: `LatencyNeed`) and back.
    func playerOptions(_ settings: CabinSettings, range: PlaybackRange, startTime: Double, compileOptions: SessionCompileOptions)
        -> LivePlayer.Options
    {
        let rumbleOn = settings.rumble.value.map { $0 != "off" } ?? false
        var options = Play.deviceOptions(settings, sampleRate: sampleRate, hapticsDevice: haptics.hapticsDevice,
                                         needsLowLatency: haptics.hapticsDevice != nil || rumbleOn)
        options.realtime = !noRealtime
        options.startTime = startTime
        options.hapticAudio = compileOptions.hapticAudio
        return options
    }

    /// The device (the settings' play.device: `-D`, the config, CABIN_DEVICE or `default`;
    /// `none` plays on the system clock, or on a haptics device's clock when there is one)
    /// and its buffer (the settings' latency or period), as `cabin play` opens them; `cabin
    /// studio` plays its session the same way.
    static func deviceOptions(_ settings: CabinSettings, sampleRate: Int, hapticsDevice: String? = nil,
                              needsLowLatency: Bool) -> LivePlayer.Options {
        let device = settings.device.value
        let shape = settings.outputShape(needsLowLatency: needsLowLatency)
        let configuration = shape.latency.map { $0.configuration(sampleRate: sampleRate) }
            ?? OutputConfiguration(sampleRate: sampleRate, channelCount: 2, periodFrames: shape.periodFrames, periodCount: shape.periodCount)
        var options = LivePlayer.Options(device: device, configuration: configuration)
        options.automaticLatency = shape.latency != nil && settings.latency.value == .auto
        options.hapticsDevice = hapticsDevice
        if OutputRegistry.standard.resolve(device).entry.scheme == SilentClockBackend.device { options.playSilently(because: "-D none") }
        return options
    }

    /// Sets the volumes the session starts at (`--volume`, the last session's, the
    /// config's); returns them, and the remembered ones of buses this session lacks (kept
    /// for the next). A bus given by --volume that the session lacks is one line (exit 64).
    func setVolumes(_ settings: CabinSettings, remembered state: PlayState?, player: LivePlayer) throws
        -> (volumes: [String: Setting<Decibels>], carried: [String: Decibels])
    {
        let volumes = settings.startingVolumes(remembered: state?.levels, statePath: CLIConfig.statePath)
        var carried: [String: Decibels] = [:]
        for (bus, level) in volumes.sorted(by: { $0.key < $1.key }) {
            do { try player.setVolume(level.value, bus: bus == "master" ? nil : bus) } catch {
                // A bus this session lacks: an error when asked for here, else not this session's.
                if case .state = level.origin { carried[bus] = level.value }
                guard case .option = level.origin else { continue }
                CLIOutput.error("--volume: \(error)")
                throw ExitCode(64)
            }
        }
        return (volumes, carried)
    }

    /// The rumble device (`--rumble`, the config's play.rumble): one the config names that
    /// cannot be opened (unplugged) is a warning and the session plays without; one given
    /// here is an error.
    func openRumble(_ settings: CabinSettings, player: LivePlayer) throws -> SessionRumble? {
        guard let rumble = settings.rumble.value, rumble != "off" else { return nil }
        do { return try SessionRumble(device: rumble, player: player) } catch {
            guard case .option = settings.rumble.origin else {
                CLIOutput.warning("rumble (\(settings.rumble.origin.description)): \(CLIOutput.commandLine(error)); playing without")
                return nil
            }
            CLIOutput.error(error)
            throw ExitCode.failure
        }
    }

    /// Runs the control loop with the timers, hooks, socket and state file; exits with its status.
    func play(_ player: LivePlayer, view: PlayView, rumble: SessionRumble?, decoding: SoundDecoding,
              source: SessionSource, mix: MixArguments, carried: [String: Decibels], range: PlaybackRange, early: [PlayerEvent],
              parent: ParentProcess?, silence: String?) throws {
        let control = try Play.openControl(ipc: ipc, player: player, title: view.title)
        if let silence, !quiet { CLIOutput.note(silence) }
        // MPRIS when there is a session bus; without one, nothing to say.
        let mpris = noMpris ? nil : try? MPRISServer(player: player, title: view.title)
        var session = PlaySession(player: player, view: view, rumble: rumble, decoding: decoding, control: control)
        session.surfaces = [control as (any ControlSurface)?, mpris].compactMap { $0 }
        session.timer = stopAfter.flatMap(SessionTime.parse).map { SleepTimer(stopAfter: $0, fadeOut: fadeOut.flatMap(SessionTime.parse) ?? 0) }
        session.hooks = onMark.map { MarkHooks(command: $0, session: view.title, outputToStandardError: json) }
        session.then = then
        session.state = noState ? nil : PlayStateKeeper(session: stateRecord(source, mix: mix, title: view.title, duration: player.status.duration),
                                                        carried: carried)
        session.parent = parent
        session.range = range
        session.early = early
        let status = try session.run()
        for surface in session.surfaces { surface.close() }
        throw ExitCode(status)
    }

    /// The options as a settings layer, over the config file's and the environment's.
    func configLayer() throws -> ConfigLayer {
        try config.layer(device: device, strength: strength)
    }

    /// The last session from the state file, or a one-line error (exit 1) when there is none to resume.
    func resumedSession(_ state: PlayState?, problem: String? = nil) throws -> PlayState.Session {
        if let problem {
            CLIOutput.error("nothing to resume: the state file was not used: \(problem)")
            throw ExitCode.failure
        }
        guard let session = state?.session else {
            CLIOutput.error("nothing to resume: no session has played yet (\(CLIConfig.statePath))")
            throw ExitCode.failure
        }
        guard !session.ended else {
            CLIOutput.error("nothing to resume: \"\(session.title)\" played to its end (play it again without --resume)")
            throw ExitCode.failure
        }
        return session
    }

    /// What the state file keeps of this session (its position is filled in as it plays):
    /// `mix` is the loudness and seed it plays with (a resumed session's own, unless given
    /// again), so resuming a resumed session plays the same sound.
    func stateRecord(_ source: SessionSource, mix: MixArguments, title: String, duration: Double) -> PlayState.Session {
        let file = source.file.map { path -> String in
            if path.hasPrefix("/") { return path }
            return SessionReferences.realPath(path) ?? FileManager.default.currentDirectoryPath + "/" + path
        }
        return PlayState.Session(file: file, preset: file == nil ? source.preset : nil, options: file == nil ? source.options : nil,
                                 loudness: mix.loudness, seed: mix.seed, title: title, position: 0, duration: duration, ended: false)
    }

    /// `volume -6.0 dB, radio -6.0 dB (remembered from the last session; --volume sets another)`,
    /// or nil when every volume starts at 0 dB.
    static func volumeLine(_ volumes: [String: Setting<Decibels>], player: LivePlayer) -> String? {
        let set = volumes.filter { $0.value.value.value != 0 && ($0.key == "master" || player.volume.buses[$0.key] != nil) }
        guard !set.isEmpty else { return nil }
        let levels = set.sorted { ($0.key == "master" ? "" : $0.key) < ($1.key == "master" ? "" : $1.key) }
            .map { ($0.key == "master" ? "" : "\($0.key) ") + ConfigCommand.volume($0.value.value) }.joined(separator: ", ")
        let origins = Set(set.values.map(\.origin.kind))
        let from = origins == ["state"] ? "remembered from the last session; --volume sets another"
            : origins == ["option"] ? "from --volume"
            : "from " + Set(set.values.map(\.origin.description)).sorted().joined(separator: ", ")
        return "volume \(levels) (\(from))"
    }
}

extension Play {
    /// The device first, then the session at the rate it plays (`LivePlayer.open`).
    /// Playback starts once the first second of every sound heard near the start is
    /// decoded; the rest decodes while it plays.
    /// Also whether the session plays a live stream.
    static func open(_ options: LivePlayer.Options, source: SessionSource, compileOptions: SessionCompileOptions) throws
        -> (LivePlayer, SoundDecoding, live: Bool)
    {
        do throws(LivePlayer.OpenError<any Error>) {
            let (player, loaded) = try LivePlayer.open(options: options) { rate, _ in
                try CLISession.load(source, sampleRate: rate, maxBlockFrames: options.configuration.periodFrames,
                                    options: compileOptions, progressive: true, startingAt: options.startTime)
            }
            return (player, loaded.decoding, !loaded.document.stations.isEmpty)
        } catch {
            switch error {   // what failed, as it was thrown (the caller says an AudioDeviceError its own way)
            case .device(let error): throw error
            case .load(let error): throw error
            }
        }
    }

    /// The line saying that the session plays on the system clock with no sound, printed
    /// once nothing can reject it any more (a session then rejected gets no hint to render
    /// it). A session with a live stream gets no render hint: `cabin render` refuses one.
    func silenceNote(_ options: LivePlayer.Options, source: SessionSource, reason: String, live: Bool) -> String {
        if let haptics = options.hapticsDevice { return "\(reason): playing silently on the haptics device's clock (\(haptics))" }
        return source.isSoundFile || live ? "\(reason): playing silently on the system clock"
            : "\(reason): playing silently on the system clock; to hear it, render it: cabin render \(source.commandLine) -o \(source.suggestedOutput)"
    }

    /// The control socket: `--ipc PATH`, none with `--ipc off`, else the default place when
    /// `$XDG_RUNTIME_DIR` is set. A default socket another session holds is a warning (this
    /// one plays without); a path given that cannot be used is an error.
    static func openControl(ipc: String?, player: LivePlayer, title: String) throws -> ControlServer? {
        if ipc == "off" { return nil }
        do {
            guard let path = try ipc ?? ControlServer.defaultPath() else { return nil }
            return try ControlServer(path: path, player: player, title: title) { $0.jsonLine(title: title) }
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
