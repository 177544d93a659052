import CabinAudio
import CabinTestSupport
import CabinSession
import Foundation
import Testing

/// Sessions rendered through the compiler and runner: levels, timing, invariance.
@Suite struct SessionRenderTests {
    /// A constant mono "sound" (DC at 0.5) as a loaded file, so gains can be read off samples.
    static func dc(_ value: Float = 0.5, frames: Int = 48000, trim: Double = 0) -> LoadedSound {
        LoadedSound(buffer: AudioBuffer(samples: [Float](repeating: value, count: frames), channelCount: 1,
                                        sampleRate: 48000), trim: trim)
    }

    @Test func normalizeFalseGivesThePlainProductOfGains() throws {
        let json = """
            { "cabin": 1, "duration": "2s",
              "layers": { "hum": { "bus": "engine", "sound": "hum.wav", "loop": true, "gain": -6, "normalize": false } },
              "cues": [ { "at": 0, "start": "hum" } ] }
            """
        let compiled = try SessionRender.compile(json, sounds: ResolvedSounds(sounds: ["hum.wav": Self.dc(trim: 7)]))
        let out = SessionRender.render(compiled)
        let expected = 0.5 * pow(10, (-12.0 - 6.0) / 20)   // bus −12, layer −6; trim ignored
        for frame in [4800, 24000, 90000] {
            #expect(abs(Double(out[2 * frame]) - expected) < 1e-6, "frame \(frame): \(out[2 * frame])")
            #expect(out[2 * frame] == out[2 * frame + 1], "mono plays centred, equal in both channels")
        }
    }

    @Test func libraryTrimApplies() throws {
        let json = """
            { "cabin": 1, "duration": "1s",
              "layers": { "hum": { "bus": "voice", "sound": "ui/hum", "loop": true } },
              "cues": [ { "at": 0, "start": "hum" } ] }
            """
        let compiled = try SessionRender.compile(json, sounds: ResolvedSounds(sounds: ["ui/hum": Self.dc(trim: -6)]))
        let out = SessionRender.render(compiled)
        #expect(abs(Double(out[2 * 24000]) - 0.5 * pow(10, -6.0 / 20)) < 1e-6)
    }

    /// Each layer's level equals bus + layer gain (synth sources play at −15 dBFS RMS).
    @Test func layerLevelsMatchTheirGains() throws {
        let json = """
            { "cabin": 1, "duration": "4s", "buses": { "ambient": -18 },
              "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true, "gain": 3 } },
              "cues": [ { "at": 0, "start": "rain" } ] }
            """
        let out = SessionRender.render(try SessionRender.compile(json))
        let level = SessionRender.level(out, 24000..<192000)
        #expect(abs(level - (-15 - 18 + 3)) < 0.1, "level \(level) dBFS")
    }

    /// A cue at 1.5 s starts sounding at exactly frame 72000, whatever the block size.
    @Test(arguments: [1, 7, 64, 512])
    func cueLandsOnItsFrame(blockSize: Int) throws {
        let json = """
            { "cabin": 1, "duration": "2s",
              "layers": { "hum": { "bus": "voice", "sound": "hum.wav", "loop": true, "normalize": false } },
              "cues": [ { "at": "1.5s", "start": "hum" } ] }
            """
        let compiled = try SessionRender.compile(json, sounds: ResolvedSounds(sounds: ["hum.wav": Self.dc()]),
                                                 maxBlockFrames: blockSize)
        let out = SessionRender.render(compiled, blockSize: blockSize)
        #expect(out[2 * 71999] == 0)
        #expect(out[2 * 72000] != 0)
    }

    /// The same session, rendered with blocks of 1, 7, 64 and 512 frames, is the same bits.
    @Test func blockSizeInvariance() throws {
        let json = """
            { "cabin": 1, "duration": "3s",
              "ducking": [ { "when": "voice", "duck": ["engine", "ambient"], "by": -12, "attack": "40ms", "release": "300ms" } ],
              "parameters": { "speed": { "value": 62, "min": 0, "max": 80 } },
              "layers": {
                "engine": { "bus": "engine", "sound": "synth:brown-noise", "loop": true,
                            "pitch": { "parameter": "speed", "map": [[0, 0.7], [80, 1.4]] } },
                "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true },
                "beat": { "bus": "radio", "sound": "synth:binaural?carrier=220&beat=7", "gain": -6 }
              },
              "cues": [
                { "at": 0, "start": ["engine", "rain"], "fadeIn": "500ms" },
                { "at": "0.3s", "start": "beat", "fadeIn": "1s" },
                { "at": "0.7s", "set": "speed", "to": 10, "over": "1.1s" },
                { "at": "1.0s", "play": "synth:sine?frequency=880", "bus": "voice" },
                { "at": "1.2s", "crossfade": "rain", "to": "synth:white-noise", "over": "0.6s" },
                { "at": "2.1s", "fade": "engine", "to": -9, "over": "0.3s" },
                { "at": "2.5s", "stop": ["engine", "rain", "beat"], "fadeOut": "0.4s" }
              ] }
            """
        let reference = SessionRender.render(try SessionRender.compile(json, maxBlockFrames: 512), blockSize: 512)
        #expect(SignalAnalysis.peak(reference) > 0.01)
        for size in [1, 7, 64] {
            let other = SessionRender.render(try SessionRender.compile(json, maxBlockFrames: size), blockSize: size)
            #expect(other == reference, "block size \(size) changed the output")
        }
    }

    @Test func marksAreReportedAsTheyPass() throws {
        let json = """
            { "cabin": 1, "duration": "1s",
              "cues": [ { "at": "0.25s", "mark": "drive" }, { "at": "0.75s", "mark": "arrival" } ] }
            """
        let compiled = try SessionRender.compile(json)
        #expect(compiled.marks == [.init(frame: 12000, name: "drive"), .init(frame: 36000, name: "arrival")])
        let runner = SessionRunner(compiled)
        var block = [Float](repeating: 0, count: 2 * 12000)
        _ = block.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: 12000) }
        #expect(runner.marksReached == 0)
        _ = block.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: 1) }
        #expect(runner.marksReached == 1)
        while !runner.isFinished { _ = block.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: 12000) } }
        #expect(runner.marksReached == 2)
        #expect(runner.position == 48000)
    }

    @Test func aSessionWithoutMarksOrCommandsReportsNone() throws {
        var compiled = try SessionRender.compile(#"{ "cabin": 1, "duration": "0.5s" }"#)
        #expect(compiled.marks.isEmpty)
        compiled.commands = []
        let runner = SessionRunner(compiled)
        var block = [Float](repeating: 1, count: 2 * 24000)
        let n = block.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: 24000) }
        #expect(n == 24000)
        #expect(runner.marksReached == 0)
        #expect(block.allSatisfy { $0 == 0 })
    }

    @Test func aSoundThatFailedSilencesItsLayerNotTheSession() throws {
        let json = """
            { "cabin": 1, "duration": "1s",
              "layers": { "bad": { "bus": "engine", "sound": "missing.wav", "loop": true },
                          "good": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": 0, "start": ["bad", "good"] } ] }
            """
        let compiled = try SessionRender.compile(json, sounds: ResolvedSounds(failures: ["missing.wav": "missing.wav: no such file"]))
        #expect(compiled.warnings == ["layer \"bad\" is silent: missing.wav: no such file"])
        let out = SessionRender.render(compiled)
        #expect(SessionRender.level(out, 4800..<48000) > -40)
    }
}

@Suite struct SayVerbTests {
    static let json = """
        { "cabin": 1, "duration": "3s",
          "ducking": [ { "when": "voice", "duck": ["radio"], "by": -12 } ],
          "cues": [ { "at": "1s", "say": "82 miles to Yosemite", "fallback": "voice/halfway" } ] }
        """

    @Test func speechPlaysOnTheVoiceBusAtItsFrame() throws {
        let doc = try #require(SessionReader.read(Self.json, file: "say.json").document)
        #expect(doc.cues[0].say == Cue.Speech(text: "82 miles to Yosemite", fallback: .library("voice/halfway")))
        #expect(doc.speechToSynthesize.map(\.text) == ["82 miles to Yosemite"])
        #expect(doc.soundsToLoad == [.library("voice/halfway")])
        let spoken = LoadedSound(buffer: AudioBuffer(samples: [Float](repeating: 0.25, count: 24000), channelCount: 1, sampleRate: 48000))
        let compiled = SessionCompiler.compile(doc, sounds: ResolvedSounds(sounds: [doc.cues[0].say!.soundKey: spoken]),
                                               sampleRate: 48000)
        #expect(compiled.warnings.isEmpty)
        let out = SessionRender.render(compiled)
        #expect(out[2 * 47999] == 0)
        #expect(abs(Double(out[2 * 48000 + 2 * 400]) - 0.25) < 1e-6, "voice bus at 0 dB plays the speech as is")
    }

    @Test func fallbackWhenSpeechIsUnavailable() throws {
        let doc = try #require(SessionReader.read(Self.json, file: "say.json").document)
        let stored = LoadedSound(buffer: AudioBuffer(samples: [Float](repeating: 0.5, count: 4800), channelCount: 1, sampleRate: 48000))
        let compiled = SessionCompiler.compile(doc, sounds: ResolvedSounds(sounds: ["voice/halfway": stored]), sampleRate: 48000)
        let out = SessionRender.render(compiled)
        #expect(abs(Double(out[2 * (48000 + 400)]) - 0.5) < 1e-6)
        let silent = SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 48000)
        #expect(silent.warnings.count == 1)
    }

    @Test func sayAndPlayInOneCueIsAnError() {
        let result = SessionReader.read(#"{ "cabin": 1, "cues": [ { "at": 0, "play": "ui/horn", "say": "hi" } ] }"#, file: "x.json")
        #expect(result.diagnostics.map(\.description) == [
            "x.json:1:55: error: cues[0].say: a cue can play a sound or say a text, not both (they share \"bus\" and \"gain\")",
        ])
    }
}
