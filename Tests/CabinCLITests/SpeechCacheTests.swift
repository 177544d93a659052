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

    /// A folder holding `document`, and a function rendering it there (`render(NAME, cache:)`:
    /// the bytes of `cabin render … -o NAME --bits 32f` with `CABIN_SPEECH_CACHE` = cache).
    static func renderer(_ document: String, folder: String) throws
        -> (URL, (String, String) throws -> Data)
    {
        let dir = try TestEnvironment.temporaryDirectory(folder)
        let session = dir.appendingPathComponent("session.json").path
        try Data(document.utf8).write(to: URL(fileURLWithPath: session))
        return (dir, { name, cache in
            let out = dir.appendingPathComponent(name).path
            let result = try ExternalTool.cabin(["render", session, "-o", out, "--bits", "32f"],
                                                environment: ["CABIN_SPEECH_CACHE": cache])
            #expect(result.status == 0, "\(result.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: out))
        })
    }

    @Test func aCachedPromptRendersBitIdenticalToASynthesizedOne() throws {
        let (dir, render) = try Self.renderer(Self.session, folder: "cabin-speech-cache")
        let cache = dir.appendingPathComponent("cache").path
        let uncached = try render("off.wav", "off")
        #expect(!FileManager.default.fileExists(atPath: cache), "off keeps nothing")
        let first = try render("first.wav", cache)
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".speech") }
        #expect(kept.count == 2, "one file per prompt: \(kept)")
        let second = try render("second.wav", cache)
        #expect(first == uncached)
        #expect(second == uncached)
        // The prompt is heard: not a silent render.
        let samples = uncached.suffix(5 * 48000 * 8).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect((samples.map(abs).max() ?? 0) > 0.05)
    }

    /// A synthesized layer under a loudness target: its measured loudness sets the master
    /// gain, and is kept for the next run.
    static let synthSession = """
        { "cabin": 1, "title": "Engine", "duration": "3s", "loudness": -20,
          "layers": { "engine": { "bus": "engine", "sound": "synth:engine?cylinders=8&rpm=900", "loop": true } },
          "cues": [ { "at": "0s", "start": "engine" } ] }
        """

    @Test func aSynthsKeptLoudnessRendersBitIdenticalToAMeasuredOne() throws {
        let (dir, render) = try Self.renderer(Self.synthSession, folder: "cabin-synth-loudness-cache")
        let cache = dir.appendingPathComponent("cache").path
        let measured = try render("off.wav", "off")
        let first = try render("first.wav", cache)
        let kept = try FileManager.default.contentsOfDirectory(atPath: cache)
        #expect(kept.count == 1, "one entry for the one synth: \(kept)")
        let second = try render("second.wav", cache)
        #expect(first == measured)
        #expect(second == measured)
        // A kept figure that differs from the measured one moves the master gain: make the
        // entry say 6 dB more and the render must change (so the entry is really read).
        // The entry: "CABINSPEECH1\n", key length (UInt32) and key, channels, has-loudness,
        // then the loudness's Float64 bits, little-endian.
        let file = URL(fileURLWithPath: cache).appendingPathComponent(try #require(kept.first))
        var bytes = [UInt8](try Data(contentsOf: file))
        let keyLength = Int(bytes[13]) | Int(bytes[14]) << 8 | Int(bytes[15]) << 16 | Int(bytes[16]) << 24
        let at = 13 + 4 + keyLength + 8
        let bits = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
        let forged = (Double(bitPattern: bits) + 6).bitPattern
        for i in 0..<8 { bytes[at + i] = UInt8(truncatingIfNeeded: forged >> (8 * i)) }
        try Data(bytes).write(to: file)
        #expect(try render("forged.wav", cache) != measured)
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
