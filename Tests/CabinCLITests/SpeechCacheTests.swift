import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// The speech cache (`$CABIN_SPEECH_CACHE`): a second run reads the prompts the first one
/// synthesized, and renders exactly what a synthesis gives.
@Suite struct SpeechCacheTests {
    static let session = """
        { "cabin": 1, "title": "Prompts", "duration": "5s",
          "cues": [
            { "at": "0.2s", "say": "Halfway to your destination" },
            { "at": "3s", "say": "Journey complete", "gain": -3 }
          ] }
        """

    @Test func aCachedPromptRendersBitIdenticalToASynthesizedOne() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-speech-cache")
        let session = dir.appendingPathComponent("s.json").path
        try Data(Self.session.utf8).write(to: URL(fileURLWithPath: session))
        let cache = dir.appendingPathComponent("cache").path
        func render(_ name: String, cache: String) throws -> Data {
            let out = dir.appendingPathComponent(name).path
            let result = try ExternalTool.cabin(["render", session, "-o", out, "--bits", "32f"],
                                                environment: ["CABIN_SPEECH_CACHE": cache])
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: out))
        }
        let uncached = try render("off.wav", cache: "off")
        #expect(!FileManager.default.fileExists(atPath: cache), "off keeps nothing")
        let first = try render("first.wav", cache: cache)
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".speech") }
        #expect(kept.count == 2, "one file per prompt: \(kept)")
        let second = try render("second.wav", cache: cache)
        #expect(first == uncached)
        #expect(second == uncached)
        // The prompt is heard: not a silent render.
        let samples = uncached.suffix(5 * 48000 * 8).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect((samples.map(abs).max() ?? 0) > 0.05)
    }

    @Test func entriesRoundTripAndAnyOtherKeyOrBrokenFileIsAMiss() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-speech-cache-unit")
        let cache = SpeechCache(directory: dir.appendingPathComponent("nested/speech").path)
        let key = SpeechCache.key(voice: "flite:slt", text: "Hello", sampleRate: 48000)
        let entry = SpeechCache.Entry(samples: [0.5, -0.25, Float.leastNonzeroMagnitude, 1e-3], channelCount: 1, loudness: -21.5)
        #expect(cache.entry(forKey: key) == nil)
        cache.store(entry, forKey: key)
        #expect(cache.entry(forKey: key) == entry)
        #expect(cache.entry(forKey: SpeechCache.key(voice: "flite:slt", text: "Hello", sampleRate: 44100)) == nil)
        let silent = SpeechCache.Entry(samples: [0, 0], channelCount: 2, loudness: nil)
        let other = SpeechCache.key(voice: "espeak:de", text: "Hallo", sampleRate: 48000)
        cache.store(silent, forKey: other)
        #expect(cache.entry(forKey: other) == silent)
        // A truncated file is ignored (and the prompt would be synthesized again).
        let file = cache.path(forKey: key)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        try bytes.prefix(bytes.count - 2).write(to: URL(fileURLWithPath: file))
        #expect(cache.entry(forKey: key) == nil)
    }
}
