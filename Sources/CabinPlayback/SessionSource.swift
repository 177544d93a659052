import CabinAudio
import CabinHaptics
import CabinIO
import CabinSession
import FoundationEssentials

/// Where a session comes from, resolved for the loader: a session document (a path, or
/// `-` for standard input), a sound file played as a one-layer session, or a preset with
/// its options. `cabin play`, `render`, `session levels` and `session plot` resolve their
/// argument here and load it with `load`; the CLI adds only its printing and exit codes.
///
/// Thread: control thread only (a sound file's header is read).
public struct SessionSource: Sendable {
    /// The document's path (`-`: standard input), or a sound file's; nil for a preset.
    public var file: String?
    /// The preset's name, when the session is a preset.
    public var preset: String?
    /// The user's internet stations by name (a config file's `[stations]`), for a
    /// document's `"sound": "station:NAME"`.
    public var stations: [String: String] = [:]
    /// The document made here (a preset's, or a sound file's one-layer session); nil when
    /// `file` is a document, read by the loader.
    public var document: SessionDocument?
    /// The folder `document`'s relative paths start from (nil: the package's folder).
    public var folder: String?
    /// The preset's options, by option name (without dashes).
    public var options: [String: String] = [:]

    /// Why a session cannot be resolved, in words that do not assume a command line.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// A sound file whose header cannot be read (the reader's one line).
        case soundFile(String)
        /// A preset that does not exist or an option it rejects (`--minutes must be …`).
        case preset(PresetError)

        public var description: String {
            switch self {
            case .soundFile(let line): line
            case .preset(let error): error.description
            }
        }
    }

    /// `file` is a session document or a sound file (by its extension, else its first
    /// bytes): a sound plays as a one-layer session, looping for `loopFor` seconds if
    /// given. With no file, preset `preset` with `presetOptions` (already merged with any
    /// configured defaults).
    public init(file: String?, preset: String, presetOptions: [String: String], stations: [String: String] = [:],
                loopFor: Double? = nil) throws(Failure) {
        self.file = file
        self.stations = stations
        if let file, AudioContainer.isSoundFile(file) {
            let info: SoundFileInfo
            do { info = try SoundFile.info(file) } catch { throw Failure.soundFile("\(error)") }
            let folder = PathText.folder(of: file)
            self.folder = folder.isEmpty ? "." : folder
            let name = PathText.lastComponent(of: file)
            var document = SessionDocument.playing(file: name, duration: loopFor ?? info.duration, looping: loopFor != nil)
            document.title = name
            self.document = document
        } else if file == nil {
            self.preset = preset
            options = presetOptions
            document = try Self.presetDocument(preset, options: presetOptions)
        }
    }

    /// A document made in code, its relative paths from `folder` (nil: the Cabin package's
    /// folder, where the built-in sounds are).
    public init(document: SessionDocument, folder: String? = nil, stations: [String: String] = [:]) {
        self.file = nil
        self.document = document
        self.folder = folder
        self.stations = stations
    }

    /// A session as it was remembered: a document's path, or a preset with its options.
    public init(rememberedFile file: String?, preset: String?, options: [String: String]?,
                stations: [String: String] = [:]) throws(Failure) {
        self.file = file
        self.stations = stations
        if let preset {
            self.preset = preset
            self.options = options ?? [:]
            document = try Self.presetDocument(preset, options: self.options)
        }
    }

    private static func presetDocument(_ name: String, options: [String: String]) throws(Failure) -> SessionDocument {
        do { return try SessionPresets.make(name, options: options) } catch { throw Failure.preset(error) }
    }

    /// The session's name in messages: its file, `preset NAME`, or a document's title.
    public var name: String {
        if let file { return file }
        if let preset { return "preset \(preset)" }
        return document?.title ?? "session"
    }

    /// Whether `file` is a sound file played as a one-layer session (it needs no render).
    public var isSoundFile: Bool { file.map(AudioContainer.isSoundFile) ?? false }

    /// The folder a document file's relative paths start from: its own (`.` for standard
    /// input), nil for a preset.
    public var fileFolder: String? {
        file.map { $0 == "-" ? "." : PathText.folder(of: $0) }.map { $0.isEmpty ? "." : $0 }
    }

    /// The same session as `document` (a variant of the one loaded), its relative paths
    /// from this session's folder.
    public func with(document: SessionDocument) -> SessionSource {
        var source = self
        source.document = document
        source.folder = folder ?? fileFolder
        return source
    }

    /// The same session with its live streams (`http(s)://` sounds) replaced by `fallback`
    /// (a library bed): the document as `loaded` read it (its stations already resolved).
    public func replacingStations(in loaded: SessionDocument, with fallback: SoundReference) -> SessionSource {
        var source = with(document: loaded.replacingStations(with: fallback))
        source.stations = [:]
        return source
    }

    /// The files among `document`'s sounds and haptic patterns, as paths (relative ones
    /// from the session's folder; the working folder for a preset or standard input).
    public func inputFiles(_ document: SessionDocument) -> [String] {
        let folder = fileFolder ?? "."
        let sounds = document.soundsToLoad.compactMap { reference -> String? in
            if case .file(let path) = reference { path } else { nil }
        }
        let patterns = document.hapticPatternsToLoad.compactMap { text -> String? in
            if case .success(.file(let path)) = HapticReference.parse(text) { path } else { nil }
        }
        return (sounds + patterns).map { $0.hasPrefix("/") ? $0 : folder + "/" + $0 }
    }

    /// Loads the session (`SessionLoader`): a document file from its path, a document made
    /// here from its folder (the package's when it has none). `library` is the sound library.
    public func load(sampleRate: Double, maxBlockFrames: Int, library: SoundLibrary?,
                     patterns: HapticPatternLibrary? = .locate(), options: SessionCompileOptions = .init(),
                     progressive: Bool = false, startingAt start: Double = 0) throws(SessionLoader.Failure) -> SessionLoader.Loaded {
        guard let document else {
            return try SessionLoader.load(path: file ?? "-", sampleRate: sampleRate, maxBlockFrames: maxBlockFrames, library: library,
                                          patterns: patterns, options: options, stations: stations,
                                          progressive: progressive, startingAt: start)
        }
        let folder = folder ?? ResourceLocator.find(".")?.path ?? "."
        return try SessionLoader.load(bytes: Array(document.json().utf8), name: name, folder: URL(fileURLWithPath: folder),
                                      sampleRate: sampleRate, maxBlockFrames: maxBlockFrames, library: library,
                                      patterns: patterns, options: options, stations: stations,
                                      progressive: progressive, startingAt: start)
    }
}

/// Path text as Foundation's `NSString` reads it (runs of slashes as one, a trailing slash
/// ignored), for the source's folder and name, and the CLI's (`String+Path`).
package enum PathText {
    /// `a/b/c.wav` → `c.wav`; `/` → `/`.
    package static func lastComponent(of text: String) -> String {
        let path = fixed(text)
        guard path.utf16.count > 1 else { return path }
        return String(path[start(ofLast: path)...])
    }

    /// `a/b/c.wav` → `a/b`; `c.wav` → ``; `/c.wav` → `/`.
    package static func folder(of text: String) -> String {
        let path = fixed(text)
        if path == "/" || path.isEmpty { return path }
        let start = start(ofLast: path)
        if start == path.startIndex { return "" }
        if start == path.index(after: path.startIndex) { return "/" }
        return String(path[..<path.index(before: start)])
    }

    private static func fixed(_ text: String) -> String {
        if text == "/" { return text }
        var path = ""
        var afterSlash = false
        for character in text {
            if character == "/" && afterSlash { continue }
            afterSlash = character == "/"
            path.append(character)
        }
        if path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func start(ofLast path: String) -> String.Index {
        path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex
    }
}
