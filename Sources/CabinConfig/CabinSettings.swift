import CabinAudio
import CabinHaptics
import CabinOutput
import CabinSession

/// The settings in effect: each value with where it came from. Made by ``merge(_:)`` from
/// layers (the file's, the environment's, the options'), later layers winning.
///
/// Thread: pure; any thread except the render thread.
public struct CabinSettings: Sendable {
    /// The ALSA device `cabin play` plays on (`play.device`, `CABIN_DEVICE`, `-D`).
    public var device = Setting("default", .builtIn)
    /// Frames per period (`play.period`, `CABIN_PERIOD`, `--period`).
    public var period = Setting(256, .builtIn)
    /// Periods per buffer (`play.periods`, `CABIN_PERIODS`, `--periods`).
    public var periods = Setting(3, .builtIn)
    /// How much audio is queued on the device (`play.latency`, `CABIN_LATENCY`, `--latency`):
    /// `auto` (low when something must follow the sound closely, relaxed otherwise), `low` or `relaxed`. A
    /// period or periods set anywhere win over it.
    public var latency = Setting(LatencySetting.auto, .builtIn)
    /// The preset `cabin play` plays with no session (`play.preset`, `CABIN_PRESET`).
    public var preset = Setting(SessionPresets.defaultName, .builtIn)
    /// The rumble device for the session's haptic cues (`play.rumble`, `CABIN_RUMBLE`, `--rumble`).
    public var rumble = Setting<String?>(nil, .builtIn)
    /// The strength haptics play at (`haptics.strength`, `CABIN_HAPTIC_STRENGTH`).
    public var hapticStrength = Setting(HapticStrength.strong, .builtIn)
    /// The listener's volumes: `master` and buses by name (`volume.master`, `volume.radio`,
    /// `CABIN_VOLUME`, `--volume`). A bus not named is at 0 dB.
    public var volumes: [String: Setting<Decibels>] = [:]
    /// Whether a session starts at the volumes the last one ended at when no `--volume`
    /// is given (`volume.remember`).
    public var rememberVolumes = Setting(true, .builtIn)
    /// Each preset's default options (`[presets.drive] destination = "Yosemite"`), below the
    /// command line's.
    public var presetOptions: [String: [String: Setting<String>]] = [:]
    /// Internet radio stations by name (`[stations] kexp = "https://…"`): a preset's
    /// `--radio NAME`.
    public var stations: [String: Setting<String>] = [:]

    /// The built-in defaults, every setting's origin `builtIn`.
    public init() {}

    /// The defaults with each layer on top, in order.
    public static func merge(_ layers: [ConfigLayer]) -> CabinSettings {
        var s = CabinSettings()
        for layer in layers {
            if let v = layer.device { s.device = v }
            if let v = layer.period { s.period = v }
            if let v = layer.periods { s.periods = v }
            if let v = layer.latency { s.latency = v }
            if let v = layer.preset { s.preset = v }
            if let v = layer.rumble { s.rumble = Setting(v.value, v.origin) }
            if let v = layer.hapticStrength { s.hapticStrength = v }
            if let v = layer.rememberVolumes { s.rememberVolumes = v }
            s.volumes.merge(layer.volumes) { _, new in new }
            for (preset, options) in layer.presetOptions { s.presetOptions[preset, default: [:]].merge(options) { _, new in new } }
            s.stations.merge(layer.stations) { _, new in new }
        }
        return s
    }

    /// The period and buffer `cabin play` opens its device with: the period and periods set
    /// (file, environment or option) if either is; else `latency`'s, where `auto` is low when
    /// something must follow the sound closely from the start (`needsLowLatency`: `cabin
    /// play` passes haptics on a device or a rumble) and relaxed for everything else, a bed
    /// left on for hours included (the player then follows what needs it while playing:
    /// `LivePlayer.Options.automaticLatency`).
    public func outputShape(needsLowLatency: Bool) -> (periodFrames: Int, periodCount: Int, latency: OutputLatency?) {
        if period.origin != .builtIn || periods.origin != .builtIn { return (period.value, periods.value, nil) }
        let chosen: OutputLatency = switch latency.value {
        case .low: .low
        case .relaxed: .relaxed
        case .auto: needsLowLatency ? .low : .relaxed
        }
        return (chosen.periodFrames, chosen.periodCount, chosen)
    }

    /// The volumes a session starts at: the remembered ones (what the last session ended
    /// at) when `volume.remember` is on and no volume was given as an option; otherwise the
    /// settings' (the file's, the environment's, the options').
    public func startingVolumes(remembered: [String: Decibels]?, statePath: String) -> [String: Setting<Decibels>] {
        let given = volumes.values.contains { if case .option = $0.origin { true } else { false } }
        guard !given, rememberVolumes.value, let remembered, !remembered.isEmpty else { return volumes }
        return remembered.mapValues { Setting($0, .state(path: statePath)) }
    }

    /// The strength a session's haptics play at instead of its document's `hapticStrength`:
    /// the user's when set (file, environment or option); nil leaves the document's.
    public var hapticStrengthOverride: HapticStrength? {
        hapticStrength.origin == .builtIn ? nil : hapticStrength.value
    }

    /// The options for preset `name`: the configured ones under those `given`, with a
    /// station name for `--radio` replaced by its URL.
    public func presetOptions(for name: String, given: [String: String]) -> [String: String] {
        var options = (presetOptions[name] ?? [:]).mapValues(\.value)
        options.merge(given) { _, new in new }
        if let radio = options["radio"], let station = stations[radio] { options["radio"] = station.value }
        return options
    }

    /// The preset a session without a file plays: `name` when given, else the configured
    /// default (`play.preset`, `CABIN_PRESET`); with its options, the configured ones under
    /// those `given` (`presetOptions(for:given:)`).
    public func presetChoice(named name: String?, given: [String: String]) -> (name: String, options: [String: String]) {
        let name = name ?? preset.value
        return (name, presetOptions(for: name, given: given))
    }

    /// The user's internet stations by name, to their URLs (`"sound": "station:NAME"`).
    public var stationURLs: [String: String] { stations.mapValues(\.value) }
}

/// `play.latency`: a device latency, or `auto` to let Cabin choose by what the session needs.
public enum LatencySetting: String, Sendable, CaseIterable {
    /// Opens low when something must follow the sound closely from the start (haptics on a
    /// device, a rumble), relaxed otherwise, and follows what needs it while playing.
    case auto
    /// `OutputLatency.low`: 256 × 3 frames at 48 kHz.
    case low
    /// `OutputLatency.relaxed`: 3,072 × 2 frames at 48 kHz.
    case relaxed
}

/// One source's settings (the file's, the environment's or the options'): only what it
/// sets, each with its origin.
public struct ConfigLayer: Sendable {
    /// `play.device`: the sound device's name (nil: not set here; likewise below).
    public var device: Setting<String>?
    /// `play.period`: frames per period, a power of two from 16 to 8192.
    public var period: Setting<Int>?
    /// `play.periods`: periods per buffer, 2…8.
    public var periods: Setting<Int>?
    /// `play.latency`.
    public var latency: Setting<LatencySetting>?
    /// `play.preset`: a preset's name.
    public var preset: Setting<String>?
    /// `play.rumble`: a rumble device's path, or `off`.
    public var rumble: Setting<String>?
    /// `haptics.strength`.
    public var hapticStrength: Setting<HapticStrength>?
    /// `volume.remember`.
    public var rememberVolumes: Setting<Bool>?
    /// `volume.BUS`: the listener's volumes by bus (`master` for the master); empty: none set.
    public var volumes: [String: Setting<Decibels>] = [:]
    /// `presets.NAME.OPTION`: option values by preset, then option, as text.
    public var presetOptions: [String: [String: Setting<String>]] = [:]
    /// `stations.NAME`: station URLs by name.
    public var stations: [String: Setting<String>] = [:]

    /// A layer that sets nothing.
    public init() {}

    /// The keys a config file may have, by table, for messages and suggestions.
    public static let keys: [String: [String]] = [
        "play": ["device", "latency", "period", "periods", "preset", "rumble"],
        "volume": ["master", "remember", "BUS"],
        "haptics": ["strength"],
        "presets": ["NAME"],
        "stations": ["NAME"],
    ]

    /// Sets the setting at `key` (`["play", "period"]`) from `value`, checking it. Returns
    /// the problem when the key is unknown (a warning) or the value is not allowed (an error).
    public mutating func set(_ key: [String], _ value: ConfigValue, origin: ConfigOrigin) -> (ConfigProblem.Severity, String)? {
        func text() -> String? { value.text }
        switch key.count == 2 ? key[0] : key.count == 3 ? key[0] : "" {
        case "play" where key.count == 2:
            switch key[1] {
            case "device":
                guard case .string(let text) = value, case let t = text.trimmingWhitespace(), !t.isEmpty,
                      !t.contains(where: { $0.isNewline }) else {
                    return (.error, "must be an ALSA device name (default, pulse, hw:0,0 …) or none, not \(value.shown)")
                }
                device = Setting(t, origin)
            case "period":
                guard let n = value.integer, n >= 16, n <= 8192, n & (n - 1) == 0 else {
                    return (.error, "must be a power of two from 16 to 8192 frames, not \(value.shown)")
                }
                period = Setting(n, origin)
            case "periods":
                guard let n = value.integer, (2...8).contains(n) else { return (.error, "must be a whole number from 2 to 8, not \(value.shown)") }
                periods = Setting(n, origin)
            case "latency":
                guard let t = value.text, let l = LatencySetting(rawValue: t) else {
                    return (.error, "must be auto, low or relaxed, not \(value.shown)")
                }
                latency = Setting(l, origin)
            case "preset":
                guard let t = value.text, SessionPresets.named(t) != nil else {
                    return (.error, "must be a preset: \(SessionPresets.all.map(\.name).joined(separator: ", ")); not \(value.shown)")
                }
                preset = Setting(t, origin)
            case "rumble":
                guard let t = value.text, t.hasPrefix("/") || t == "off" else {
                    return (.error, "must be a rumble device's path (/dev/input/eventN, see 'cabin devices') or off, not \(value.shown)")
                }
                rumble = Setting(t, origin)
            default:
                return (.warning, "unknown key" + ConfigLayer.suggestion(key[1], in: ConfigLayer.keys["play"]!) + "; ignored")
            }
        case "haptics" where key.count == 2:
            guard key[1] == "strength" else { return (.warning, "unknown key (haptics takes strength); ignored") }
            guard let t = value.text, let strength = HapticStrength(rawValue: t) else {
                return (.error, "must be off, light, medium or strong, not \(value.shown)")
            }
            hapticStrength = Setting(strength, origin)
        case "volume" where key.count == 2:
            if key[1] == "remember" {
                guard let b = value.boolean else { return (.error, "must be true or false, not \(value.shown)") }
                rememberVolumes = Setting(b, origin)
                return nil
            }
            guard ConfigLayer.isName(key[1]) else { return (.error, "'\(key[1])' is not a bus name (letters, digits and -)") }
            let level: Decibels?
            switch value {
            case .integer(let i): level = VolumeLevel.fromPercent(Double(i))
            case .number(let d): level = VolumeLevel.fromPercent(d)
            case .string(let s): level = VolumeLevel.parse(s)
            default: level = nil
            }
            guard let level else { return (.error, "\(VolumeLevel.rule), not \(value.shown)") }
            volumes[key[1]] = Setting(level, origin)
        case "presets" where key.count == 3:
            guard let preset = SessionPresets.named(key[1]) else {
                return (.warning, "no preset '\(key[1])'" + ConfigLayer.suggestion(key[1], in: SessionPresets.all.map(\.name)) + "; ignored")
            }
            guard preset.options.contains(where: { $0.name == key[2] }) else {
                let list = preset.options.map(\.name)
                return (.warning, "the \(preset.name) preset has no option '\(key[2])'"
                        + (list.isEmpty ? " (it takes none)" : ConfigLayer.suggestion(key[2], in: list)) + "; ignored")
            }
            guard let t = text() else { return (.error, "must be text or a number, not \(value.shown)") }
            presetOptions[key[1], default: [:]][key[2]] = Setting(t, origin)
        case "stations" where key.count == 2:
            guard ConfigLayer.isName(key[1]) else { return (.error, "'\(key[1])' is not a station name (letters, digits and -)") }
            guard let t = value.text, t.hasPrefix("http://") || t.hasPrefix("https://"), t.count > 8, !t.contains(" ") else {
                return (.error, "must be an http:// or https:// station URL, not \(value.shown)")
            }
            if ConfigLayer.builtInRadios.contains(key[1]) {
                return (.error, "'\(key[1])' is a built-in radio of the drive preset; name the station otherwise")
            }
            stations[key[1]] = Setting(t, origin)
        default:
            if key.count == 1, ConfigLayer.keys[key[0]] != nil { return (.error, "must be a table ([\(key[0])]), not \(value.shown)") }
            let top = key[0]
            if ConfigLayer.keys[top] != nil { return (.warning, "unknown key; ignored") }
            return (.warning, "unknown key" + ConfigLayer.suggestion(top, in: ConfigLayer.keys.keys.sorted()) + "; ignored")
        }
        return nil
    }

    /// The drive preset's own radios, which a station may not be named.
    static let builtInRadios = Set(DriveChoices.radios)

    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 40 && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// ` (did you mean 'period'?)` when a known name is close, ` (known: a, b)` otherwise.
    static func suggestion(_ word: String, in known: [String]) -> String {
        let best = known.map { ($0, editDistance($0, word)) }.min { $0.1 < $1.1 }
        if let best, best.1 <= max(1, word.count / 3) { return " (did you mean '\(best.0)'?)" }
        return " (known: \(known.joined(separator: ", ")))"
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }

    /// Checks each configured preset option by building the preset with it (the presets'
    /// own range checks), with station names resolved; returns a problem for each bad one.
    /// `source` gives the file, line and column of a key (`presets.drive.minutes`) set at an origin.
    public func checkPresetOptions(stations: [String: Setting<String>], source: (String, ConfigOrigin) -> (String, Int?, Int?))
        -> [ConfigProblem]
    {
        var problems: [ConfigProblem] = []
        for (preset, options) in presetOptions.sorted(by: { $0.key < $1.key }) {
            for (option, setting) in options.sorted(by: { $0.key < $1.key }) {
                var value = setting.value
                if option == "radio", let station = stations[value] ?? self.stations[value] { value = station.value }
                do { _ = try SessionPresets.make(preset, options: [option: value]) } catch {
                    let (file, line, column) = source("presets.\(preset).\(option)", setting.origin)
                    // The key names the option: the message says the rest (`must be …`).
                    var message = error.spelled { "--" + $0 }
                    if message.hasPrefix("--\(option) ") { message.removeFirst(option.count + 3) }
                    problems.append(ConfigProblem(.error, source: file, line: line, column: column,
                                                  key: "presets.\(preset).\(option)", message: message))
                }
            }
        }
        return problems
    }
}
