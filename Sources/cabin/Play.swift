import ArgumentParser
import CabinIO
import CabinPlayback
import CabinSession
import Glibc

/// `cabin play SESSION.json`: a session live on an ALSA device.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a session live through ALSA, with a status line and keyboard control.",
        discussion: """
            Keys while playing: space pulls over (fades out and pauses the clock) and resumes, ←/→ seek 30 s, +/− change the speed parameter, q or Ctrl-C fade out and quit (a second Ctrl-C quits at once).

            When stdout is a terminal a status line is redrawn in place; otherwise one plain line is printed per event. --json prints events (start, mark, xrun, device error, end) as JSON lines for scripts.

            With no session and no --preset, plays the default preset: a 25-minute drive.

            Examples:
              cabin play
              cabin play --preset drive --minutes 50 --vehicle v8 --destination Yosemite
              cabin play --preset pomodoro --ambient ambient/rain
              cabin play drive.json
              cabin play drive.json -D pulse --period 512
              cabin play drive.json --from 24m50s
              cabin play drive.json --json | jq -c 'select(.event == "mark")'
            """)

    @Argument(help: "The session document (JSON); or use --preset.")
    var session: String?

    @OptionGroup(title: "Presets") var presets: PresetArguments

    @OptionGroup var mix: MixArguments

    @Option(name: [.customShort("D"), .long], help: "ALSA device: default, pulse, hw:0,0, plughw:…, jack (see 'cabin devices').")
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

    func validate() throws {
        guard period >= 16, period <= 8192, period & (period - 1) == 0 else {
            throw ValidationError("--period must be a power of two between 16 and 8192 frames, not \(period)")
        }
        guard (2...8).contains(periods) else { throw ValidationError("--periods must be 2…8, not \(periods)") }
        guard (8000...192_000).contains(sampleRate) else { throw ValidationError("--sample-rate must be 8000…192000 Hz") }
        if quiet && json { throw ValidationError("--quiet and --json cannot be used together") }
        if let from { try CLIInput.validateTime(from, option: "--from") }
        try presets.validateUsage(hasSession: session != nil)
    }

    func run() throws {
        let source = try CLISession.Source(file: session, presets: presets)
        let compileOptions = try mix.options()
        var options = LivePlayer.Options(device: device, configuration: PCMConfiguration(
            sampleRate: sampleRate, channelCount: 2, periodFrames: period, periodCount: periods))
        options.realtime = !noRealtime
        options.startTime = from.flatMap(SessionTime.parse) ?? 0
        let player: LivePlayer
        let decoding: SoundDecoding
        do {
            // The device first, then the session at the rate it plays (LivePlayer.open).
            // Playback starts once the first second of every sound is decoded; the rest
            // decodes while it plays.
            let loaded: SessionLoader.Loaded
            (player, loaded) = try LivePlayer.open(options: options) { rate, _ in
                try CLISession.load(source, sampleRate: rate, maxBlockFrames: period, options: compileOptions,
                                   progressive: true)
            }
            decoding = loaded.decoding
        } catch let error as AudioDeviceError {
            if device == "default" && !ALSADevices.hasSoundDevice() {
                CLIOutput.error("no sound device to play on (no sound card, no sound server); render it instead: cabin render \(source.commandLine) -o \(source.suggestedOutput)")
            } else {
                CLIOutput.error("\(error)")
            }
            throw ExitCode.failure
        }
        let view = PlayView(mode: json ? .json : quiet ? .quiet : (isatty(STDOUT_FILENO) == 1 ? .terminal : .lines),
                            title: player.session.title ?? source.name)
        var sessionRumble: SessionRumble?
        if let rumble {
            do { sessionRumble = try SessionRumble(device: rumble, player: player) } catch {
                CLIOutput.error("\(error)")
                throw ExitCode.failure
            }
        }
        let status = try PlaySession(player: player, view: view, rumble: sessionRumble, decoding: decoding).run()
        throw ExitCode(status)
    }
}
