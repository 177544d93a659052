import ArgumentParser
import CabinSession
import Glibc

/// `--preset NAME` and the presets' own options, shared by `play`, `render` and `session`.
struct PresetArguments: ParsableArguments {
    @Option(help: ArgumentHelp("A built-in session: \(SessionPresets.all.map(\.name).joined(separator: ", ")) (see 'cabin session presets').",
                               valueName: "name"))
    var preset: String?

    @Option(help: "drive, ambient: session length in minutes.") var minutes: String?
    @Option(help: "drive: \(DriveChoices.spoken(DriveChoices.vehicles)).") var vehicle: String?
    @Option(help: "drive: \(DriveChoices.spoken(DriveChoices.routes)).") var route: String?
    @Option(help: "drive: the combustion engines' sound, loops (repitched recordings) or live (synthesized from rpm and load).") var engine: String?
    @Option(help: "drive: where you are going (named in announcements).") var destination: String?
    @Option(name: .customLong("rest-every"), help: "drive: \(DriveChoices.spoken(DriveChoices.restEvery)).") var restEvery: String?
    @Option(help: "drive: rest stop length, \(DriveChoices.spoken(DriveChoices.rests)).") var rest: String?
    @Option(help: "drive: \(DriveChoices.radios.joined(separator: ", ")), an internet station's http(s):// URL, or your music: a folder or an .m3u, .m3u8 or .pls playlist.") var radio: String?
    @Option(help: "drive, pomodoro: an ambient/… library name (pomodoro: or off).") var ambient: String?
    @Option(help: "pomodoro: focus length.") var focus: String?
    @Option(help: "pomodoro: short break length.") var short: String?
    @Option(help: "pomodoro: long break length.") var long: String?
    @Option(help: "pomodoro: focus periods; breathing: breaths.") var cycles: String?
    @Option(help: "ambient: a library name or synth:binaural.") var sound: String?
    @Option(help: "ambient: binaural beat in Hz.") var beat: String?
    @Option(help: "ambient: binaural carrier in Hz.") var carrier: String?
    @Option(help: "quest: length in seconds.") var seconds: String?
    @Option(help: "pomodoro: a soft chime this long before each phase ends (2m), or off.") var warn: String?

    /// The options given, by preset option name.
    var given: [String: String] {
        let pairs: [(String, String?)] = [
            ("minutes", minutes), ("vehicle", vehicle), ("route", route), ("engine", engine), ("destination", destination),
            ("rest-every", restEvery), ("rest", rest), ("radio", radio.map(Self.musicPath)), ("ambient", ambient), ("focus", focus),
            ("short", short), ("long", long), ("cycles", cycles), ("sound", sound), ("beat", beat),
            ("carrier", carrier), ("seconds", seconds), ("warn", warn),
        ]
        return Dictionary(uniqueKeysWithValues: pairs.compactMap { k, v in v.map { (k, $0) } })
    }

    /// The preset's document; a bad option prints one line (`cabin: error: --minutes must
    /// be …`) and exits 64, as usage errors do.
    func document(name: String) throws -> SessionDocument {
        try PresetArguments.document(name: name, options: given)
    }

    /// Preset `name` with `options`, a bad option as one line (exit 64).
    static func document(name: String, options: [String: String]) throws -> SessionDocument {
        do { return try SessionPresets.make(name, options: options) } catch {
            CLIOutput.error(error.commandLine)
            throw ExitCode(64)
        }
    }

    /// `--radio PATH` naming a folder or a playlist file on this machine: absolute (the
    /// preset's document has no folder of its own), a folder with its trailing `/`.
    static func musicPath(_ text: String) -> String {
        // A bare word is a library bed (lofi); a path has a / or a playlist's extension.
        guard !text.contains("://"), !text.hasPrefix("synth:"), text.contains("/") || SoundReferenceParser.isPlaylist(text) else { return text }
        var info = stat()
        guard stat(text, &info) == 0 else { return text }
        let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        guard isFolder || SoundReferenceParser.isPlaylist(text) else { return text }
        var path = text
        while path.hasPrefix("./") { path.removeFirst(2) }
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            path = String(cString: cwd) + "/" + path
            free(cwd)
        }
        if isFolder && !path.hasSuffix("/") { path += "/" }
        return path
    }

    /// Options given without --preset are a mistake.
    func validateUsage(hasSession: Bool) throws {
        if preset == nil && !given.isEmpty && hasSession {
            throw ValidationError("--\(given.keys.sorted()[0]) goes with --preset (a session file has its own settings)")
        }
        if preset != nil && hasSession { throw ValidationError("give a session file or --preset, not both") }
    }
}
