import CabinAudio
import CabinHaptics
import CabinIO
import CabinJSON
import CabinSession
import FoundationEssentials

/// Loads the waveform files of a pattern's `AudioCustom` events (`EventWaveformPath`,
/// relative to the pattern's folder) with the sound loaders (libsndfile, Opus, MP3 …),
/// resampled with soxr to the rate the pattern's audio plays at. A path that is absolute,
/// contains `..`, leads outside the folder through a link, or names a file that cannot be
/// decoded is one located error (file, line:column, JSON path of the `EventWaveformPath`),
/// and the event is silent. A file that is not there is a warning (rule
/// `ahap.waveform.missing`): Apple's samples travel without their `.wav`, and a preview of
/// the haptics must still play (`haptics check --strict` makes it an error).
///
/// ```swift
/// let loaded = HapticWaveformLoader.load(pattern, patternFile: "CollisionLarge.ahap", sampleRate: 48_000)
/// let stereo = HapticPatternAudio.synthesize(pattern, waveforms: loaded.waveforms, sampleRate: 48_000)
/// ```
///
/// Thread: control thread (file I/O).
public enum HapticWaveformLoader {
    /// A pattern's waveforms as loaded, and what went wrong with the others.
    public struct Loaded: Sendable {
        /// By `EventWaveformPath` as written.
        public var waveforms: [String: HapticWaveform] = [:]
        /// One line per path that could not be loaded: an error, or a warning for a missing file.
        public var diagnostics: Diagnostics
    }

    /// The rule of a missing waveform's warning.
    public static let missingRule = "ahap.waveform.missing"

    /// Loads every waveform `pattern`'s `AudioCustom` events name, once each, from the folder
    /// of `patternFile` (the pattern's path, also the diagnostics' file), resampled to
    /// `sampleRate` Hz. Never throws: a waveform that cannot be loaded is left out, with an
    /// error or a warning in `Loaded.diagnostics` (see the type).
    public static func load(_ pattern: HapticPattern, patternFile: String, sampleRate: Double) -> Loaded {
        var loaded = Loaded(diagnostics: Diagnostics(file: patternFile))
        let folder = URL(fileURLWithPath: patternFile).deletingLastPathComponent()
        var tried = Set<String>()
        for event in pattern.events where event.type == .audioCustom {
            guard let path = event.waveformPath, tried.insert(path).inserted else { continue }
            let location = event.waveformSource.location ?? SourceLocation(offset: 0, line: 1, column: 1)
            let jsonPath = event.waveformSource.path ?? .root
            func fail(_ message: String) {
                loaded.diagnostics.error(message, at: location, path: jsonPath, value: "\"\(path)\"", rule: "ahap.waveform")
            }
            if path.hasPrefix("/") {
                fail("\"\(path)\" is an absolute path: a waveform is a file relative to the pattern's folder")
                continue
            }
            if path.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
                fail("\"\(path)\" leaves the pattern's folder: \"..\" is not allowed in waveform paths")
                continue
            }
            if let problem = SessionReferences.fileProblem(path, in: folder, kind: "waveform file") {
                let message = problem.replacing("the document's folder", with: "the pattern's folder")
                if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path) { fail(message) } else {
                    loaded.diagnostics.warning(message + "; the event's sound is left out", at: location, path: jsonPath,
                                               value: "\"\(path)\"", rule: missingRule)
                }
                continue
            }
            do {
                let decoded = try SoundFile.read(folder.appendingPathComponent(path).path)
                let buffer: AudioBuffer
                do { buffer = try Resampler.resample(decoded, to: sampleRate) } catch { fail("\(path): \(error)"); continue }
                guard buffer.channelCount == 1 || buffer.channelCount == 2 else {
                    fail("\(path): \(buffer.channelCount) channels; a waveform is mono or stereo")
                    continue
                }
                loaded.waveforms[path] = HapticWaveform(samples: buffer.samples, channelCount: buffer.channelCount)
            } catch {
                fail("\(error)")
            }
        }
        return loaded
    }
}
