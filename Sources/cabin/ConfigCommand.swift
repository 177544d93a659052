import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinPlayback
import FoundationEssentials

/// `cabin config`: the settings in effect and where each came from.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings in effect and where each comes from (default, config file, environment, option).",
        discussion: """
            Settings come from Cabin's defaults, then the config file ($XDG_CONFIG_HOME/cabin/config.toml, by default ~/.config/cabin/config.toml), then the environment (CABIN_DEVICE, CABIN_PERIOD, CABIN_PERIODS, CABIN_PRESET, CABIN_RUMBLE, CABIN_VOLUME, CABIN_HAPTIC_STRENGTH), then the command line; each overrides the one before. The options here are cabin play's, to see what a command line would give. The volumes a session starts at are the last session's (the state file, $XDG_STATE_HOME/cabin/state.json) unless volume.remember is false or --volume is given.

            Example config.toml:
              [play]
              device = "pulse"
              period = 512
              preset = "pomodoro"
              [volume]
              master = "80%"
              radio = "-6dB"
              [presets.pomodoro]
              focus = "50m"
              warn = "2m"
              [stations]
              kexp = "https://kexp.example/kexp160.mp3"
            """)

    @OptionGroup var output: DeviceArguments

    @OptionGroup var options: ConfigOptions

    @Flag(help: "Print the settings as JSON.")
    var json = false

    /// One setting as printed: its key, its value (JSON) and as shown, and where it came from.
    typealias Row = (key: String, value: ConfigEntry.Value, shown: String, origin: ConfigOrigin)

    func run() throws {
        let (settings, file) = try CLIConfig.settings(options: try options.layer(device: output.device))
        let state = CLIConfig.readState().state
        let volumes = settings.startingVolumes(remembered: state?.levels, statePath: CLIConfig.statePath)
        let rows = ConfigCommand.rows(settings, volumes: volumes)
        let fileExists = !file.path.isEmpty && FileManagerCheck.exists(file.path)
        if json {
            let entries = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, ConfigEntry(value: $0.value, origin: $0.origin)) })
            try CLIOutput.json(ConfigReport(configFile: file.path, configFileExists: fileExists, stateFile: CLIConfig.statePath,
                                            settings: entries, lastSession: state?.session))
            return
        }
        print("config file: \(file.path)" + (fileExists ? "" : " (none: the defaults apply)"))
        print("state file:  \(CLIConfig.statePath)" + (state == nil ? " (none yet)" : ""))
        if let session = state?.session { print("last session: " + ConfigCommand.describe(session)) }
        print()
        let keyWidth = rows.map(\.key.count).max() ?? 0
        let valueWidth = min(40, rows.map(\.shown.count).max() ?? 0)
        for row in rows {
            print(row.key.padding(keyWidth) + "  " + row.shown.padding(valueWidth) + "  " + row.origin.description)
        }
    }

    /// Every setting in effect, in the order printed: play's, the haptic strength, the
    /// volumes (master first), the preset options, the stations.
    static func rows(_ settings: CabinSettings, volumes: [String: Setting<Decibels>]) -> [Row] {
        var rows: [Row] = [
            ("play.device", .text(settings.device.value), settings.device.value, settings.device.origin),
            ("play.latency", .text(settings.latency.value.rawValue), settings.latency.value.rawValue, settings.latency.origin),
            // Unset, the period and periods follow play.latency.
            ("play.period", settings.period.origin == .builtIn ? .none : .integer(settings.period.value),
             settings.period.origin == .builtIn ? "(by play.latency)" : "\(settings.period.value)", settings.period.origin),
            ("play.periods", settings.periods.origin == .builtIn ? .none : .integer(settings.periods.value),
             settings.periods.origin == .builtIn ? "(by play.latency)" : "\(settings.periods.value)", settings.periods.origin),
            ("play.preset", .text(settings.preset.value), settings.preset.value, settings.preset.origin),
            ("play.rumble", settings.rumble.value.map { .text($0) } ?? .none, settings.rumble.value ?? "(none)", settings.rumble.origin),
            ("haptics.strength", .text(settings.hapticStrength.value.rawValue), settings.hapticStrength.value.rawValue,
             settings.hapticStrength.origin),
            ("volume.remember", .boolean(settings.rememberVolumes.value), "\(settings.rememberVolumes.value)", settings.rememberVolumes.origin),
        ]
        if volumes["master"] == nil { rows.append(("volume.master", .number(0), ConfigCommand.volume(0), .builtIn)) }
        for (bus, level) in volumes.sorted(by: { ($0.key == "master" ? "" : $0.key) < ($1.key == "master" ? "" : $1.key) }) {
            rows.append(("volume.\(bus)", level.value.value.isFinite ? .number(level.value.value) : .none,
                         ConfigCommand.volume(level.value), level.origin))
        }
        for (preset, values) in settings.presetOptions.sorted(by: { $0.key < $1.key }) {
            for (option, setting) in values.sorted(by: { $0.key < $1.key }) {
                rows.append(("presets.\(preset).\(option)", .text(setting.value), setting.value, setting.origin))
            }
        }
        for (name, setting) in settings.stations.sorted(by: { $0.key < $1.key }) {
            rows.append(("stations.\(name)", .text(setting.value), setting.value, setting.origin))
        }
        return rows
    }

    /// `-6.0 dB (80 %)`.
    static func volume(_ level: Decibels) -> String {
        level.value.isFinite ? String(cFormat: "%+.1f dB (%.0f %%)", level.value, VolumeLevel.percent(level)) : "silent (0 %)"
    }

    /// `preset pomodoro --focus 50m, stopped at 12:34 of 2:05:08` for the last session.
    static func describe(_ s: PlayState.Session) -> String {
        let what = s.file.map { "\($0)" } ?? (["preset \(s.preset ?? "")"] + (s.options ?? [:]).sorted { $0.key < $1.key }.map { "--\($0.key) \($0.value)" }).joined(separator: " ")
        let clock = { (t: Double) in String(CLIOutput.clock(t).dropLast(4)) }
        return "\(what) (\"\(s.title)\"), " + (s.ended ? "played to its end" : "stopped at \(clock(s.position)) of \(clock(s.duration))")
    }
}

/// The options `cabin play` and `cabin config` share for the settings the config file has
/// (`-D` is `DeviceArguments`, shared by every command that plays): declared once, with
/// one help text each, so `cabin config` takes exactly what `cabin play` does.
struct ConfigOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How much audio is queued on the device: auto (opens low with haptics or a rumble beside the sound, else relaxed, and goes low while something needs it: 10 s after a key or a 'cabin ctl' command, the last 3 s before --to or a loop's turn), low (256×3 frames, 16 ms) or relaxed (3072×2, 128 ms: a bed left on wakes the CPU 16 times a second, not 188; keys still answer within 150 ms). Default auto, or the config's play.latency. --period and --periods win over it.",
                               valueName: "auto|low|relaxed"))
    var latency: String?

    @Option(help: "Frames per period (a power of two; 16–8192; default: by --latency, 256 low, 3072 relaxed, or the config's play.period).")
    var period: Int?

    @Option(help: "Periods per buffer (2–8; default: by --latency, 3 low, 2 relaxed, or the config's play.periods).")
    var periods: Int?

    @Option(help: ArgumentHelp("Volume: of the master (80, 80%: mpv's percent; -6dB), or of a bus (radio=-6dB). Repeatable. Default: the volumes the last session ended at (the config's volume.remember), else the config's.", valueName: "[bus=]level"))
    var volume: [String] = []

    @Option(help: "Play the session's haptics (cues, haptic layers, live events) on this rumble device (/dev/input/eventN; see 'cabin devices'); off: none, whatever the config says.")
    var rumble: String?

    /// These options (with `-D` and `--strength`, which only `play` has) as a settings
    /// layer, checked as the file's values are.
    func layer(device: String?, strength: HapticStrength? = nil) throws -> ConfigLayer {
        try CLIConfig.optionsLayer(device: device, latency: latency, period: period, periods: periods, rumble: rumble, strength: strength,
                                   volume: volume)
    }
}

/// One setting in `cabin config --json`: `{"value": 512, "source": "file", "file": "…", "line": 3}`.
struct ConfigEntry: Encodable {
    enum Value: Encodable {
        case text(String), integer(Int), number(Double), boolean(Bool), none
        func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .text(let s): try c.encode(s)
            case .integer(let i): try c.encode(i)
            case .number(let d): try c.encode(d)
            case .boolean(let b): try c.encode(b)
            case .none: try c.encodeNil()
            }
        }
    }
    var value: Value
    var source: String
    var file: String?
    var line: Int?
    var name: String?

    init(value: Value, origin: ConfigOrigin) {
        self.value = value
        source = origin.kind
        switch origin {
        case .builtIn: break
        case .file(let path, let line): (file, self.line) = (path, line)
        case .environment(let variable): name = variable
        case .state(let path): file = path
        case .option(let option): name = option
        }
    }

    enum CodingKeys: String, CodingKey { case value, source, file, line, name }
    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(value, forKey: .value)
        try c.encode(source, forKey: .source)
        try c.encodeIfPresent(file, forKey: .file)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encodeIfPresent(name, forKey: .name)
    }
}

struct ConfigReport: Encodable {
    var configFile: String
    var configFileExists: Bool
    var stateFile: String
    var settings: [String: ConfigEntry]
    var lastSession: PlayState.Session?
}

enum FileManagerCheck {
    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}

extension String {
    /// Padded with spaces to `width` characters.
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
