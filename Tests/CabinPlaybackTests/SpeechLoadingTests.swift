import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// `say` cues are spoken with espeak-ng when the session loads, at the library's loudness.
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
}
