import CabinJSON
import CabinIO
import CabinSession
import CabinSoundDesign
import FoundationEssentials

extension SessionReferences {
    /// The checks for a document in `documentFolder`: library sounds in `library`, library
    /// patterns in `patterns`, files beside the document. The loaders use the same checks
    /// (`SoundLibrary.problem(with:)`, `HapticPatternLibrary.problem(with:)`,
    /// `SessionReferences.fileProblem`), so what validates is what loads. `stations` are the
    /// user's stations by name (`station:NAME`), to their URLs.
    ///
    /// Thread: control thread (file system look-ups).
    public static func checking(documentFolder: URL, library: SoundLibrary?,
                                patterns: HapticPatternLibrary?, stations: [String: String] = [:]) -> SessionReferences {
        SessionReferences(
            sound: { reference in
                switch reference {
                case .synth, .station: return nil  // a station is checked when it connects
                case .playlist(let path): return playlistProblem(path, in: documentFolder)
                case .generated(let name): return SoundGenerators.problem(with: name)
                case .file(let path): return fileProblem(path, in: documentFolder, kind: "sound file")
                case .library(let name):
                    guard let library else {
                        return SoundLibrary.absent(name)
                    }
                    return library.problem(with: name)
                }
            },
            haptic: { reference in
                switch reference {
                case .file(let path): return fileProblem(path, in: documentFolder, kind: "pattern file")
                case .library(let name):
                    guard let patterns else {
                        return HapticPatternLibrary.absent(name)
                    }
                    return patterns.problem(with: name)
                }
            },
            stations: stations)
    }

    /// Why `path` (relative to `folder`) is not a readable file inside `folder`, or nil.
    /// Links are followed to where they really lead: the text of a path cannot leave the
    /// folder (the reader refuses `..`), and neither may a link inside it
    /// (`link.wav -> ../outside/secret.wav`, `sub -> /elsewhere`).
    static func fileProblem(_ path: String, in folder: URL, kind: String) -> String? {
        let full = folder.appendingPathComponent(path).path
        let info: FileStatus
        do { info = try FileStatus(path: full) } catch {
            return error.isNoSuchFile ? "\(path): no such \(kind) in \(folder.path)" : "\(path): \(error.reason)"
        }
        if info.isFolder { return "\(path): is a folder, not a \(kind)" }
        guard let real = realPath(full), let base = realPath(folder.path) else { return nil }
        if !real.hasPrefix(base == "/" ? "/" : base + "/") {
            return "\(path): leads outside the document's folder (to \(real)); copy the file into the document's folder instead"
        }
        return nil
    }

    /// Why playlist `path` (a folder ending in `/` or a playlist file; absolute, or relative
    /// to `folder`) cannot be read, or nil. Its tracks are checked as they play.
    static func playlistProblem(_ path: String, in folder: URL) -> String? {
        let full = playlistPath(path, in: folder.path)
        let info: FileStatus
        do { info = try FileStatus(path: full) } catch {
            return error.isNoSuchFile ? "\(path): no such \(path.hasSuffix("/") ? "folder" : "playlist")" : "\(path): \(error.reason)"
        }
        let isFolder = info.isFolder
        if path.hasSuffix("/") && !isFolder { return "\(path): is not a folder" }
        if !path.hasSuffix("/") && isFolder { return "\(path): is a folder; write it with a trailing / (\(path)/)" }
        if !FileStatus.isReadable(full) { return "\(path): permission denied" }
        return nil
    }

    /// Playlist `path` as the document means it: absolute as given, else under `folder`
    /// (CabinRadio's `PlaylistSource.resolve`).
    package static func playlistPath(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") ? path : (folder.hasSuffix("/") ? folder : folder + "/") + path
    }

    /// The path with every link resolved (`FileStatus.resolvedPath`), or nil.
    public static func realPath(_ path: String) -> String? { FileStatus.resolvedPath(path) }
}

extension SoundLibrary {
    /// Why library sound `name` cannot be found when there is no library at all.
    static func absent(_ name: String) -> String {
        if let root = locate() {
            do { _ = try SoundLibrary(root: root) } catch { return "\(name): the sound library cannot be read: \(error.message)" }
            return "\(name): no sound library was given (the library is at \(root.path))"
        }
        return "\(name): no sound library found (looked in \(ResourceLocator.searched("Sounds", environment: "CABIN_SOUNDS")))"
    }

    /// Why `name` is not in the library, or nil: with the name meant when one is close, else
    /// the sounds of the same group, else the library's groups (`ambient/`, `engine/`, …).
    public func problem(with name: String) -> String? {
        guard manifest.entry(named: name) == nil else { return nil }
        let names = manifest.sounds.map(\.name)
        if let guess = KeySuggestion.closest(to: name, in: names) ?? names.first(where: { $0.hasSuffix("/" + name) }) {
            return "\(KeySuggestion.shortened(name)): not in the sound library (did you mean \(guess)?)"
        }
        let group = name.split(separator: "/").first.map { String($0) + "/" } ?? name
        let near = names.filter { $0.hasPrefix(group) }
        let hint: String
        if near.isEmpty {
            let groups = Set(names.compactMap { $0.split(separator: "/").first.map { String($0) + "/" } }).sorted()
            hint = groups.isEmpty ? "the library is empty" : "its sounds are in \(groups.joined(separator: ", "))"
        } else {
            hint = "try \(near.prefix(6).joined(separator: ", "))"
        }
        return "\(KeySuggestion.shortened(name)): not in the sound library (\(hint))"
    }
}

extension HapticPatternLibrary {
    /// Why library pattern `name` cannot be found when there is no library at all.
    static func absent(_ name: String) -> String {
        if let library = locate() { return "\(name): no haptic pattern library was given (the library is at \(library.root.path))" }
        return "\(name): no haptic pattern library found (looked in \(ResourceLocator.searched("Patterns/haptics", environment: "CABIN_PATTERNS")))"
    }

    /// Why `name` is not in the library (with the name meant, when one is close), or nil.
    public func problem(with name: String) -> String? {
        guard !FileManager.default.fileExists(atPath: url(for: name).path) else { return nil }
        let names = self.names
        if let guess = KeySuggestion.closest(to: name, in: names) {
            return "\(KeySuggestion.shortened(name)): not in the haptic pattern library (did you mean \(guess)?)"
        }
        let hint = names.isEmpty ? "the library at \(root.path) is empty" : "the library has \(names.joined(separator: ", "))"
        return "\(KeySuggestion.shortened(name)): not in the haptic pattern library (\(hint))"
    }
}
