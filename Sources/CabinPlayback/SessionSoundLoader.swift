import CabinAudio
import CabinIO
import CabinSession
import CabinSoundDesign
import Dispatch
import FoundationEssentials
import Synchronization

/// Loads every sound a session refers to: library names through the manifest, paths
/// relative to the document's folder; decoded, resampled once to the session's rate with
/// soxr, with their loudness trim and loop points.
///
/// Each sound's samples are held once, in a `SampleStorage` (16-bit for 16-bit and lossy
/// sources, floats otherwise) that the mixer plays without copying. `loadProgressively`
/// returns once the first second of every sound is decoded and decodes the rest in the
/// background while the session plays; `load` decodes everything first (offline render).
///
/// A sound that cannot be loaded is recorded in `ResolvedSounds.failures` with one line
/// naming the file and the cause; it stops the layers and cues that use it, not the session.
///
/// Thread: control thread only (file I/O, allocation).
public enum SessionSoundLoader {
    /// Decodes every sound completely.
    public static func load(_ document: SessionDocument, documentFolder: URL, library: SoundLibrary?,
                            sampleRate: Double) -> ResolvedSounds {
        let (resolved, decoding) = load(document, documentFolder: documentFolder, library: library,
                                        sampleRate: sampleRate, initialSeconds: nil)
        decoding.waitUntilDone()
        return resolved
    }

    /// Decodes the first `initialSeconds` of every sound that may be heard within
    /// `deferral` seconds of `start` (all of a shorter one), and everything else in the
    /// background, so playback can start at once; what is not decoded yet plays as silence
    /// (the decoder stays far ahead of any voice). A sound only one-shot cues after
    /// `start + deferral` play (`SessionDocument.soundsFirstHeard(after:)`: the drive's
    /// prompts and chimes, minutes in) is opened but not decoded before playback starts.
    public static func loadProgressively(_ document: SessionDocument, documentFolder: URL, library: SoundLibrary?,
                                         sampleRate: Double, initialSeconds: Double = 1, startingAt start: Double = 0,
                                         deferral: Double = 3) -> (ResolvedSounds, SoundDecoding) {
        load(document, documentFolder: documentFolder, library: library, sampleRate: sampleRate,
             initialSeconds: initialSeconds, deferred: document.soundsFirstHeard(after: start + deferral))
    }

    private static func load(_ document: SessionDocument, documentFolder: URL, library: SoundLibrary?,
                             sampleRate: Double, initialSeconds: Double?,
                             deferred: Set<String> = []) -> (ResolvedSounds, SoundDecoding) {
        // Speech is synthesized on its own thread (espeak-ng is used by one thread at a
        // time) while files open and decode in parallel (libsndfile handles and soxr states
        // are independent): what a session needs at launch is ready sooner.
        let spoken = Mutex(ResolvedSounds())
        let alongside = DispatchGroup()
        // The synthesized sources' loudness (a few seconds of each rendered and measured)
        // is worked out beside the decoding too.
        let synthLoudness = Mutex<[String: Double]>([:])
        DispatchQueue.global(qos: .userInitiated).async(group: alongside) {
            let measured = SynthLoudness.measure(document, sampleRate: sampleRate)
            synthLoudness.withLock { $0 = measured }
        }
        if !document.speechToSynthesize.isEmpty {
            DispatchQueue.global(qos: .userInitiated).async(group: alongside) {
                var speech = ResolvedSounds()
                loadSpeech(document, sampleRate: sampleRate, referenceLoudness: library?.manifest.referenceLoudness ?? -23,
                           into: &speech)
                spoken.withLock { $0 = speech }
            }
        }
        let references = document.soundsToLoad
        let results = Mutex([Result<(LoadedSound, SoundDecodeJob), LoadError>?](repeating: nil, count: references.count))
        DispatchQueue.concurrentPerform(iterations: references.count) { i in
            let result = Result { () throws(LoadError) -> (LoadedSound, SoundDecodeJob) in
                let (sound, job) = try open(references[i], documentFolder: documentFolder, library: library, sampleRate: sampleRate)
                let deferring = deferred.contains(references[i].description)
                let target = deferring ? 0 : initialSeconds.map { Int($0 * sampleRate) } ?? job.storage.frameCount
                do throws(LoadError) { try job.decode(upTo: target) } catch {
                    job.close()
                    throw error
                }
                return (sound, job)
            }
            results.withLock { $0[i] = result }
        }
        alongside.wait()
        var resolved = spoken.withLock { $0 }
        resolved.referenceLoudness = library?.manifest.referenceLoudness ?? -23
        resolved.synthLoudness = synthLoudness.withLock { $0 }
        var jobs: [SoundDecodeJob] = []
        for (reference, result) in zip(references, results.withLock { $0 }) {
            switch result {
            case .success(let (sound, job)):
                resolved.sounds[reference.description] = sound
                if sound.samples.isComplete { job.close() } else { jobs.append(job) }
            case .failure(let error): resolved.failures[reference.description] = error.description
            case nil: break
            }
        }
        guard !jobs.isEmpty else { return (resolved, .done) }
        let decoding = SoundDecoding()
        decoding.start(jobs)
        return (resolved, decoding)
    }

    /// Speaks every `say` text (`SpeechVoices`: Flite's `slt` for English by default,
    /// espeak-ng for other languages; the library's polish), resampled to
    /// the session's rate and trimmed to the library's reference loudness. When speech is
    /// not available, each text is recorded as a failure and its cue uses its fallback.
    static func loadSpeech(_ document: SessionDocument, sampleRate: Double, referenceLoudness: Double,
                           into resolved: inout ResolvedSounds) {
        let texts = document.speechToSynthesize
        guard !texts.isEmpty else { return }
        var voices: [String: any SpeechSource & Sendable] = [:]
        let cache = SpeechCache.standard()
        for speech in texts {
            let voice = speech.voice ?? SpeechVoices.defaultVoice
            let key = SpeechCache.key(voice: voice, text: speech.text, sampleRate: sampleRate)
            if let kept = cache?.entry(forKey: key) {
                // Exactly the samples and loudness a synthesis gives (same build, voice, rate).
                let buffer = AudioBuffer(samples: kept.samples, channelCount: kept.channelCount, sampleRate: sampleRate)
                let loudness = kept.loudness ?? referenceLoudness
                resolved.sounds[speech.soundKey] = LoadedSound(buffer: buffer, trim: referenceLoudness - loudness,
                                                               loudness: loudness)
                continue
            }
            do {
                let synthesizer: any SpeechSource & Sendable
                if let known = voices[voice] { synthesizer = known } else {
                    synthesizer = try SpeechVoices.synthesizer(for: voice)
                    voices[voice] = synthesizer
                }
                let raw = try synthesizer.speak(speech.text, sampleRate: sampleRate)
                let buffer = VoiceRecipes.polish(raw.map(Double.init), sampleRate: sampleRate)
                let integrated = try LoudnessMeter.measure(buffer).integrated
                cache?.store(.init(samples: buffer.samples, channelCount: buffer.channelCount, loudness: integrated),
                             forKey: key)
                let loudness = integrated ?? referenceLoudness
                resolved.sounds[speech.soundKey] = LoadedSound(buffer: buffer, trim: referenceLoudness - loudness,
                                                               loudness: loudness)
            } catch {
                resolved.failures[speech.soundKey] = "speech synthesis failed for \"\(speech.text)\": \(error)"
            }
        }
    }

    /// Opens the file behind `reference` and makes its storage (nothing decoded yet).
    static func open(_ reference: SoundReference, documentFolder: URL, library: SoundLibrary?,
                     sampleRate: Double) throws(LoadError) -> (LoadedSound, SoundDecodeJob) {
        switch reference {
        case .synth:
            throw LoadError(description: "\(reference): synthesized, nothing to load")
        case .station:
            throw LoadError(description: "\(reference): a live stream, played by the session's radio")
        case .playlist:
            throw LoadError(description: "\(reference): a playlist, played by the session's radio")
        case .generated:
            throw LoadError(description: "\(reference): generated while it plays, by the session's radio")
        case .file(let path):
            if let problem = SessionReferences.fileProblem(path, in: documentFolder, kind: "sound file") {
                throw LoadError(description: problem)
            }
            let url = documentFolder.appendingPathComponent(path)
            let job = try SoundDecodeJob(path: url.path, sampleRate: sampleRate)
            return (LoadedSound(samples: job.storage), job)
        case .library(let name):
            guard let library else {
                throw LoadError(description: SoundLibrary.absent(name))
            }
            guard let entry = library.manifest.entry(named: name) else {
                throw LoadError(description: library.problem(with: name) ?? "\(name): not in the sound library")
            }
            let job = try SoundDecodeJob(path: library.url(for: entry).path, sampleRate: sampleRate)
            var sound = LoadedSound(samples: job.storage, trim: entry.trim, loudness: entry.loudness)
            if let start = entry.loopStart, let end = entry.loopEnd {
                // Loop points are in the file's frames; move them to the session's rate.
                let ratio = sampleRate / job.fileSampleRate
                let frames = job.storage.frameCount
                sound.loopStart = min(frames - 1, Int((Double(start) * ratio).rounded()))
                sound.loopEnd = min(frames, Int((Double(end) * ratio).rounded()))
            }
            return (sound, job)
        }
    }

    /// Why one sound could not be loaded (one line).
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }
}
