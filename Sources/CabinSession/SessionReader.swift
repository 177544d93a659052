import CabinHaptics
import CabinJSON

/// Reads and validates session documents: every problem at once, each with file,
/// line:column, JSON path, the value and the rule. A document with any error yields no
/// `SessionDocument` — nothing plays until it is valid.
///
/// Thread: pure; any thread except the render thread.
public enum SessionReader {
    /// The largest session document read: 16 MiB. A session of the most cues a document may
    /// have (100,000) is about 6 MB.
    public static let maximumBytes = 16 * 1024 * 1024
    /// The most JSON values a session document may hold: 10 for each of the 100,000 cues a
    /// session may have. The parser stops at the first value past it, so a document of
    /// millions of cues costs what a million values cost (about 290 MB), not its whole tree.
    public static let maximumValues = 1_000_000
    /// The parser's options for session documents.
    public static let parseOptions = JSONParseOptions(
        mode: .lenient, maxDocumentBytes: maximumBytes, maxValues: maximumValues,
        valueLimitReason: "a session document holds at most \(maximumValues) (10 for each of at most \(DocumentReader.maxCues) cues)")

    /// The outcome: the document if valid, and every diagnostic (errors and warnings).
    public struct Result: Sendable {
        /// The document; nil when there was any error.
        public var document: SessionDocument?
        /// Every error and warning found, for the file as named.
        public var diagnostics: Diagnostics
    }

    /// Reads `bytes` (a JSON document) called `file` in messages.
    ///
    /// With `references`, every library name and file a sound or a haptic cue names is
    /// checked too: one that cannot be played is an error (`session.missing-sound`,
    /// `session.missing-pattern`).
    public static func read(_ bytes: [UInt8], file: String, references: SessionReferences? = nil) -> Result {
        var diagnostics = Diagnostics(file: file)
        guard let root = JSONParser.parse(bytes, options: parseOptions, diagnostics: &diagnostics),
              !diagnostics.hasErrors else {
            return Result(document: nil, diagnostics: diagnostics)
        }
        var reader = DocumentReader(diagnostics: diagnostics, references: references)
        let document = reader.read(root)
        var sorted = Diagnostics(file: file)
        sorted.append(contentsOf: reader.diagnostics.sortedByLocation)
        return Result(document: sorted.hasErrors ? nil : document, diagnostics: sorted)
    }

    /// Reads UTF-8 text; see the byte overload.
    public static func read(_ text: String, file: String, references: SessionReferences? = nil) -> Result {
        read(Array(text.utf8), file: file, references: references)
    }
}

/// The reading pass: walks the tree once, converting and checking, collecting diagnostics.
struct DocumentReader {
    var diagnostics: Diagnostics
    /// Checks for the sounds and patterns named, when the caller knows the libraries.
    var references: SessionReferences? = nil
    /// Layers with `"haptic"`, collected by `readLayers`.
    var hapticLayers: [HapticLayer] = []

    static let topLevelKeys: Set<String> = ["cabin", "title", "duration", "buses", "ducking", "parameters",
                                            "layers", "cues", "description", "hapticStrength", "loudness", "seed", "focus"]

    mutating func read(_ root: JSONValue) -> SessionDocument? {
        guard let object = root.object(at: .root, in: &diagnostics) else { return nil }
        object.warnUnknownKeysAsErrors(known: Self.topLevelKeys, at: .root, in: &diagnostics)
        readVersion(object, root: root)

        let title = object["title"]?.string(at: JSONPath.root.key("title"), in: &diagnostics)
        let loudness = object["loudness"].flatMap {
            number($0, at: JSONPath.root.key("loudness"), in: SessionDocument.loudnessRange,
                   what: "a loudness target (LUFS)", rule: "session.loudness")
        }
        let duration = object["duration"].flatMap { time($0, at: JSONPath.root.key("duration")) }
        let seed = object["seed"].flatMap { v -> Double? in
            guard let n = number(v, at: JSONPath.root.key("seed"), in: SessionDocument.seedRange, what: "a seed",
                                 rule: "session.seed") else { return nil }
            guard n == n.rounded() else {
                diagnostics.error("a seed is a whole number, found \(v.excerpt)", at: v.location, path: JSONPath.root.key("seed"),
                                  value: v.excerpt, rule: "session.seed")
                return nil
            }
            return n
        }
        let buses = readBuses(object["buses"])
        let parameters = readParameters(object["parameters"])
        let layers = readLayers(object["layers"], buses: buses, parameters: parameters)
        let ducking = readDucking(object["ducking"], buses: buses)
        let focus = object["focus"].flatMap { readFocus($0, buses: buses, parameters: parameters) }
        let cues = readCues(object["cues"], buses: buses, layers: layers, parameters: parameters, focus: focus)

        let lastCue = cues.map { $0.time + $0.tail }.max() ?? 0
        if let duration {
            for cue in cues where cue.time > duration {
                let path = JSONPath.root.key("cues").index(cue.index).key("at")
                diagnostics.error("cue at \(SessionTime.format(cue.time)) comes after the session ends (duration \(SessionTime.format(duration)))",
                                  at: object["cues"]?.arrayValue?[cue.index].objectValue?["at"]?.location ?? root.location,
                                  path: path, value: SessionTime.format(cue.time), rule: "session.cue-after-end")
            }
        }
        var document = SessionDocument(
            title: title, duration: duration ?? lastCue, durationIsExplicit: duration != nil,
            buses: buses, ducking: ducking, parameters: parameters, layers: layers,
            cues: cues.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map { $0.element })
        document.loudness = loudness
        document.seed = UInt64(seed ?? 0)
        document.hapticLayers = hapticLayers
        document.focus = focus
        if let value = object["hapticStrength"] { document.hapticStrength = readHapticStrength(value) }
        return document
    }

    /// `hapticStrength`: `off`, `light`, `medium` or `strong`.
    private mutating func readHapticStrength(_ value: JSONValue) -> HapticStrength {
        let path = JSONPath.root.key("hapticStrength")
        guard let text = value.string(at: path, in: &diagnostics) else { return .strong }
        guard let strength = HapticStrength(rawValue: text) else {
            diagnostics.error("unknown haptic strength \(value.excerpt): use off, light, medium or strong",
                              at: value.location, path: path, value: value.excerpt, rule: "session.haptic-strength")
            return .strong
        }
        return strength
    }

    private mutating func readVersion(_ object: JSONObject, root: JSONValue) {
        guard let value = object.required("cabin", at: JSONPath.root.key("cabin"), objectLocation: root.location,
                                          in: &diagnostics) else { return }
        let supported = SessionDocument.supportedVersions.map(String.init).joined(separator: ", ")
        guard case .number(let n) = value.kind, n.isIntegerLiteral,
              SessionDocument.supportedVersions.contains(where: { Double($0) == n.value }) else {
            diagnostics.error("unknown session format version \(value.excerpt): this Cabin reads version \(supported)",
                              at: value.location, path: JSONPath.root.key("cabin"), value: value.excerpt,
                              rule: "session.version")
            return
        }
    }
}
