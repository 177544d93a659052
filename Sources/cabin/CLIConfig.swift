import ArgumentParser
import CabinAudio
import CabinConfig
import CabinHaptics
import CabinIO
import CabinPlayback
import FoundationEssentials
import Glibc

/// The CLI's side of the settings: where the config and state files are, reading them, and
/// printing their problems (CabinConfig does the parsing and merging, purely).
enum CLIConfig {
    static var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// `$XDG_CONFIG_HOME/cabin/config.toml` (default `~/.config/cabin/config.toml`).
    static var configPath: String { xdg("XDG_CONFIG_HOME", fallback: ".config") + "/cabin/config.toml" }

    /// `$XDG_STATE_HOME/cabin/state.json` (default `~/.local/state/cabin/state.json`).
    static var statePath: String { xdg("XDG_STATE_HOME", fallback: ".local/state") + "/cabin/state.json" }

    private static func xdg(_ variable: String, fallback: String) -> String {
        // The XDG spec: a relative path in the variable is invalid and ignored.
        if let value = environment[variable], value.hasPrefix("/") { return value }
        // $HOME, else the password database's home (never "/" because HOME is unset).
        let home = HomeDirectory.path ?? "/"
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/" + fallback
    }

    /// True when `variable` (an XDG folder) is not given and the home folder it would fall
    /// back to does not exist: what would be kept there is not kept (a home is never made).
    private static func lacksHome(_ variable: String) -> Bool {
        if let value = environment[variable], value.hasPrefix("/") { return false }
        return !HomeDirectory.exists
    }

    /// The state file is neither read nor written: no `XDG_STATE_HOME` and no home folder.
    static var stateIsOff: Bool { lacksHome("XDG_STATE_HOME") }

    /// Says once, in one line, what goes when the home folder is missing (`keeps`: whether
    /// this command keeps a state file; every playing command has the speech cache).
    static func noteMissingHome(keepsState: Bool) {
        let cacheOff = (environment["CABIN_SPEECH_CACHE"].map { $0.isEmpty } ?? true) && lacksHome("XDG_CACHE_HOME")
        let stateOff = keepsState && stateIsOff
        guard cacheOff || stateOff else { return }
        let home = HomeDirectory.path.map { "the home folder \($0) does not exist" } ?? "there is no home folder (HOME is not set)"
        let what = [stateOff ? "the state file" : nil, cacheOff ? "the speech cache" : nil].compactMap { $0 }.joined(separator: " or ")
        CLIOutput.warning("\(home), and Cabin does not make one: going without \(what)")
    }

    /// The largest config file read: 1 MiB (a config is a few lines; documents and
    /// playlists have their limits too).
    static let configLimit = 1 << 20

    /// The file's layer (an empty one when there is no file) and its problems. Only a missing
    /// file means the defaults: a folder that cannot be searched, a link to nothing, a
    /// directory, a FIFO or a file over `configLimit` is one error line (and never a wait).
    static func readFile() -> ConfigFile {
        let path = configPath
        func problem(_ message: String) -> ConfigFile {
            var file = ConfigFile(path: path)
            file.problems.append(ConfigProblem(.error, source: path, key: nil, message: message))
            return file
        }
        var link = stat()
        if lstat(path, &link) != 0 {
            let code = errno
            return code == ENOENT ? ConfigFile(path: path) : problem("cannot be read (\(DocumentFile.reason(code)))")
        }
        var info = stat()
        if link.st_mode & S_IFMT == S_IFLNK && stat(path, &info) != 0 && errno == ENOENT {
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(path, &target, target.count - 1)
            let shown = length > 0 ? String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
            return problem("is a symbolic link to \(shown), which does not exist")
        }
        let data: [UInt8]
        do { data = try DocumentFile.read(path, limit: configLimit, kind: "config file", regularOnly: true) } catch {
            let line = error.description
            return problem(line.hasPrefix(path + ": ") ? String(line.dropFirst(path.count + 2)) : line)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            var file = ConfigFile(path: path)
            file.problems.append(ConfigProblem(.error, source: path, key: nil, message: "is not UTF-8 text"))
            return file
        }
        return ConfigFile.parse(text, path: path)
    }

    /// The settings with `options` on top: prints every problem (one line each) and exits
    /// 1 when any is an error.
    /// With `readingFile` false (`cabin play --no-config`) the file is not read: the defaults,
    /// the environment and the options only.
    static func settings(options: ConfigLayer = ConfigLayer(), readingFile: Bool = true) throws -> (settings: CabinSettings, file: ConfigFile) {
        let file = readingFile ? readFile() : ConfigFile(path: configPath)
        let (environmentLayer, environmentProblems) = ConfigEnvironment.layer(environment)
        let problems = file.problems + environmentProblems
        for problem in problems { StandardStreams.writeError("\(problem)".terminalSafe + "\n") }
        if problems.contains(where: { $0.severity == .error }) { throw ExitCode.failure }
        return (CabinSettings.merge([file.layer, environmentLayer, options]), file)
    }

    /// The settings of the commands whose only config option is `--strength` (`haptics play`,
    /// `haptics render`, `render`): the haptic strength is `--strength` when given, else
    /// `CABIN_HAPTIC_STRENGTH`, else the config file's `haptics.strength`, else strong (the
    /// same layers, checks and problems as `cabin play`'s settings).
    static func hapticsSettings(strength option: HapticStrength?) throws -> CabinSettings {
        var layer = ConfigLayer()
        if let option { _ = layer.set(["haptics", "strength"], .string(option.rawValue), origin: .option("--strength")) }
        return try settings(options: layer).settings
    }

    /// The state file, or nil with why when one is there but cannot be used (warned about
    /// unless `warn` is false: `--resume` says it in its own error). A bad volume in it is
    /// left out with a warning, the rest used.
    static func readState(warn: Bool = true) -> (state: PlayState?, problem: String?) {
        let path = statePath
        guard !stateIsOff, access(path, F_OK) == 0 else { return (nil, nil) }
        guard let data = FileManager.default.contents(atPath: path) else {
            let problem = "\(path): cannot be read (\(String(cString: strerror(errno))))"
            if warn { CLIOutput.warning("\(problem); starting afresh") }
            return (nil, problem)
        }
        switch PlayState.decode(Array(data)) {
        case .success(let state):
            for dropped in state.dropped { CLIOutput.warning("\(path): \(dropped); that volume is not restored") }
            return (state, nil)
        case .failure(let problem):
            if warn { CLIOutput.warning("\(path): \(problem); starting afresh") }
            return (nil, "\(path): \(problem)")
        }
    }

    /// Writes the state file atomically (a temporary, synced and renamed), making its
    /// folder (mode 0700) when needed.
    static func writeState(_ state: PlayState) throws {
        guard !stateIsOff else { return }   // said once at the start (noteMissingHome)
        let path = statePath
        let folder = String(path[..<path.lastIndex(of: "/")!])
        if access(folder, F_OK) != 0 {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                         attributes: [.posixPermissions: 0o700]) } catch {
                throw ValidationError("\(folder): cannot make the folder (\(error.localizedDescription))")
            }
        }
        let output = try OutputFile(path)
        try output.write(state.encoded())
        try output.commit()
    }

    /// The command line's settings as a layer (checked as the file's values are): the
    /// options `cabin play` and `cabin config` share.
    static func optionsLayer(device: String?, latency: String? = nil, period: Int?, periods: Int?, rumble: String?, preset: String? = nil,
                             strength: HapticStrength? = nil, volume: [String]) throws -> ConfigLayer {
        var layer = ConfigLayer()
        var sets: [([String], ConfigValue, String)] = []
        if let device { sets.append((["play", "device"], .string(device), "-D")) }
        if let latency { sets.append((["play", "latency"], .string(latency), "--latency")) }
        if let period { sets.append((["play", "period"], .integer(period), "--period")) }
        if let periods { sets.append((["play", "periods"], .integer(periods), "--periods")) }
        if let rumble { sets.append((["play", "rumble"], .string(rumble), "--rumble")) }
        if let preset { sets.append((["play", "preset"], .string(preset), "--preset")) }
        if let strength { sets.append((["haptics", "strength"], .string(strength.rawValue), "--strength")) }
        for text in volume {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            let (bus, value) = parts.count == 2 ? (parts[0], parts[1]) : ("master", text)
            if bus == "remember" { throw ValidationError("--volume '\(text)': 'remember' is not a bus") }
            sets.append((["volume", bus], .string(value), "--volume"))
        }
        for (key, value, option) in sets {
            if let (_, message) = layer.set(key, value, origin: .option(option)) {
                let shown = option == "--volume" && key[1] != "master" ? "\(key[1])=\(value.text ?? "")" : value.text ?? ""
                throw ValidationError("\(option) '\(shown)': \(message)")
            }
        }
        return layer
    }
}
