import CabinAudio
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

    /// The library whose patterns are the `.ahap` files in `root`.
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
/// `ResolvedHaptics/failures` and silences its cues, not the session.
///
/// Thread: control thread only (file I/O).
public enum SessionHapticLoader {
    ///
    /// With `sampleRate`, a pattern's own sound (AHAP `AudioCustom`/`AudioContinuous`
    /// events, `HapticPatternAudio`) is rendered at that rate into `ResolvedHaptics/audio`
    /// for its cues to play on their bus; a waveform that cannot be loaded silences that
    /// sound with its located error in `ResolvedHaptics/audioFailures`.
    public static func load(_ document: SessionDocument, documentFolder: URL,
                            library: HapticPatternLibrary?, sampleRate: Double? = nil) -> ResolvedHaptics {
        var resolved = ResolvedHaptics()
        for text in document.hapticPatternsToLoad {
            switch read(text, documentFolder: documentFolder, library: library) {
            case .success(let (pattern, file)):
                resolved.patterns[text] = HapticCompiler.compile(pattern, options: HapticCompileOptions(strength: document.hapticStrength))
                guard let sampleRate, HapticPatternAudio.hasAudio(pattern) else { continue }
                let loaded = HapticWaveformLoader.load(pattern, patternFile: file, sampleRate: sampleRate)
                // An error, or the warning of a missing file: either way the sound is silent, said in one line.
                if let problem = loaded.diagnostics.errors.first ?? loaded.diagnostics.all.first { resolved.audioFailures[text] = problem.description }
                let stereo = HapticPatternAudio.synthesize(pattern, waveforms: loaded.waveforms, sampleRate: sampleRate)
                if !stereo.isEmpty { resolved.audio[text] = AudioBuffer(samples: stereo, channelCount: 2, sampleRate: sampleRate) }
            case .failure(let problem): resolved.failures[text] = problem.message
            }
        }
        return resolved
    }

    struct Problem: Error { var message: String }

    static func load(_ text: String, documentFolder: URL, library: HapticPatternLibrary?,
                     strength: HapticStrength = .strong) -> Result<CompiledHaptics, Problem> {
        read(text, documentFolder: documentFolder, library: library).map {
            HapticCompiler.compile($0.pattern, options: HapticCompileOptions(strength: strength))
        }
    }

    /// The pattern `text` names, read leniently, and the file it came from.
    static func read(_ text: String, documentFolder: URL,
                     library: HapticPatternLibrary?) -> Result<(pattern: HapticPattern, file: String), Problem> {
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
        return .success((pattern, url.path))
    }
}
