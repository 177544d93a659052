import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// `say` cues are spoken when the session loads (Flite's slt for English, espeak-ng for other
/// languages), at the library's loudness.
@Suite struct SpeechLoadingTests {
    @Test func sayTextIsSynthesizedAtLoadAndLoudnessMatched() throws {
        let json = #"{ "cabin": 1, "cues": [ { "at": "1s", "say": "82 miles to Yosemite" } ] }"#
        let doc = try #require(SessionReader.read(json, file: "say.json").document)
        let resolved = SessionSoundLoader.load(doc, documentFolder: TestEnvironment.packageRoot, library: nil, sampleRate: 48000)
        #expect(resolved.failures.isEmpty, "\(resolved.failures)")
        let spoken = try #require(resolved.sounds[doc.cues[0].say!.soundKey])
        #expect(spoken.buffer.sampleRate == 48000)
        #expect(spoken.buffer.duration > 1 && spoken.buffer.duration < 5, "\(spoken.buffer.duration) s of speech")
        var trimmed = spoken.buffer
        let gain = Float(pow(10, spoken.trim / 20))
        for i in trimmed.samples.indices { trimmed.samples[i] *= gain }
        let loudness = try #require(try LoudnessMeter.measure(trimmed).integrated)
        #expect(abs(loudness - (-23)) < 0.5, "spoken at \(loudness) LUFS after its trim")
        // The session now lasts until the speech ends.
        let compiled = SessionCompiler.compile(doc, sounds: resolved, sampleRate: 48000)
        #expect(compiled.warnings.isEmpty)
        #expect(compiled.durationFrames == 48000 + FrameTime(spoken.buffer.frameCount))
    }

    /// Which engine speaks which voice name, and that each speaks.
    @Test func voicesPickTheirEngine() throws {
        #expect(try SpeechVoices.synthesizer(for: nil) is FliteSynthesizer)
        #expect(try SpeechVoices.synthesizer(for: "en-us") is FliteSynthesizer)
        #expect((try SpeechVoices.synthesizer(for: "flite:awb") as? FliteSynthesizer)?.voice == "awb")
        #expect(try SpeechVoices.synthesizer(for: "de") is SpeechSynthesizer)
        #expect(try SpeechVoices.synthesizer(for: "espeak:en-us") is SpeechSynthesizer)
        #expect(throws: SystemError.self) { try SpeechVoices.synthesizer(for: "flite:robot") }
        for voice in [nil, "de", "flite:rms"] {
            let samples = try SpeechVoices.synthesizer(for: voice).speak("Guten Tag", sampleRate: 48000)
            #expect(samples.count > 24000 && SignalAnalysis.rms(samples) > 0.01, "\(voice ?? "default")")
        }
    }

    /// Flite speaks the same text the same way whatever it said before (it reseeds its
    /// excitation noise), so a session's speech is the same in every run.
    @Test func fliteSpeechDoesNotDependOnWhatWasSaidBefore() throws {
        let slt = try FliteSynthesizer()
        let first = try slt.synthesize("Rest stop in five miles")
        _ = try slt.synthesize("Something else entirely, and longer than that.")
        #expect(try slt.synthesize("Rest stop in five miles").samples == first.samples)
    }

    /// espeak-ng draws from the same C `rand()` as Flite: speaking with espeak-ng at the same
    /// time (a session with a German `say` beside English prompts is loaded in parallel) must
    /// not change what Flite says.
    @Test func fliteSpeaksTheSameWhileEspeakSpeaks() async throws {
        let slt = try FliteSynthesizer()
        let espeak = try SpeechSynthesizer(voice: "de")
        let flite = try slt.synthesize("Rest stop in five miles").samples
        let same = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try (0..<8).allSatisfy { _ in try slt.synthesize("Rest stop in five miles").samples == flite } }
            group.addTask {
                for _ in 0..<8 { _ = try espeak.synthesize("Guten Tag, wir fahren weiter") }
                return true
            }
            var all = true
            for try await r in group { all = all && r }
            return all
        }
        #expect(same, "Flite spoke differently while espeak-ng spoke")
    }
}
