import CabinAudio
import CabinJSON
import CabinSession
import Foundation
import Testing

/// Bus effects in session documents: `"ambient": { "gain": -18, "lowpass": 8000 }` and the
/// `lowpass` cue verb.
@Suite struct SessionEffectTests {
    static let json = """
        { "cabin": 1, "duration": "8s",
          "buses": { "ambient": { "gain": -18, "lowpass": 20000 }, "engine": -10, "pad": { "lowpass": 8000 } },
          "layers": { "rain": { "bus": "ambient", "sound": "synth:white-noise", "loop": true } },
          "cues": [
            { "at": 0, "start": "rain" },
            { "at": "2s", "lowpass": "ambient", "to": 800, "over": "3s", "mark": "rest" },
            { "at": "6s", "lowpass": "ambient", "to": 20000, "over": "500ms" }
          ] }
        """

    /// The same session with no effect.
    static let plainJSON = """
        { "cabin": 1, "duration": "8s", "buses": { "ambient": -18, "engine": -10, "pad": 0 },
          "layers": { "rain": { "bus": "ambient", "sound": "synth:white-noise", "loop": true } },
          "cues": [ { "at": 0, "start": "rain" } ] }
        """

    @Test func readsBusObjectsAndTheCue() throws {
        let result = SessionReader.read(Self.json, file: "fx.json")
        let doc = try #require(result.document, "\(result.diagnostics)")
        #expect(doc.bus(named: "ambient") == Bus(name: "ambient", gain: -18, effects: [.init(key: "lowpass", value: 20000)]))
        #expect(doc.bus(named: "engine") == Bus(name: "engine", gain: -10))
        // A new bus object without a gain is at 0 dB.
        #expect(doc.bus(named: "pad") == Bus(name: "pad", gain: 0, effects: [.init(key: "lowpass", value: 8000)]))
        #expect(doc.cues[1].effect == Cue.EffectChange(bus: "ambient", effect: "lowpass", to: 800, over: 3))
        #expect(doc.cues[1].tail == 3)
    }

    @Test func plainGainsStayValid() throws {
        let doc = try #require(SessionReader.read(#"{ "cabin": 1, "duration": "1s", "buses": { "ambient": -18 } }"#, file: "plain.json").document)
        #expect(doc.bus(named: "ambient") == Bus(name: "ambient", gain: -18))
        #expect(!doc.json().contains("buses"))
    }

    @Test func problemsAreLocated() {
        let json = """
            { "cabin": 1, "duration": "8s",
              "buses": { "ambient": { "gain": -18, "lowpass": 30000 }, "radio": { "lowpas": 500 } },
              "cues": [
                { "at": 0, "lowpass": "radio", "to": 500 },
                { "at": 1, "lowpass": "ambient", "to": 5, "over": "1s" },
                { "at": 2, "lowpass": "ambiant", "to": 500 },
                { "at": 3, "lowpass": "ambient", "set": "x", "to": 500 }
              ] }
            """
        let lines = SessionReader.read(json, file: "fx.json").diagnostics.map(\.description)
        #expect(lines.contains("fx.json:2:51: error: buses.ambient.lowpass: lowpass 30000 Hz is outside 20…20000 Hz"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("fx.json:2:71: error: buses.radio.lowpas: unknown key \"lowpas\"") && $0.contains("lowpass") })
        #expect(lines.contains("fx.json:4:27: error: cues[0].lowpass: bus \"radio\" has no lowpass: declare it in \"buses\", e.g. \"radio\": { \"gain\": -3, \"lowpass\": 20000 }"), "\(lines)")
        #expect(lines.contains("fx.json:5:44: error: cues[1].to: lowpass 5 Hz is outside 20…20000 Hz"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("fx.json:6:27: error: cues[2].lowpass: no bus named \"ambiant\"") })
        #expect(lines.contains { $0.hasPrefix("fx.json:7:38: error: cues[3].set: set and lowpass share \"to\" and \"over\"") })
        #expect(lines.count == 6, "\(lines)")
    }

    @Test func writingBackRoundTrips() throws {
        let doc = try #require(SessionReader.read(Self.json, file: "fx.json").document)
        let text = doc.json()
        #expect(text.contains(#""lowpass": "ambient""#))
        let again = try #require(SessionReader.read(text, file: "written.json").document, "\(text)")
        #expect(again == doc)
    }

    @Test func theCueCompilesToOneCommandOnItsFrame() throws {
        let compiled = try SessionRender.compile(Self.json)
        let ambient = try #require(compiled.config.bus(named: "ambient"))
        #expect(compiled.config.buses[Int(ambient.index)].effects.count == 1)
        let moves = compiled.commands.compactMap { command -> (FrameTime, Double, Int64)? in
            guard case .setEffectParameter(ambient, 0, 0, let to, let over) = command.action else { return nil }
            return (command.time, to, over)
        }
        #expect(moves.map(\.0) == [96_000, 288_000])
        #expect(moves.map(\.1) == [800, 20_000])
        #expect(moves.map(\.2) == [144_000, 24_000])
    }

    /// The rain (white noise) is untouched until 2 s (open: bit-identical to no lowpass), darker at 5…6 s,
    /// and the same bits after it opens again.
    @Test func theCueAppliesAtItsFrame() throws {
        let plain = SessionRender.render(try SessionRender.compile(Self.plainJSON))
        let filtered = SessionRender.render(try SessionRender.compile(Self.json))
        #expect(filtered.count == plain.count)
        #expect(filtered[..<(2 * 96_000)] == plain[..<(2 * 96_000)])
        #expect(SessionRender.level(filtered, 240_000..<288_000) < SessionRender.level(plain, 240_000..<288_000) - 10)
        let reopened = 2 * (288_000 + 24_000 + 480)
        #expect(filtered[reopened..<(2 * 370_000)] == plain[reopened..<(2 * 370_000)])
    }

    /// Seeking into the move starts the effect at the cutoff reached and finishes the move.
    @Test func seekingRebuildsTheCutoff() throws {
        let compiled = try SessionRender.compile(Self.json)
        let ambient = try #require(compiled.config.bus(named: "ambient"))
        let seeked = compiled.starting(at: 3 * 48_000 + 24_000)  // 3.5 s: half way through 2…5 s
        let start = try #require(seeked.config.buses[Int(ambient.index)].effects.first?.parameters.first)
        #expect(abs(start - (20_000 * pow(800.0 / 20_000, 0.5))) < 1e-6)  // geometric: 4000 Hz
        let atZero = seeked.commands.filter { $0.time == 0 }.map(\.action)
        #expect(atZero.contains { if case .setEffectParameter(ambient, 0, 0, 800, 72_000) = $0 { return true }; return false })
        // Past the move, the effect simply starts at 800 Hz.
        let later = compiled.starting(at: 5 * 48_000 + 1)
        #expect(later.config.buses[Int(ambient.index)].effects.first?.parameters == [800])
        #expect(!later.commands.contains { if case .setEffectParameter = $0.action { return $0.time == 0 }; return false })
    }

    @Test func blockSizesAreBitIdentical() throws {
        let compiled = try SessionRender.compile(Self.json)
        let reference = SessionRender.render(compiled, blockSize: 512)
        for block in [7, 64] { #expect(SessionRender.render(compiled, blockSize: block) == reference, "block \(block)") }
    }
}
