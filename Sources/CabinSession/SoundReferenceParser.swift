/// Parses the `sound` strings of session documents.
///
/// - `synth:white-noise`, `synth:pink-noise`, `synth:brown-noise`,
///   `synth:sine?frequency=440`, `synth:binaural?carrier=200&beat=10` (defaults: sine
///   440 Hz; binaural carrier 200 Hz, beat 10 Hz);
/// - a path relative to the document: it starts with `./` or ends in a sound-file
///   extension (`rain.flac`, `sounds/engine.wav`); `..` and absolute paths are errors;
/// - anything else is a library name (`engine/v6`), resolved through `Sounds/manifest.json`.
public enum SoundReferenceParser {
    public struct Problem: Error, Sendable, Equatable {
        public var message: String
        public var rule: String
    }

    static let soundExtensions = ["wav", "flac", "ogg", "oga", "opus", "mp3", "aif", "aiff"]

    public static func parse(_ text: String) -> Result<SoundReference, Problem> {
        if text.hasPrefix("synth:") { return parseSynth(String(text.dropFirst(6))) }
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
            return .success(.file(text.hasPrefix("./") ? String(text.dropFirst(2)) : text))
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-_/")
        guard text.allSatisfy({ allowed.contains($0) }) else {
            return .failure(Problem(message: "\"\(text)\" is neither a library name (like engine/v6), a sound file path (like sounds/rain.flac) nor synth:NAME",
                                    rule: "session.sound"))
        }
        return .success(.library(text))
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
        let allowedKeys: [String: Set<String>] = ["sine": ["frequency"], "binaural": ["carrier", "beat"]]
        guard SynthSource.names.contains(name) else {
            return .failure(Problem(message: "no synthesizer \"\(name)\": use \(SynthSource.names.map { "synth:" + $0 }.joined(separator: ", "))",
                                    rule: "session.synth"))
        }
        if let bad = options.keys.sorted().first(where: { !(allowedKeys[name] ?? []).contains($0) }) {
            let valid = (allowedKeys[name] ?? []).sorted()
            return .failure(Problem(message: "synth:\(name) has no option \"\(bad)\"" + (valid.isEmpty ? "" : "; options: \(valid.joined(separator: ", "))"),
                                    rule: "session.synth"))
        }
        switch name {
        case "white-noise": return .success(.synth(.whiteNoise))
        case "pink-noise": return .success(.synth(.pinkNoise))
        case "brown-noise": return .success(.synth(.brownNoise))
        case "sine": return .success(.synth(.sine(frequency: options["frequency"] ?? 440)))
        default:
            let carrier = options["carrier"] ?? 200, beat = options["beat"] ?? 10
            guard beat < carrier else {
                return .failure(Problem(message: "synth:binaural needs beat (\(SessionTime.format(number: beat)) Hz) below carrier (\(SessionTime.format(number: carrier)) Hz)",
                                        rule: "session.synth"))
            }
            return .success(.synth(.binaural(carrier: carrier, beat: beat)))
        }
    }
}
