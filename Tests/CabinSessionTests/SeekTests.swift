import CabinAudio
import CabinSession
import Foundation
import Testing

@Suite struct SeekTests {
    static let json = """
        { "cabin": 1, "duration": "12s",
          "parameters": { "speed": { "value": 60, "min": 0, "max": 80 } },
          "layers": {
            "engine": { "bus": "engine", "sound": "synth:brown-noise", "loop": true,
                        "pitch": { "parameter": "speed", "map": [[0, 0.5], [80, 1.5]] } },
            "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true },
            "radio": { "bus": "radio", "sound": "synth:sine?frequency=440" }
          },
          "cues": [
            { "at": "1s", "start": ["engine", "rain", "radio"] },
            { "at": "2s", "fade": "engine", "to": -6, "over": "1s" },
            { "at": "3s", "set": "speed", "to": 20, "over": "4s", "mark": "slowing" },
            { "at": "4s", "stop": "radio", "fadeOut": "1s" },
            { "at": "5s", "crossfade": "rain", "to": "synth:white-noise", "over": "1s" },
            { "at": "9s", "mark": "arrival", "stop": ["engine", "rain"], "fadeOut": "2s" }
          ] }
        """

    @Test func seekRebuildsTheStateAndShiftsTheRest() throws {
        let compiled = try SessionRender.compile(Self.json)
        let seeked = compiled.starting(at: 5 * 48000 + 24000) // 5.5 s
        #expect(seeked.durationFrames == 6 * 48000 + 24000)
        #expect(seeked.marks == [.init(frame: 3 * 48000 + 24000, name: "arrival")])
        #expect(compiled.mark(at: 5 * 48000) == "slowing")
        let atZero = seeked.commands.filter { $0.time == 0 }.map(\.action)
        let speed = try #require(compiled.config.parameter(named: "speed"))
        let engine = try #require(compiled.config.layer(named: "engine"))
        let rain = try #require(compiled.config.layer(named: "rain"))
        // speed was ramping 60 → 20 over 3…7 s: at 5.5 s it is 60 − 40 × 2.5/4 = 35, where the
        // seeked session starts, and the ramp goes on to 20 over the 1.5 s left.
        #expect(abs(seeked.config.parameters[Int(speed.index)].value - 35) < 1e-9)
        #expect(atZero.contains { if case .setParameter(speed, 20, 72000) = $0 { return true }; return false })
        #expect(atZero.contains { if case .startLayerWith(engine, _, _, _, true, 2400) = $0 { return true }; return false })
        #expect(atZero.contains { if case .fadeLayer(engine, let to, 0) = $0 { return to == -6 }; return false })
        #expect(atZero.contains { if case .startLayerWith(rain, .synth(let s), _, _, true, _) = $0 { return s.name == "white-noise" }; return false })
        #expect(!atZero.contains { if case .startLayerWith(let id, _, _, _, _, _) = $0 { return id == compiled.config.layer(named: "radio") }; return false })
        #expect(seeked.commands.contains { $0.time == 3 * 48000 + 24000 })
    }

    /// A seek to the very frame of a cue keeps that cue's move: the speed ramp due at 3 s
    /// starts from the speed reached (60), not from a value still being restored.
    @Test func seekingOntoACueKeepsItsRamp() throws {
        let compiled = try SessionRender.compile(Self.json)
        let seeked = compiled.starting(at: 3 * 48000)
        let speed = try #require(compiled.config.parameter(named: "speed"))
        #expect(seeked.config.parameters[Int(speed.index)].value == 60)
        for seconds in [0.0, 1, 2, 4] {
            let frame = FrameTime(seconds * 48000)
            #expect(abs((seeked.parameterValue("speed", at: frame) ?? -1) - (compiled.parameterValue("speed", at: frame + 3 * 48000) ?? -2)) < 1e-6,
                    "\(seconds) s after the seek")
        }
        // And what plays: the engine's pitch map follows the same speeds, so the seeked render
        // matches the full one once both have settled (after the seek's fade-in).
        let full = SessionRender.render(compiled)
        let part = SessionRender.render(seeked)
        let fullLevel = SessionRender.level(full, (3 * 48000 + 9600)..<(5 * 48000))
        let partLevel = SessionRender.level(part, 9600..<(2 * 48000))
        #expect(abs(fullLevel - partLevel) < 0.5)
    }

    /// After the seek's short fade-in, the seeked session sounds at the level the full one has there.
    @Test func seekedLevelsMatchTheFullRender() throws {
        let compiled = try SessionRender.compile(Self.json)
        let full = SessionRender.render(compiled)
        let seeked = SessionRender.render(compiled.starting(at: 7 * 48000))
        let fullLevel = SessionRender.level(full, (7 * 48000 + 9600)..<(9 * 48000))
        let seekLevel = SessionRender.level(seeked, 9600..<(2 * 48000))
        #expect(abs(fullLevel - seekLevel) < 0.5, "full \(fullLevel) dB, seeked \(seekLevel) dB")
    }
}
