import CabinJSON

/// The sound library's index, `Sounds/manifest.json`: library name → file, category, loop
/// points, measured loudness and the trim that brings the sound to the library's reference
/// loudness.
///
/// ```json
/// { "version": 1, "referenceLoudness": -23,
///   "sounds": { "engine/v6": { "file": "engine/v6.flac", "category": "engine",
///                              "loop": { "start": 0, "end": 384000 },
///                              "loudness": -19.2, "truePeak": -4.1, "trim": -3.8 } } }
/// ```
///
/// Thread: a value; any thread.
public struct SoundManifest: Sendable, Equatable {
    /// Integrated loudness (LUFS) every library sound is trimmed to.
    public var referenceLoudness: Double
    /// Entries in the file's order.
    public var sounds: [Entry]

    /// A manifest of `sounds` trimmed to `referenceLoudness` LUFS.
    public init(referenceLoudness: Double = -23, sounds: [Entry] = []) {
        self.referenceLoudness = referenceLoudness
        self.sounds = sounds
    }

    /// One sound of the library.
    public struct Entry: Sendable, Equatable {
        /// Library name, e.g. `engine/v6`.
        public var name: String
        /// Path relative to the manifest's folder.
        public var file: String
        /// `engine`, `ambient`, `ui`, `radio`, `voice` …
        public var category: String
        /// Loop region in frames of the file (at its own rate), if the sound loops: its
        /// first frame.
        public var loopStart: Int?
        /// One past the loop region's last frame (nil: the sound does not loop).
        public var loopEnd: Int?
        /// Integrated loudness (LUFS) as measured (nil: not measured).
        public var loudness: Double?
        /// True peak (dBTP) as measured (nil: not measured).
        public var truePeak: Double?
        /// Gain in dB that brings the sound to `referenceLoudness` (for a UI one-shot, no
        /// further than its true peak at −12 dBTP: a click is trimmed by its peak).
        public var trim: Double
        /// Length in seconds.
        public var duration: Double?
        /// One line for `cabin sounds list`.
        public var description: String?

        /// An entry for library name `name` in `file`; the other values as the properties say.
        public init(name: String, file: String, category: String, loopStart: Int? = nil, loopEnd: Int? = nil,
                    loudness: Double? = nil, truePeak: Double? = nil, trim: Double = 0, duration: Double? = nil,
                    description: String? = nil) {
            self.name = name
            self.file = file
            self.category = category
            self.loopStart = loopStart
            self.loopEnd = loopEnd
            self.loudness = loudness
            self.truePeak = truePeak
            self.trim = trim
            self.duration = duration
            self.description = description
        }
    }

    /// The entry for library name `name` (`engine/v6`), or nil.
    public func entry(named name: String) -> Entry? { sounds.first { $0.name == name } }

    /// Reads a manifest, reporting every problem with its location.
    public static func read(_ bytes: [UInt8], file: String) -> (manifest: SoundManifest?, diagnostics: Diagnostics) {
        var d = Diagnostics(file: file)
        guard let root = JSONParser.parse(bytes, options: .strict, diagnostics: &d),
              let object = root.object(at: .root, in: &d) else { return (nil, d) }
        var manifest = SoundManifest()
        if let v = object["referenceLoudness"]?.number(at: JSONPath.root.key("referenceLoudness"), in: &d) {
            manifest.referenceLoudness = v
        }
        let soundsPath = JSONPath.root.key("sounds")
        guard let soundsValue = object.required("sounds", at: soundsPath, objectLocation: root.location, in: &d),
              let sounds = soundsValue.object(at: soundsPath, in: &d) else { return (nil, d) }
        for member in sounds.members {
            let p = soundsPath.key(member.key)
            guard let e = member.value.object(at: p, in: &d) else { continue }
            guard let fileValue = e.required("file", at: p.key("file"), objectLocation: member.value.location, in: &d),
                  let path = fileValue.string(at: p.key("file"), in: &d) else { continue }
            var entry = Entry(name: member.key, file: path,
                              category: e["category"]?.string(at: p.key("category"), in: &d) ?? "")
            if let loop = e["loop"]?.object(at: p.key("loop"), in: &d) {
                entry.loopStart = loop["start"]?.integer(at: p.key("loop").key("start"), in: &d)
                entry.loopEnd = loop["end"]?.integer(at: p.key("loop").key("end"), in: &d)
            }
            entry.loudness = e["loudness"]?.number(at: p.key("loudness"), in: &d)
            entry.truePeak = e["truePeak"]?.number(at: p.key("truePeak"), in: &d)
            entry.trim = e["trim"]?.number(at: p.key("trim"), in: &d) ?? 0
            entry.duration = e["duration"]?.number(at: p.key("duration"), in: &d)
            entry.description = e["description"]?.string(at: p.key("description"), in: &d)
            manifest.sounds.append(entry)
        }
        return (d.hasErrors ? nil : manifest, d)
    }
}
