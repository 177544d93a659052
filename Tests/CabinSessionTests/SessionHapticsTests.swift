import CabinAudio
import CabinHaptics
import CabinSession
import Foundation
import Testing

/// Haptic cues in sessions: the haptic track, the optional haptics bus, frame alignment.
@Suite struct SessionHapticsTests {
    static func pattern(_ elements: String) -> CompiledHaptics {
        let result = HapticReader.read(Array(#"{"Version": 1, "Pattern": [\#(elements)]}"#.utf8), file: "p.ahap")
        return HapticCompiler.compile(result.pattern!)
    }

    /// A full-intensity tap and a 100 ms dull rumble.
    static let knock = pattern(#"{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}"#)
    static let rumble = pattern(#"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.1, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 0}]}}"#)
    static let haptics = ResolvedHaptics(patterns: ["knock": knock, "rumble": rumble])

    /// A click the mixer plays as is: DC at 0.5 for 100 frames.
    static let click = LoadedSound(buffer: AudioBuffer(samples: [Float](repeating: 0.5, count: 100), channelCount: 1,
                                                       sampleRate: 48000))

    static func compile(_ json: String, options: SessionCompileOptions = .init(),
                        haptics: ResolvedHaptics = haptics) throws -> CompiledSession {
        let result = SessionReader.read(json, file: "test.json")
        let doc = try #require(result.document, "\(result.diagnostics)")
        return SessionCompiler.compile(doc, sounds: ResolvedSounds(sounds: ["click.wav": click]), haptics: haptics,
                                       sampleRate: 48000, options: options)
    }

    static func track(_ compiled: CompiledSession, blockSize: Int = 512) -> [Float] {
        let track = SessionHapticTrack(compiled)
        var out = [Float](repeating: 0, count: Int(compiled.durationFrames))
        var position = 0
        out.withUnsafeMutableBufferPointer { all in
            while position < all.count {
                let n = min(blockSize, all.count - position)
                track.render(into: UnsafeMutableBufferPointer(rebasing: all[position..<(position + n)]),
                             from: FrameTime(position), frameCount: n)
                position += n
            }
        }
        return out
    }

    static func firstSound(_ samples: [Float], from: Int = 0, stride step: Int = 1) -> Int? {
        var i = from
        while i < samples.count { if samples[i] != 0 { return i / step }; i += step }
        return nil
    }

    static let session = """
        { "cabin": 1, "duration": "2s",
          "cues": [ { "at": "0.5s", "play": "click.wav", "haptic": "knock" },
                    { "at": "1.25s", "haptic": "rumble" },
                    { "at": "1.5s", "haptic": "knock" } ] }
        """

    @Test func eachCuesPatternStartsOnTheCuesFrameAsAPlayDoes() throws {
        let compiled = try Self.compile(Self.session)
        #expect(compiled.haptics.map(\.frame) == [24000, 60000, 72000])
        let track = Self.track(compiled)
        let mix = SessionRender.render(compiled)
        #expect(track.count == Int(compiled.durationFrames), "as long as the mix")
        #expect(mix.count == 2 * track.count)
        // The play and the haptic of cue 0 start on its frame, in their files.
        #expect(Self.firstSound(mix, stride: 2) == 24000)
        #expect(Self.firstSound(track) == 24000)
        #expect(track[23999] == 0)
        // Every cue: silence just before its frame, then exactly its pattern's audio from
        // the frame on (the rumble's own first sample is 0: its envelope attacks from 0).
        let knockAudio = SessionHapticTrack.clip(Self.knock, sampleRate: 48000, options: .init())
        let rumbleAudio = SessionHapticTrack.clip(Self.rumble, sampleRate: 48000, options: .init())
        #expect(knockAudio[0] != 0)
        #expect(rumbleAudio[0] == 0 && rumbleAudio[1] != 0)
        for (frame, audio) in [(24000, knockAudio), (60000, rumbleAudio), (72000, knockAudio)] {
            #expect(track[(frame - 100)..<frame].allSatisfy { $0 == 0 }, "before \(frame)")
            #expect(Array(track[frame..<(frame + audio.count)]) == audio, "from \(frame)")
        }
    }

    @Test func theTrackIsTheSameAtEveryBlockSize() throws {
        let compiled = try Self.compile(Self.session)
        let reference = Self.track(compiled, blockSize: 512)
        for block in [1, 7, 64] { #expect(Self.track(compiled, blockSize: block) == reference, "block \(block)") }
    }

    @Test func hapticsStayOutOfTheMixByDefault() throws {
        let json = #"{ "cabin": 1, "duration": "1s", "cues": [ { "at": "0.25s", "haptic": "rumble" } ] }"#
        let off = SessionRender.render(try Self.compile(json))
        #expect(off.allSatisfy { $0 == 0 })
        let on = try Self.compile(json, options: .init(hapticsBusGain: -12))
        #expect(on.config.bus(named: "haptics") != nil)
        let mix = SessionRender.render(on)
        // The bus plays the pattern's audio from the cue's frame (its first sample is 0, its
        // second is not), at the bus gain, centred.
        let audio = SessionHapticTrack.clip(Self.rumble, sampleRate: 48000, options: .init())
        #expect(Self.firstSound(mix, stride: 2) == 12001)
        let bus = Float(pow(10, -12.0 / 20))
        let left = SessionRender.left(mix, 12000..<(12000 + audio.count))
        let right = SessionRender.right(mix, 12000..<(12000 + audio.count))
        #expect(zip(left, audio).allSatisfy { abs($0 - $1 * bus) < 1e-6 })
        #expect(left == right)
    }

    @Test func theDocumentsHapticsBusGainWins() throws {
        let json = #"{ "cabin": 1, "duration": "1s", "buses": { "haptics": -20 }, "cues": [ { "at": 0, "haptic": "rumble" } ] }"#
        let compiled = try Self.compile(json, options: .init(hapticsBusGain: SessionCompileOptions.defaultHapticsBusGain))
        let bus = try #require(compiled.config.bus(named: "haptics"))
        #expect(compiled.config.buses[Int(bus.index)].gain == Decibels(-20))
        #expect(compiled.config.buses.filter { $0.name == "haptics" }.count == 1)
    }

    @Test func overlappingCuesAreScaledTogetherToTheCeiling() throws {
        let json = #"{ "cabin": 1, "duration": "1s", "cues": [ { "at": 0, "haptic": "rumble" }, { "at": 0, "haptic": "rumble" } ] }"#
        let compiled = try Self.compile(json)
        let track = SessionHapticTrack(compiled)
        let samples = Self.track(compiled)
        let ceiling = pow(10, -1.0 / 20)
        #expect(abs(Double(track.gain) - 0.5) < 1e-6, "two equal clips at full scale: halved")
        #expect(abs(Double(samples.map { abs($0) }.max()!) - ceiling) < 1e-6)
    }

    @Test func aPatternLengthensASessionWithoutDuration() throws {
        let compiled = try Self.compile(#"{ "cabin": 1, "cues": [ { "at": "1s", "haptic": "rumble" } ] }"#)
        let clip = SessionHapticTrack.clip(Self.rumble, sampleRate: 48000, options: .init())
        #expect(compiled.durationFrames == 48000 + FrameTime(clip.count))
    }

    @Test func aMissingPatternSilencesItsCueWithAWarning() throws {
        let haptics = ResolvedHaptics(failures: ["bump": "bump: not in the haptic pattern library (the library has tick)"])
        let compiled = try Self.compile(#"{ "cabin": 1, "duration": "1s", "cues": [ { "at": 0, "haptic": "bump" } ] }"#,
                                        haptics: haptics)
        #expect(compiled.warnings == ["cues[0].haptic is silent: bump: not in the haptic pattern library (the library has tick)"])
        #expect(SessionHapticTrack(compiled).clips.isEmpty)
    }

    @Test func hapticPathsMayNotLeaveTheDocumentsFolder() {
        let result = SessionReader.read(#"{ "cabin": 1, "cues": [ { "at": 0, "haptic": "../x.ahap" }, { "at": 1, "haptic": "/tmp/y.ahap" }, { "at": 2, "haptic": "Tick!" } ] }"#, file: "s.json")
        #expect(result.document == nil)
        #expect(result.diagnostics.errors.map(\.description) == [
            #"s.json:1:46: error: cues[0].haptic: "../x.ahap" leaves the document's folder: ".." is not allowed in pattern paths"#,
            #"s.json:1:82: error: cues[1].haptic: "/tmp/y.ahap" is an absolute path: haptic patterns are library names or paths relative to the document's folder"#,
            #"s.json:1:120: error: cues[2].haptic: "Tick!" is neither a pattern name (like engine-start) nor a pattern file path (like patterns/knock.ahap)"#,
        ])
        #expect(HapticReference.parse("patterns/knock.ahap") == .success(.file("patterns/knock.ahap")))
        #expect(HapticReference.parse("./knock") == .success(.file("knock")))
        #expect(HapticReference.parse("ui/tick") == .success(.library("ui/tick")))
    }

    @Test func theSessionsCuesBecomeOneRumblePlan() throws {
        let json = """
            { "cabin": 1, "duration": "2s",
              "cues": [ { "at": "0.5s", "haptic": "knock" }, { "at": "1s", "haptic": "rumble" },
                        { "at": "1.05s", "haptic": "rumble" } ] }
            """
        let plan = try Self.compile(json).rumblePlan(options: .init(transientVoices: 1))
        let one = RumblePlan(Self.rumble, options: .init(transientVoices: 1))
        // The knock at 500 ms on the transient voice; the rumbles on voice 0, shifted to their
        // cues and added where they overlap: 1050…1150 ms is full strength throughout (the
        // sums clamp at 0xFFFF), so it is one 100 ms piece.
        #expect(plan.steps.first == .init(time: 500, action: .play(voice: 1, magnitudes: .init(strong: 46340, weak: 46340), lengthMilliseconds: 30)))
        let continuous = plan.steps.filter { if case .play(0, _, _) = $0.action { return true }; return $0.action == .stop(voice: 0) }
        #expect(continuous.map(\.time) == [1000, 1050, 1150, 1153])
        #expect(continuous[1].action == .play(voice: 0, magnitudes: .init(strong: 65535, weak: 0), lengthMilliseconds: 200))
        #expect(continuous.last?.action == .stop(voice: 0))
        #expect(one.steps.first == .init(time: 0, action: continuous[0].action))
        #expect(plan.durationMilliseconds == 1153)
    }
}
