import CabinHaptics
import CabinIO
import CabinSession
import FoundationEssentials

/// The built-in haptic pattern library: a folder of `NAME.ahap` files (normally
/// `Patterns/haptics/` in the package).
///
/// Thread: control thread only (file I/O).
public struct HapticPatternLibrary: Sendable {
    /// The folder holding the patterns.
    public let root: URL

    public init(root: URL) { self.root = root }

    /// Where the library is: `$CABIN_PATTERNS`, else the nearest `Patterns/haptics` above
    /// the running executable (a build inside the package), else
    /// `/usr/share/cabin/Patterns/haptics`; `nil` when none exists.
    public static func locate() -> HapticPatternLibrary? {
        ResourceLocator.find("Patterns/haptics", containing: ".", environment: "CABIN_PATTERNS").map(HapticPatternLibrary.init)
    }

    /// The file of a library pattern: `root/NAME.ahap`.
    public func url(for name: String) -> URL { root.appendingPathComponent("\(name).ahap") }

    /// The library's pattern names, sorted.
    public var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .filter { $0.hasSuffix(".ahap") }.map { String($0.dropLast(5)) }.sorted()
    }
}

/// Loads and compiles every haptic pattern a session's cues name: library names from the
/// ``HapticPatternLibrary``, paths relative to the document's folder. Patterns are read
/// leniently (as Core Haptics loads them); a pattern that cannot be read is one line in
/// ``ResolvedHaptics/failures`` and silences its cues, not the session.
///
/// Thread: control thread only (file I/O).
public enum SessionHapticLoader {
    public static func load(_ document: SessionDocument, documentFolder: URL,
                            library: HapticPatternLibrary?) -> ResolvedHaptics {
        var resolved = ResolvedHaptics()
        for text in document.hapticPatternsToLoad {
            switch load(text, documentFolder: documentFolder, library: library, strength: document.hapticStrength) {
            case .success(let compiled): resolved.patterns[text] = compiled
            case .failure(let problem): resolved.failures[text] = problem.message
            }
        }
        return resolved
    }

    struct Problem: Error { var message: String }

    static func load(_ text: String, documentFolder: URL, library: HapticPatternLibrary?,
                     strength: HapticStrength = .strong) -> Result<CompiledHaptics, Problem> {
        let url: URL
        switch HapticReference.parse(text) {
        case .failure(let problem): return .failure(Problem(message: problem.message))
        case .success(.file(let path)):
            if let problem = SessionReferences.fileProblem(path, in: documentFolder, kind: "pattern file") {
                return .failure(Problem(message: problem))
            }
            url = documentFolder.appendingPathComponent(path)
        case .success(.library(let name)):
            guard let library else {
                return .failure(Problem(message: HapticPatternLibrary.absent(name)))
            }
            url = library.url(for: name)
            if let problem = library.problem(with: name) { return .failure(Problem(message: problem)) }
        }
        let data: [UInt8]
        do { data = try DocumentFile.read(url.path, kind: "pattern") } catch { return .failure(Problem(message: error.description)) }
        let result = HapticReader.read(data, file: url.path)
        guard let pattern = result.pattern else {
            let first = result.diagnostics.errors.first.map(\.description) ?? "\(url.path): not a haptic pattern"
            return .failure(Problem(message: first))
        }
        return .success(HapticCompiler.compile(pattern, options: HapticCompileOptions(strength: strength)))
    }
}
