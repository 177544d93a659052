import CabinAudio
import CabinSession
import CabinSoundDesign
import Dispatch
import FoundationEssentials
import Synchronization

/// Loads every sound a session refers to: library names through the manifest, paths
/// relative to the document's folder; decoded, resampled once to the session's rate with
/// soxr, with their loudness trim and loop points.
///
/// A sound that cannot be loaded is recorded in `ResolvedSounds.failures` with one line
/// naming the file and the cause; it stops the layers and cues that use it, not the session.
///
/// Thread: control thread only (file I/O, allocation).
public enum SessionSoundLoader {
    public static func load(_ document: SessionDocument, documentFolder: URL, library: SoundLibrary?,
                            sampleRate: Double) -> ResolvedSounds {
        var resolved = ResolvedSounds()
        loadSpeech(document, sampleRate: sampleRate, referenceLoudness: library?.manifest.referenceLoudness ?? -23,
                   into: &resolved)
        // Files decode in parallel (libsndfile handles and soxr calls are independent):
        // what a session needs at launch is ready sooner.
        let references = document.soundsToLoad
        let results = Mutex([Result<LoadedSound, LoadError>?](repeating: nil, count: references.count))
        DispatchQueue.concurrentPerform(iterations: references.count) { i in
            let result = Result { () throws(LoadError) -> LoadedSound in
                try load(references[i], documentFolder: documentFolder, library: library, sampleRate: sampleRate)
            }
            results.withLock { $0[i] = result }
        }
        for (reference, result) in zip(references, results.withLock { $0 }) {
            switch result {
            case .success(let sound): resolved.sounds[reference.description] = sound
            case .failure(let error): resolved.failures[reference.description] = error.description
            case nil: break
            }
        }
        return resolved
    }

    /// Speaks every `say` text with espeak-ng (the library's voice and polish), resampled to
    /// the session's rate and trimmed to the library's reference loudness. When speech is
    /// not available, each text is recorded as a failure and its cue uses its fallback.
    static func loadSpeech(_ document: SessionDocument, sampleRate: Double, referenceLoudness: Double,
                           into resolved: inout ResolvedSounds) {
        let texts = document.speechToSynthesize
        guard !texts.isEmpty else { return }
        var voices: [String: SpeechSynthesizer] = [:]
        for speech in texts {
            do {
                let voice = speech.voice ?? SpeechSynthesizer.defaultVoice
                let synthesizer: SpeechSynthesizer
                if let known = voices[voice] { synthesizer = known } else {
                    synthesizer = try SpeechSynthesizer(voice: voice)
                    voices[voice] = synthesizer
                }
                let raw = try synthesizer.speak(speech.text, sampleRate: sampleRate)
                let buffer = VoiceRecipes.polish(raw.map(Double.init), sampleRate: sampleRate)
                let loudness = try LoudnessMeter.measure(buffer).integrated ?? referenceLoudness
                resolved.sounds[speech.soundKey] = LoadedSound(buffer: buffer, trim: referenceLoudness - loudness)
            } catch {
                resolved.failures[speech.soundKey] = "speech synthesis failed for \"\(speech.text)\": \(error)"
            }
        }
    }

    static func load(_ reference: SoundReference, documentFolder: URL, library: SoundLibrary?,
                     sampleRate: Double) throws(LoadError) -> LoadedSound {
        switch reference {
        case .synth:
            throw LoadError(description: "\(reference): synthesized, nothing to load")
        case .file(let path):
            let url = documentFolder.appendingPathComponent(path)
            return try decode(url.path, trim: 0, loop: nil, sampleRate: sampleRate)
        case .library(let name):
            guard let library else {
                throw LoadError(description: "\(name): no sound library found (set CABIN_SOUNDS to the folder with manifest.json)")
            }
            guard let entry = library.manifest.entry(named: name) else {
                let names = library.manifest.sounds.map(\.name)
                let near = names.filter { $0.hasPrefix(name.split(separator: "/").first.map(String.init) ?? name) }
                let hint = near.isEmpty ? "see 'cabin sounds list'" : "try \(near.prefix(6).joined(separator: ", "))"
                throw LoadError(description: "\(name): not in the sound library (\(hint))")
            }
            var loop: (Int, Int)?
            if let s = entry.loopStart, let e = entry.loopEnd { loop = (s, e) }
            return try decode(library.url(for: entry).path, trim: entry.trim, loop: loop, sampleRate: sampleRate)
        }
    }

    private static func decode(_ path: String, trim: Double, loop: (Int, Int)?,
                               sampleRate: Double) throws(LoadError) -> LoadedSound {
        let original: AudioBuffer
        do { original = try SoundFile.read(path) } catch { throw LoadError(description: error.description) }
        guard original.channelCount <= 2 else {
            throw LoadError(description: "\(path): \(original.channelCount) channels; Cabin plays mono and stereo sounds")
        }
        guard original.frameCount > 0 else { throw LoadError(description: "\(path): holds no audio (0 frames)") }
        let buffer: AudioBuffer
        do { buffer = try Resampler.resample(original, to: sampleRate) } catch {
            throw LoadError(description: "\(path): \(error.description)")
        }
        var sound = LoadedSound(buffer: buffer, trim: trim)
        if let (start, end) = loop {
            // Loop points are in the file's frames; move them to the session's rate.
            let ratio = sampleRate / original.sampleRate
            sound.loopStart = min(buffer.frameCount - 1, Int((Double(start) * ratio).rounded()))
            sound.loopEnd = min(buffer.frameCount, Int((Double(end) * ratio).rounded()))
        }
        return sound
    }

    /// Why one sound could not be loaded (one line).
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }
}
