import CabinAudio
import CabinIO
import CabinJSON
import CabinSession
import FoundationEssentials

/// From a session file to a compiled session: read, validate, load sounds (decode +
/// resample once) and haptic patterns (read + compile), compile to frames. Used by `cabin render` and `cabin play`.
///
/// Thread: control thread only (file I/O).
public enum SessionLoader {
    /// A session ready to run, and what was said on the way.
    public struct Loaded: Sendable {
        /// The document as read (the preset's or the file's, the reader's quirks accepted).
        public var document: SessionDocument
        /// The document compiled at the sample rate and block size asked for, its sounds and
        /// haptics loaded: what `SessionRunner` and `LivePlayer` play.
        public var compiled: CompiledSession
        /// The sounds as loaded (to compile the document again, e.g. at another block size).
        public var sounds: ResolvedSounds
        /// Warnings from the document (accepted quirks) — errors never get this far.
        public var diagnostics: Diagnostics
        /// Sounds still decoding in the background (`progressive` loads); `.done` otherwise.
        public var decoding: SoundDecoding = .done
        /// The session's radio (its live streams, playlists and generated music: made by the
        /// registered `SessionLoader.radioProvider`): started by a `progressive` (live) load,
        /// idle otherwise (an offline render fills it before every block).
        public var radio: any SessionRadio = NoRadio()
        /// Lines for parts of the session that are silent (a sound that did not load).
        public var warnings: [String] { compiled.warnings }
    }

    /// Why a session cannot run: the document's errors (one line each) or an unreadable file.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, one line each (a document's problems located:
        /// `file:line:column: error: path: message`); `description` joins them.
        public var lines: [String]
        /// The document's problems as the reader found them (rule, path, severity, message),
        /// for an app to show its own way; empty when the failure is not the document's.
        public var diagnostics: [Diagnostic] = []
        public var description: String { lines.joined(separator: "\n") }

        /// A failure reading `lines`, with the document's `diagnostics` when it is the document's.
        public init(lines: [String], diagnostics: [Diagnostic] = []) {
            self.lines = lines
            self.diagnostics = diagnostics
        }
    }

    /// Loads a document made in code: checked first as a file is (`SessionDocument.validated`:
    /// unknown buses, layers, sounds, patterns, ranges), so nothing is silently left out;
    /// its problems are one line each with their path (`layers.rain.bus: error: …`) and in
    /// `Failure.diagnostics`. `folder` resolves relative sound paths.
    public static func load(document: SessionDocument, folder: URL = URL(fileURLWithPath: "."), sampleRate: Double,
                            maxBlockFrames: Int = 512, library: SoundLibrary? = .found,
                            patterns: HapticPatternLibrary? = .locate(), options: SessionCompileOptions = .init(),
                            stations: [String: String] = [:], progressive: Bool = false,
                            startingAt start: Double = 0) throws(Failure) -> Loaded {
        try load(bytes: Array(document.json().utf8), name: SessionDocument.inCodeName, folder: folder, sampleRate: sampleRate,
                 maxBlockFrames: maxBlockFrames, library: library, patterns: patterns, options: options, stations: stations,
                 progressive: progressive, startingAt: start, describe: \.pathDescription)
    }

    /// Loads the document at `path`. `stations` are the user's internet stations by name
    /// (`"sound": "station:kexp"`), to their URLs.
    public static func load(path: String, sampleRate: Double, maxBlockFrames: Int = 512,
                            library: SoundLibrary? = .found, patterns: HapticPatternLibrary? = .locate(),
                            options: SessionCompileOptions = .init(), stations: [String: String] = [:],
                            progressive: Bool = false, startingAt start: Double = 0) throws(Failure) -> Loaded {
        let url = URL(fileURLWithPath: path)
        if SoundReferenceParser.soundExtensions.contains(url.pathExtension.lowercased()) {
            throw Failure(lines: ["\(path): is a sound file, not a session document; a session plays it as a layer (\"sound\": \"./\(url.lastPathComponent)\")"])
        }
        let data: [UInt8]
        do { data = try DocumentFile.read(path, limit: SessionReader.maximumBytes, kind: "session document") } catch { throw Failure(lines: [error.description]) }
        return try load(bytes: data, name: path, folder: url.deletingLastPathComponent(),
                        sampleRate: sampleRate, maxBlockFrames: maxBlockFrames, library: library,
                        patterns: patterns, options: options, stations: stations, progressive: progressive,
                        startingAt: start)
    }

    /// Loads a document given as bytes (a preset, stdin); `folder` resolves relative paths.
    ///
    /// `progressive` returns once the first second of each sound that may be heard within
    /// a few seconds of `start` (the session time playback begins at) is decoded, and
    /// decodes the rest while the session plays (see `SessionSoundLoader.loadProgressively`):
    /// for live playback, where launch time matters; it also connects the session's live
    /// streams (`Loaded.radio`). Offline rendering decodes everything first.
    public static func load(bytes: [UInt8], name: String, folder: URL, sampleRate: Double, maxBlockFrames: Int = 512,
                            library: SoundLibrary? = .found, patterns: HapticPatternLibrary? = .locate(),
                            options: SessionCompileOptions = .init(), stations: [String: String] = [:],
                            progressive: Bool = false, startingAt start: Double = 0) throws(Failure) -> Loaded {
        try load(bytes: bytes, name: name, folder: folder, sampleRate: sampleRate, maxBlockFrames: maxBlockFrames,
                 library: library, patterns: patterns, options: options, stations: stations, progressive: progressive,
                 startingAt: start, describe: \.description)
    }

    private static func load(bytes: [UInt8], name: String, folder: URL, sampleRate: Double, maxBlockFrames: Int,
                             library: SoundLibrary?, patterns: HapticPatternLibrary?, options: SessionCompileOptions,
                             stations: [String: String], progressive: Bool, startingAt start: Double,
                             describe: (Diagnostic) -> String) throws(Failure) -> Loaded {
        let references = SessionReferences.checking(documentFolder: folder, library: library, patterns: patterns,
                                                    stations: stations)
        let result = SessionReader.read(bytes, file: name, references: references)
        guard var document = result.document else {
            throw Failure(lines: result.diagnostics.map(describe), diagnostics: result.diagnostics.all)
        }
        if let strength = options.hapticStrength { document.hapticStrength = strength }
        let sounds: ResolvedSounds, decoding: SoundDecoding
        if progressive {
            (sounds, decoding) = SessionSoundLoader.loadProgressively(document, documentFolder: folder, library: library,
                                                                      sampleRate: sampleRate, startingAt: start)
        } else {
            sounds = SessionSoundLoader.load(document, documentFolder: folder, library: library, sampleRate: sampleRate)
            decoding = .done
        }
        let haptics = SessionHapticLoader.load(document, documentFolder: folder, library: patterns, sampleRate: sampleRate)
        let compiled = SessionCompiler.compile(document, sounds: sounds, haptics: haptics, sampleRate: sampleRate,
                                               maxBlockFrames: maxBlockFrames, options: options)
        let radio = try Self.radio(for: compiled, documentFolder: folder.path, live: progressive)
        if progressive {
            do { try radio.start() } catch { throw Failure(lines: ["radio: \(error)"]) }
        }
        return Loaded(document: document, compiled: compiled, sounds: sounds, diagnostics: result.diagnostics,
                      decoding: decoding, radio: radio)
    }
}
