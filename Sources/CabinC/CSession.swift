import CabinHaptics
import CabinIO
import CabinJSON
import CabinPlayback
import CabinRadio
import CabinSession
import FoundationEssentials

/// A session document read and checked, ready to play or render at any rate: what
/// `cabin_session` points to. Immutable.
struct CSession {
    var bytes: [UInt8]
    /// The name diagnostics give (the path, `preset drive`, `document`).
    var name: String
    /// Resolves the document's relative sound paths.
    var folder: URL
    var title: String
    var duration: Double
    var warnings: [String]
    var document: SessionDocument
    var options: CLoadOptions

    /// Reads and checks `bytes` as `SessionLoader` will (the same references, so an unknown
    /// sound or pattern is an error here, not at play).
    init(bytes: [UInt8], name: String, folder: URL, options: CLoadOptions) throws(CFailure) {
        let references = SessionReferences.checking(documentFolder: folder, library: options.library,
                                                    patterns: options.patterns, stations: [:])
        let result = SessionReader.read(bytes, file: name, references: references)
        guard let document = result.document else {
            throw CFailure(.document, result.diagnostics.map(\.description).joined(separator: "\n"))
        }
        self.bytes = bytes
        self.name = name
        self.folder = folder
        self.document = document
        self.title = document.title ?? name
        self.duration = document.duration
        self.warnings = result.diagnostics.warnings.map(\.description)
        self.options = options
    }

    /// Loads the sounds and patterns and compiles at `sampleRate` (`progressive`: for live play).
    func load(sampleRate: Double, maxBlockFrames: Int, progressive: Bool) throws(SessionLoader.Failure) -> SessionLoader.Loaded {
        _ = radioRegistered
        return try SessionLoader.load(bytes: bytes, name: name, folder: folder, sampleRate: sampleRate, maxBlockFrames: maxBlockFrames,
                               library: options.library, patterns: options.patterns, options: options.compile,
                               progressive: progressive)
    }

    /// `cabin_session_info`'s object.
    var info: JSONValue {
        .object([
            ("title", .string(title)),
            ("duration", .number(duration)),
            ("buses", .array(document.buses.map { .string($0.name) })),
            ("parameters", .array(document.parameters.map {
                .object([("name", .string($0.name)), ("value", .number($0.value)), ("min", .number($0.min)), ("max", .number($0.max))])
            })),
            ("events", .array(document.focus == nil ? [] : FocusEvent.allCases.map { .string($0.rawValue) })),
            ("warnings", .array(warnings.map { .string($0) })),
        ])
    }
}

/// The options every load takes (`cabin_session_load_*`'s `options_json`):
/// `{"sounds": DIR, "patterns": DIR, "haptic_strength": "off|light|medium|strong", "seed": N}`.
struct CLoadOptions {
    var library: SoundLibrary? = .found
    var patterns: HapticPatternLibrary? = .locate()
    var compile = SessionCompileOptions()

    init(json: UnsafePointer<CChar>?) throws(CFailure) {
        guard let object = try CJSON.object(json, "options_json") else { return }
        for member in object.members {
            let value = member.value
            switch member.key {
            case "sounds":
                let path = try CJSON.string(value, "options_json: sounds")
                do { library = try SoundLibrary(root: URL(fileURLWithPath: path)) } catch {
                    throw CFailure(.notFound, "options_json: sounds: \(error)")
                }
            case "patterns":
                patterns = HapticPatternLibrary(root: URL(fileURLWithPath: try CJSON.string(value, "options_json: patterns")))
            case "haptic_strength":
                let text = try CJSON.string(value, "options_json: haptic_strength")
                guard let strength = HapticStrength(rawValue: text) else {
                    throw CFailure(.argument, "options_json: haptic_strength must be off, light, medium or strong, not \"\(text)\"")
                }
                compile.hapticStrength = strength
            case "seed":
                guard let seed = value.numberValue, seed >= 0, seed < 1.8e19, seed == seed.rounded() else {
                    throw CFailure(.argument, "options_json: seed must be a whole number from 0, not \(value.excerpt)")
                }
                compile.seed = UInt64(seed)
            default:
                throw CFailure(.argument, "options_json: unknown option \"\(member.key)\" (it takes sounds, patterns, haptic_strength, seed)")
            }
        }
    }
}

/// Reading the JSON a C caller passes.
enum CJSON {
    /// The JSON object `pointer` holds; nil for NULL.
    static func object(_ pointer: UnsafePointer<CChar>?, _ what: String) throws(CFailure) -> JSONObject? {
        guard let text = try cOptionalString(pointer, what) else { return nil }
        let (value, diagnostics) = JSONParser.parse(text, file: what)
        guard let value, !diagnostics.hasErrors else {
            throw CFailure(.argument, diagnostics.errors.map(\.description).joined(separator: "\n"))
        }
        guard let object = value.objectValue else { throw CFailure(.argument, "\(what) must be a JSON object, not \(value.typeName)") }
        return object
    }

    static func string(_ value: JSONValue, _ what: String) throws(CFailure) -> String {
        guard let string = value.stringValue else { throw CFailure(.argument, "\(what) must be a string, not \(value.typeName)") }
        return string
    }
}

typealias CSessionHandle = CHandle<CSession>

/// Implements `cabin_session_load_file(path, options_json, out)`: reads and checks the session document at
/// `path`. See include/cabin.h.
@_cdecl("cabin_session_load_file")
public func cabin_session_load_file(_ path: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                                    _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let path = try cString(path, "path")
        let options = try CLoadOptions(json: options)
        let bytes: [UInt8]
        do { bytes = try DocumentFile.read(path, limit: SessionReader.maximumBytes, kind: "session document") } catch {
            throw CFailure(.io, "\(error)")
        }
        return try CSession(bytes: bytes, name: path, folder: URL(fileURLWithPath: path).deletingLastPathComponent(),
                            options: options)
    }
}

/// Implements `cabin_session_load_json(json, folder, options_json, out)`: reads and checks a session document
/// given as JSON text. See include/cabin.h.
@_cdecl("cabin_session_load_json")
public func cabin_session_load_json(_ json: UnsafePointer<CChar>?, _ folder: UnsafePointer<CChar>?,
                                    _ options: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let text = try cString(json, "json")
        let folder = try cOptionalString(folder, "folder") ?? "."
        let options = try CLoadOptions(json: options)
        return try CSession(bytes: Array(text.utf8), name: "document", folder: URL(fileURLWithPath: folder), options: options)
    }
}

/// Implements `cabin_session_load_preset(name, preset_options_json, options_json, out)`: makes a preset's
/// session with its options. See include/cabin.h.
@_cdecl("cabin_session_load_preset")
public func cabin_session_load_preset(_ name: UnsafePointer<CChar>?, _ presetOptions: UnsafePointer<CChar>?,
                                      _ options: UnsafePointer<CChar>?, _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    cNew(out) { () throws(CFailure) in
        let name = try cString(name, "name")
        var values: [String: String] = [:]
        for member in try CJSON.object(presetOptions, "preset_options_json")?.members ?? [] {
            switch member.value.kind {
            case .string(let s): values[member.key] = s
            case .number(let n): values[member.key] = n.text
            case .bool(let b): values[member.key] = b ? "true" : "false"
            default: throw CFailure(.argument, "preset_options_json: \(member.key) must be a string or a number, not \(member.value.typeName)")
            }
        }
        let options = try CLoadOptions(json: options)
        let document: SessionDocument
        do { document = try SessionPresets.make(name, options: values) } catch {
            throw CFailure(SessionPresets.named(name) == nil ? .notFound : .argument, "\(error)")
        }
        return try CSession(bytes: Array(document.json().utf8), name: "preset \(name)", folder: URL(fileURLWithPath: "."),
                            options: options)
    }
}

/// Implements `cabin_session_info(session, out_json)`: the session's title, duration, buses, parameters, live
/// events and warnings, as JSON. See include/cabin.h.
@_cdecl("cabin_session_info")
public func cabin_session_info(_ session: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    cCall { () throws(CFailure) in
        let session = try CSessionHandle.value(session, "session")
        try cStore(cCopy(session.info.serialized(pretty: false)), out, "out")
    }
}

/// Implements `cabin_session_json(session, out_json)`: the session document itself, as JSON. See
/// include/cabin.h.
@_cdecl("cabin_session_json")
public func cabin_session_json(_ session: OpaquePointer?, _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    cCall { () throws(CFailure) in
        let session = try CSessionHandle.value(session, "session")
        try cStore(cCopy(session.document.json()), out, "out")
    }
}

/// Implements `cabin_session_free(session)`: releases a session (players and renderers keep what they need).
/// See include/cabin.h.
@_cdecl("cabin_session_free")
public func cabin_session_free(_ session: OpaquePointer?) {
    CSessionHandle.release(session)
}

/// The radio registered with the loader once, at the library's first load: a C or Python
/// program plays the radio as `cabin` does.
private let radioRegistered: Void = RadioStations.register()
