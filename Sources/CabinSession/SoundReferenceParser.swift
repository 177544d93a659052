import CabinAudio
import CabinJSON

/// Parses the `sound` strings of session documents.
///
/// - `http://…` or `https://…`: a live internet station (`SoundReference.station`);
/// - `station:NAME`: a station by the name the user gave it (the config file's `[stations]`),
///   resolved to its URL through the names given; an unknown name is an error with the name
///   meant where one is close;
/// - `gen:NAME`: music generated while it plays (`SoundReference.generated`, `gen:lofi`);
/// - `synth:NAME?option=value&…`: a kind in `Synth.kinds` (`synth:pink-noise`,
///   `synth:sine?frequency=440`, `synth:binaural?carrier=200&beat=10`) with positive
///   options, those not given at their defaults;
/// - a path relative to the document: it starts with `./` or ends in a sound-file
///   extension (`rain.flac`, `sounds/engine.wav`); `..` and absolute paths are errors;
/// - a playlist of the user's music: a text ending in `.m3u`, `.m3u8` or `.pls`, or a folder
///   ending in `/` (`music/`, `/home/me/Music/`); relative to the document or absolute;
/// - anything else is a library name (`engine/v6`), resolved through `Sounds/manifest.json`.
public enum SoundReferenceParser {
    /// Why a text names no sound (or pattern): what a reader reports as a diagnostic.
    public struct Problem: Error, Sendable, Equatable {
        /// What is wrong, for people, quoting the text.
        public var message: String
        /// The rule broken, a diagnostic's `rule` (`session.sound-path`, …).
        public var rule: String
    }

    /// The extensions that make a text a sound file path (and a path no session document).
    public static let soundExtensions = ["wav", "flac", "ogg", "oga", "opus", "mp3", "aif", "aiff"]

    /// The extensions of playlist files (`SoundReference.playlist`).
    public static let playlistExtensions = ["m3u", "m3u8", "pls"]

    /// The prefix of a station named by the user (`station:kexp`).
    public static let stationPrefix = "station:"
    /// The rule of a `station:NAME` that names no station.
    public static let stationRule = "session.station"

    /// Parses `text`; `stations` (names to URLs) resolves `station:NAME`.
    public static func parse(_ text: String, stations: [String: String] = [:]) -> Result<SoundReference, Problem> {
        if text.hasPrefix("synth:") { return parseSynth(String(text.dropFirst(6))) }
        if text.hasPrefix(stationPrefix) { return parseStationName(String(text.dropFirst(stationPrefix.count)), stations: stations) }
        if text.hasPrefix("gen:") {
            let name = text.dropFirst(4)
            guard !name.isEmpty, name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) else {
                return .failure(Problem(message: "\"\(text)\" is not a generated sound: gen:NAME names one, like gen:lofi",
                                        rule: "session.sound"))
            }
            return .success(.generated(String(name)))
        }
        if isPlaylist(text) {
            if !text.hasPrefix("/") && text.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
                return .failure(Problem(message: "\"\(text)\" leaves the document's folder: give the playlist or folder as an absolute path instead of \"..\"",
                                        rule: "session.sound-path"))
            }
            return .success(.playlist(text))
        }
        if let scheme = ["http://", "https://"].first(where: { text.lowercased().hasPrefix($0) }) {
            let rest = text.dropFirst(scheme.count)
            guard let host = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first, !host.isEmpty,
                  !text.contains(where: { $0 == " " || $0.isNewline || $0 == "\t" }) else {
                return .failure(Problem(message: "\"\(text)\" is not a station URL: it needs a host (http://host[:port]/path) and no spaces",
                                        rule: "session.sound-url"))
            }
            return .success(.station(text))
        }
        if text.isEmpty { return .failure(Problem(message: "a sound needs a name, a path or synth:NAME", rule: "session.sound")) }
        if text.hasPrefix("/") {
            return .failure(Problem(message: "\"\(text)\" is an absolute path: sounds are library names or paths relative to the document's folder",
                                    rule: "session.sound-path"))
        }
        if text.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
            return .failure(Problem(message: "\"\(text)\" leaves the document's folder: \"..\" is not allowed in sound paths",
                                    rule: "session.sound-path"))
        }
        let ext = text.split(separator: ".").last.map { $0.lowercased() } ?? ""
        if text.hasPrefix("./") || (text.contains(".") && soundExtensions.contains(ext)) {
            // `./x`, `.//x` and `././x` are all `x` beside the document (written back as `./x`).
            let relative = text.hasPrefix("./")
                ? text.split(separator: "/").filter { $0 != "." }.joined(separator: "/") : text
            return .success(.file(relative))
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_/")
        guard text.allSatisfy({ allowed.contains($0) }) else {
            return .failure(Problem(message: "\"\(text)\" is neither a library name (like engine/v6), a sound file path (like sounds/rain.flac) nor synth:NAME",
                                    rule: "session.sound"))
        }
        return .success(.library(text))
    }

    /// `station:NAME` through `stations`: the station's URL, or why not (the name meant,
    /// when one is close; else the names there are).
    private static func parseStationName(_ name: String, stations: [String: String]) -> Result<SoundReference, Problem> {
        let known = stations.keys.sorted()
        let list = known.isEmpty ? "none are configured: add one under [stations] in the config file, NAME = \"https://…\""
            : "the config file's [stations] has \(known.prefix(8).joined(separator: ", "))\(known.count > 8 ? " …" : "")"
        guard !name.isEmpty else {
            return .failure(Problem(message: "station: needs a station's name (\(list))", rule: stationRule))
        }
        if let url = stations[name] {
            // The configured URL was checked as the config was read; checked again here
            // for an embedder's names.
            if case .success(.station) = parse(url) { return .success(.station(url)) }
            return .failure(Problem(message: "station \"\(KeySuggestion.shortened(name))\" is \"\(KeySuggestion.shortened(url))\", which is not an http:// or https:// station URL",
                                    rule: stationRule))
        }
        if let guess = KeySuggestion.closest(to: name, in: known) {
            return .failure(Problem(message: "no station named \"\(KeySuggestion.shortened(name))\" (did you mean station:\(guess)?)",
                                    rule: stationRule))
        }
        return .failure(Problem(message: "no station named \"\(KeySuggestion.shortened(name))\" (\(list))", rule: stationRule))
    }

    /// Whether `text` names a playlist: a playlist file's extension, or a folder's trailing `/`.
    public static func isPlaylist(_ text: String) -> Bool {
        guard !text.contains("://"), !text.hasPrefix("synth:"), !text.hasPrefix("gen:"), !text.isEmpty else { return false }
        if text.hasSuffix("/") { return true }
        let ext = text.split(separator: "/").last?.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return text.contains(".") && playlistExtensions.contains(ext)
    }

    private static func parseSynth(_ spec: String) -> Result<SoundReference, Problem> {
        let parts = spec.split(separator: "?", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        var options: [String: Double] = [:]
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard kv.count == 2, let v = Double(kv[1]), v.isFinite, v > 0 else {
                    return .failure(Problem(message: "\"\(pair)\" in synth:\(spec) is not key=positive-number", rule: "session.synth"))
                }
                options[kv[0]] = v
            }
        }
        guard let kind = Synth.kinds.first(where: { $0.name == name }) else {
            return .failure(Problem(message: "no synthesizer \"\(name)\": use \(Synth.kinds.map { "synth:" + $0.name }.joined(separator: ", "))",
                                    rule: "session.synth"))
        }
        let allowed = kind.options.map(\.name)
        if let bad = options.keys.sorted().first(where: { !allowed.contains($0) }) {
            let valid = allowed.sorted()
            return .failure(Problem(message: "synth:\(name) has no option \"\(bad)\"" + (valid.isEmpty ? "" : "; options: \(valid.joined(separator: ", "))"),
                                    rule: "session.synth"))
        }
        for option in kind.options {
            if let value = options[option.name], value > option.maximum {
                return .failure(Problem(message: "synth:\(name) \(option.name) \(SessionTime.format(number: value)) \(option.unit) is above \(SessionTime.format(number: option.maximum)) \(option.unit)",
                                        rule: "session.synth"))
            }
        }
        for option in kind.options {
            guard let upper = option.mustBeBelow, let bound = kind.options.first(where: { $0.name == upper }) else { continue }
            let value = options[option.name] ?? option.defaultValue, limit = options[upper] ?? bound.defaultValue
            guard value < limit else {
                return .failure(Problem(message: "synth:\(name) needs \(option.name) (\(SessionTime.format(number: value)) \(option.unit)) below \(upper) (\(SessionTime.format(number: limit)) \(bound.unit))",
                                        rule: "session.synth"))
            }
        }
        guard let synth = Synth(named: name, options: options) else {
            return .failure(Problem(message: "synth:\(name) cannot be made with these options", rule: "session.synth"))
        }
        return .success(.synth(synth))
    }
}
