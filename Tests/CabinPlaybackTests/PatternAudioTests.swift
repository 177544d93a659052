import CabinAudio
import CabinHaptics
import CabinIO
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Audio in AHAP: `AudioCustom` waveforms (files made by sox) and `AudioContinuous` tones,
/// rendered by `haptics render` beside the haptics and played by a session's cue.
@Suite struct PatternAudioTests {
    /// A folder with a 1 kHz tone at half scale (0.4 s, by sox) and an AHAP that plays it at
    /// 0.25 s at volume 0.5 beside a transient at 0.
    static func fixture(_ label: String, waveform: String = "tone.wav") throws -> URL {
        let dir = try TestEnvironment.temporaryDirectory(label)
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "1", "-b", "24", dir.appendingPathComponent("tone.wav").path,
                                       "synth", "0.4", "sine", "1000", "vol", "0.5"])
        try Data("""
            {
              "Version": 1.0,
              "Pattern": [
                {"Event": {"Time": 0, "EventType": "HapticTransient",
                  "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}]}},
                {"Event": {"Time": 0.25, "EventType": "AudioCustom", "EventWaveformPath": "\(waveform)",
                  "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 0.5}]}}
              ]
            }
            """.utf8).write(to: dir.appendingPathComponent("knock.ahap"))
        return dir
    }

    /// Frequency by zero crossings, and peak, of `samples`.
    static func toneOf(_ samples: ArraySlice<Float>, rate: Double) -> (frequency: Double, peak: Float) {
        var crossings = 0
        var previous = samples.first ?? 0
        for s in samples.dropFirst() {
            if (previous < 0) != (s < 0) { crossings += 1 }
            previous = s
        }
        return (Double(crossings) / 2 / (Double(samples.count) / rate), samples.map { abs($0) }.max() ?? 0)
    }

    @Test func renderPutsTheToneOnChannelsOneAndTwoAtItsTimeAndVolume() throws {
        let dir = try Self.fixture("cabin-ahap-audio")
        let ahap = dir.appendingPathComponent("knock.ahap").path
        let out = dir.appendingPathComponent("ds.wav").path
        let result = try ExternalTool.cabin(["haptics", "render", ahap, "-o", out, "--channels", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sound on 1-2, haptics on 3-4"))
        let rendered = try SoundFile.read(out)
        #expect(rendered.channelCount == 4)
        let left = rendered.channel(0), right = rendered.channel(1)
        let start = 12_000  // 0.25 s at 48 kHz
        #expect(left[0..<start].allSatisfy { $0 == 0 })
        #expect(left[start] != 0 || left[start + 1] != 0)
        let tone = Self.toneOf(left[(start + 480)..<(start + 18_720)], rate: 48_000)
        #expect(abs(tone.frequency - 1000) < 5)
        #expect(abs(tone.peak - 0.25) < 0.005)  // 0.5 (the file) × 0.5 (AudioVolume)
        #expect(left == right)
        #expect(left.count == start + 19_200)  // the render ends with the tone
        // Channels 3–4 are the haptics as they render without the sound.
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: ahap)))
        let pattern = try #require(HapticReader.read(bytes, file: ahap).pattern)
        let haptics = HapticAudioRenderer.synthesize(HapticCompiler.compile(pattern), options: .init(layout: .dualSense))
        let third = rendered.channel(2)
        let expected = haptics.channel(2)
        #expect(third.count >= expected.count)
        #expect(zip(third, expected).allSatisfy { abs($0 - $1) < 1e-6 })  // 24-bit file
    }

    /// Issue 30: a waveform that is not beside the pattern (Apple's samples travel without
    /// their .wav) does not block the preview: `render` writes the haptics with a located
    /// warning; `check` warns, and `check --strict` fails on it.
    @Test func aMissingWaveformLeavesItsSoundOutOfThePreview() throws {
        let dir = try Self.fixture("cabin-ahap-missing", waveform: "gone.wav")
        let ahap = dir.appendingPathComponent("knock.ahap").path
        let out = dir.appendingPathComponent("o.wav").path
        let result = try ExternalTool.cabin(["haptics", "render", ahap, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("\(ahap):6:79: warning: Pattern[1].Event.EventWaveformPath: gone.wav: no such waveform file in "), "\(result.stderr)")
        #expect(result.stderr.contains("; the event's sound is left out"), "\(result.stderr)")
        // The haptics as they render without the sound.
        let rendered = try SoundFile.read(out)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: ahap)))
        let pattern = try #require(HapticReader.read(bytes, file: ahap).pattern)
        let haptics = HapticAudioRenderer.synthesize(HapticCompiler.compile(pattern))
        #expect(rendered.frameCount == haptics.samples.count)
        #expect(zip(rendered.samples, haptics.samples).allSatisfy { abs($0 - $1) < 1e-6 })   // 24-bit file

        let check = try ExternalTool.cabin(["haptics", "check", ahap])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("\(ahap):6:79: warning: Pattern[1].Event.EventWaveformPath: gone.wav: no such waveform file in "), "\(check.stdout)")
        let strict = try ExternalTool.cabin(["haptics", "check", ahap, "--strict"])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(strict.stdout.contains("\(ahap):6:79: error: Pattern[1].Event.EventWaveformPath: gone.wav: no such waveform file in "), "\(strict.stdout)")
        #expect(!strict.stdout.contains(": ok ("), "\(strict.stdout)")
        // `check --json` counts both events: the haptic one, and the audio one whose sound is
        // left out.
        let json = try ExternalTool.cabin(["haptics", "check", "--json", ahap])
        let report = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(report["events"] as? Int == 1 && report["audioEvents"] as? Int == 1, "\(json.stdout)")
    }

    @Test func anEscapingWaveformIsALocatedError() throws {
        for (waveform, message) in [
            ("../tone.wav", #""../tone.wav" leaves the pattern's folder: ".." is not allowed in waveform paths"#),
            ("/etc/passwd", #""/etc/passwd" is an absolute path"#),
        ] {
            let dir = try Self.fixture("cabin-ahap-missing", waveform: waveform)
            let ahap = dir.appendingPathComponent("knock.ahap").path
            let result = try ExternalTool.cabin(["haptics", "render", ahap, "-o", dir.appendingPathComponent("o.wav").path])
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("\(ahap):6:79: error: Pattern[1].Event.EventWaveformPath: "), "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("o.wav").path))
        }
    }

    @Test func anAudioContinuousEventIsAToneShapedByItsEnvelope() throws {
        let pattern = HapticPattern(events: [
            HapticEvent(.audioContinuous, time: 0.1, duration: 0.5, parameters: [.audioVolume: 0.4, .audioPitch: 0, .audioBrightness: 0, .audioPan: -1]),
        ])
        let stereo = HapticPatternAudio.synthesize(pattern, waveforms: [:], sampleRate: 48_000)
        let left = stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] }
        let right = stride(from: 1, to: stereo.count, by: 2).map { stereo[$0] }
        #expect(right.allSatisfy { $0 == 0 })  // panned hard left
        #expect(left[0..<4800].allSatisfy { $0 == 0 })
        let tone = Self.toneOf(left[5000..<28_000], rate: 48_000)
        #expect(abs(tone.frequency - 440) < 3)
        #expect(abs(tone.peak - 0.4) < 0.01)
    }

    /// A session's haptic cue plays the pattern's sound on its cue's bus, from the cue's frame.
    @Test func aSessionCuePlaysThePatternsSoundOnItsBus() throws {
        let dir = try Self.fixture("cabin-ahap-session")
        let path = dir.appendingPathComponent("s.json").path
        try Data(#"{ "cabin": 1, "duration": "2s", "buses": { "ui": 0 }, "cues": [ { "at": "0.5s", "haptic": "knock.ahap" } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let loaded = try SessionLoader.load(path: path, sampleRate: 48_000)
        #expect(loaded.warnings.isEmpty)
        let runner = SessionRunner(loaded.compiled)
        let frames = Int(loaded.compiled.durationFrames)
        var out = [Float](repeating: 0, count: 2 * frames)
        _ = out.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: frames) }
        let left = stride(from: 0, to: out.count, by: 2).map { out[$0] }
        let first = try #require(left.firstIndex { $0 != 0 })
        #expect(abs(first - 36_000) <= 1)  // 0.5 s + 0.25 s
        let tone = Self.toneOf(left[(first + 480)..<(first + 18_000)], rate: 48_000)
        #expect(abs(tone.frequency - 1000) < 5)
        #expect(abs(tone.peak - 0.25) < 0.01)
        // A missing waveform silences the sound with its located line, not the session.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("tone.wav"))
        let silent = try SessionLoader.load(path: path, sampleRate: 48_000)
        #expect(silent.warnings.count == 1)
        #expect(silent.warnings.first?.contains("knock.ahap:6:79: warning: Pattern[1].Event.EventWaveformPath") == true,
                "\(silent.warnings)")
    }
}
