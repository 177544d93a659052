import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Session sounds are decoded straight into one `SampleStorage` each: 16-bit where the
/// source is 16-bit or lossy, floats otherwise; resampled in pieces; progressively for
/// live playback, with a late decode error reported and the sound silenced.
@Suite struct SessionSoundLoadingTests {
    /// A document with one layer playing `file` (relative to the document's folder).
    static func document(playing file: String) throws -> SessionDocument {
        let json = #"{ "cabin": 1, "layers": { "bed": { "bus": "ambient", "sound": "\#(file)", "loop": true } } }"#
        return try #require(SessionReader.read(json, file: "load.json").document)
    }

    /// A stereo 1 kHz sine at −20 dBFS made by sox.
    static func sine(_ dir: URL, _ name: String, seconds: Double = 3, rate: Int = 48000, bits: Int = 16) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try ExternalTool.check("sox", ["-n", "-r", "\(rate)", "-c", "2", "-b", "\(bits)", path,
                                       "synth", "\(seconds)", "sine", "1000", "vol", "0.1"])
        return path
    }

    static func load(_ file: String, in dir: URL, sampleRate: Double = 48000) throws -> (LoadedSound?, ResolvedSounds) {
        let resolved = SessionSoundLoader.load(try document(playing: file), documentFolder: dir, library: nil,
                                               sampleRate: sampleRate)
        return (resolved.sounds[file], resolved)
    }

    @Test func sixteenBitAndLossySourcesAreHeldAsSixteenBitExactly() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        _ = try Self.sine(dir, "tone.flac")
        let (sound, _) = try Self.load("tone.flac", in: dir)
        let loaded = try #require(sound)
        #expect(loaded.samples.format == .int16)
        #expect(loaded.samples.byteCount == 3 * 48000 * 2 * 2)
        // The same samples libsndfile decodes as floats: 16 bits hold them exactly.
        #expect(loaded.buffer == (try SoundFile.read(dir.appendingPathComponent("tone.flac").path)))

        try ExternalTool.check("opusenc", ["--quiet", dir.appendingPathComponent("tone.flac").path,
                                           dir.appendingPathComponent("tone.opus").path])
        let (opus, _) = try Self.load("tone.opus", in: dir)
        #expect(opus?.samples.format == .int16)
    }

    @Test func twentyFourBitSourcesKeepFloats() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        _ = try Self.sine(dir, "tone.wav", bits: 24)
        let (sound, _) = try Self.load("tone.wav", in: dir)
        let loaded = try #require(sound)
        #expect(loaded.samples.format == .float32)
        #expect(loaded.buffer == (try SoundFile.read(dir.appendingPathComponent("tone.wav").path)))
    }

    @Test func anotherRateIsResampledInPiecesToTheExactLength() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        _ = try Self.sine(dir, "tone.wav", seconds: 2.5, rate: 44100)
        let (sound, _) = try Self.load("tone.wav", in: dir)
        let buffer = try #require(sound).buffer
        #expect(buffer.sampleRate == 48000)
        #expect(buffer.frameCount == 120_000)  // 110 250 frames at 44.1 kHz
        // The one-shot resampler (soxr_oneshot) and the streamed one agree.
        let oneshot = try Resampler.resample(try SoundFile.read(dir.appendingPathComponent("tone.wav").path), to: 48000)
        let n = min(oneshot.samples.count, buffer.samples.count) - 2000
        let worst = (2000..<n).map { abs(oneshot.samples[$0] - buffer.samples[$0]) }.max() ?? 1
        #expect(worst < 2e-4, "worst difference \(worst) (16-bit storage: ≤ one step)")
        let left = stride(from: 2000, to: n, by: 2).map { buffer.samples[$0] }
        let frequency = try #require(SignalAnalysis.zeroCrossingFrequency(left, sampleRate: 48000))
        #expect(abs(frequency - 1000) < 0.5, "\(frequency) Hz")
    }

    @Test func progressiveLoadingReturnsWithTheFirstSecondAndFinishesInTheBackground() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        _ = try Self.sine(dir, "long.flac", seconds: 20)
        let doc = try Self.document(playing: "long.flac")
        let (resolved, decoding) = SessionSoundLoader.loadProgressively(doc, documentFolder: dir, library: nil, sampleRate: 48000)
        let storage = try #require(resolved.sounds["long.flac"]).samples
        #expect(storage.frameCount == 20 * 48000)
        #expect(storage.readyFrames >= 48000)
        decoding.waitUntilDone()
        #expect(decoding.isDone)
        #expect(storage.isComplete)
        #expect(decoding.takeFailures().isEmpty)
        #expect(storage.audioBuffer == (try SoundFile.read(dir.appendingPathComponent("long.flac").path)))
    }

    /// The rest of the sounds decode on one thread of their own ("cabin-decode") at nice +10,
    /// so the launch keeps the processor; every sound still ends whole.
    @Test func backgroundDecodingRunsOnALowerPriorityThread() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let names = ["a.flac", "b.flac", "c.flac"]
        for name in names { _ = try Self.sine(dir, name, seconds: 90) }
        let json = #"""
        { "cabin": 1, "duration": "2m",
          "layers": { "a": { "bus": "ambient", "sound": "a.flac", "loop": true },
                      "b": { "bus": "ambient", "sound": "b.flac", "loop": true },
                      "c": { "bus": "ambient", "sound": "c.flac", "loop": true } },
          "cues": [ { "at": "0s", "start": ["a", "b", "c"] } ] }
        """#
        let doc = try #require(SessionReader.read(json, file: "three.json").document)
        let ownNice = Self.niceValue(ofTask: "self")
        let (resolved, decoding) = SessionSoundLoader.loadProgressively(doc, documentFolder: dir, library: nil, sampleRate: 48000)
        // The decoding thread, while it runs (three 90 s files take it a while).
        var decoderNice: Int?
        while decoderNice == nil && !decoding.isDone {
            decoderNice = Self.tasks(named: "cabin-decode").first.map { Self.niceValue(ofTask: $0) }
        }
        decoding.waitUntilDone()
        let nice = try #require(decoderNice, "no cabin-decode thread seen while decoding")
        #expect(nice == min(19, ownNice + 10))
        #expect(decoding.takeFailures().isEmpty)
        for name in names {
            let storage = try #require(resolved.sounds[name]).samples
            #expect(storage.isComplete, "\(name)")
            #expect(storage.audioBuffer == (try SoundFile.read(dir.appendingPathComponent(name).path)), "\(name)")
        }
    }

    /// The thread ids of this process's threads called `name` (/proc/self/task/*/comm).
    static func tasks(named name: String) -> [String] {
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return ids.filter { id in
            (try? String(contentsOfFile: "/proc/self/task/\(id)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
    }

    /// A thread's nice value: field 19 of /proc/self/task/ID/stat ("self": the process's).
    static func niceValue(ofTask id: String) -> Int {
        let path = id == "self" ? "/proc/thread-self/stat" : "/proc/self/task/\(id)/stat"
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return Int.min }
        // After "pid (comm)": state is field 3, so nice (19) is the 17th after the comm.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) ?? Int.min : Int.min
    }

    /// A bed from the start, a chime at 1 s and a chime and a crossfade target minutes in.
    static func documentWithLateCues() throws -> SessionDocument {
        let json = #"""
        { "cabin": 1, "duration": "10m",
          "layers": { "bed": { "bus": "ambient", "sound": "bed.flac", "loop": true } },
          "cues": [ { "at": "0s", "start": "bed" },
                    { "at": "1s", "play": "early.flac", "bus": "ui" },
                    { "at": "5m", "play": "late.flac", "bus": "ui" },
                    { "at": "6m", "crossfade": "bed", "to": "other.flac", "over": "3s" } ] }
        """#
        return try #require(SessionReader.read(json, file: "late.json").document)
    }

    @Test func soundsOnlyLateCuesPlayAreFirstHeardLater() throws {
        let doc = try Self.documentWithLateCues()
        #expect(doc.soundsFirstHeard(after: 3) == ["late.flac"])
        #expect(doc.soundsFirstHeard(after: 0.5) == ["early.flac", "late.flac"])
        #expect(doc.soundsFirstHeard(after: 301).isEmpty)
    }

    @Test func soundsHeardLaterDecodeAfterPlaybackStartsAndEndTheSame() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        for name in ["bed.flac", "early.flac", "late.flac", "other.flac"] { _ = try Self.sine(dir, name, seconds: 4) }
        let doc = try Self.documentWithLateCues()
        // From the start: everything but the late chime has its first second before playback.
        let (resolved, decoding) = SessionSoundLoader.loadProgressively(doc, documentFolder: dir, library: nil, sampleRate: 48000)
        for name in ["bed.flac", "early.flac", "other.flac"] {
            #expect(try #require(resolved.sounds[name]).samples.readyFrames >= 48000, "\(name)")
        }
        decoding.waitUntilDone()
        #expect(decoding.takeFailures().isEmpty)
        let late = try #require(resolved.sounds["late.flac"]).samples
        #expect(late.isComplete)
        #expect(late.audioBuffer == (try SoundFile.read(dir.appendingPathComponent("late.flac").path)))
        // From 4:58 the late chime is near: it is decoded before playback starts.
        let (near, nearDecoding) = SessionSoundLoader.loadProgressively(doc, documentFolder: dir, library: nil,
                                                                        sampleRate: 48000, startingAt: 298)
        #expect(try #require(near.sounds["late.flac"]).samples.readyFrames >= 48000)
        nearDecoding.waitUntilDone()
    }

    @Test func aFileFoundTruncatedWhileDecodingIsReportedAndSilenced() throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let whole = try Self.sine(dir, "whole.flac", seconds: 20)
        let data = try Data(contentsOf: URL(fileURLWithPath: whole))
        try data.prefix(data.count / 2).write(to: dir.appendingPathComponent("cut.flac"))

        // Live: the first second plays, the cut is found in the background.
        let (resolved, decoding) = SessionSoundLoader.loadProgressively(try Self.document(playing: "cut.flac"),
                                                                        documentFolder: dir, library: nil, sampleRate: 48000)
        let storage = try #require(resolved.sounds["cut.flac"]).samples
        decoding.waitUntilDone()
        let failures = decoding.takeFailures()
        #expect(failures.count == 1)
        #expect(failures.first?.contains("cut.flac: truncated") == true, "\(failures)")
        #expect(storage.readyFrames == 0)

        // Offline: the sound fails before anything plays, with the same line.
        let (sound, offline) = try Self.load("cut.flac", in: dir)
        #expect(sound == nil)
        #expect(offline.failures["cut.flac"]?.contains("cut.flac: truncated") == true, "\(offline.failures)")
    }
}
