import CabinAudio
import CabinJSON
import CabinSession
import CabinTestSupport
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

/// Effects with named parameters (issue 29.6): the declarations, the object form beside the
/// shorthand, cues that name a parameter, every problem located, and the format page's table
/// generated from the declarations.
@Suite struct NamedEffectParameterTests {
    static let json = """
        { "cabin": 1, "duration": "6s",
          "buses": { "voice": { "gain": -20, "compressor": { "threshold": 0, "ratio": 4, "attack": "2ms", "release": "0.2s" } },
                     "ambient": { "gain": -18, "lowpass": { "cutoff": 8000 } } },
          "layers": { "tone": { "bus": "voice", "sound": "synth:sine?frequency=1000", "loop": true, "normalize": false } },
          "cues": [
            { "at": 0, "start": "tone" },
            { "at": "2s", "compressor": "voice", "parameter": "threshold", "to": -30 },
            { "at": "4s", "compressor": "voice", "parameter": "attack", "to": "20ms", "over": "100ms" }
          ] }
        """

    /// The same without the cues that move the compressor.
    static let stillJSON = json.replacingOccurrences(of: #"""
            { "at": "2s", "compressor": "voice", "parameter": "threshold", "to": -30 },
            { "at": "4s", "compressor": "voice", "parameter": "attack", "to": "20ms", "over": "100ms" }
        """#, with: "")
        .replacingOccurrences(of: #"{ "at": 0, "start": "tone" },"#, with: #"{ "at": 0, "start": "tone" }"#)

    /// Each declaration is whole: unique keys and names, defaults in range, a main parameter,
    /// and `make` builds a description with exactly these values, in this order.
    @Test func everyDeclarationIsConsistent() {
        #expect(Set(DocumentEffect.all.map(\.key)).count == DocumentEffect.all.count)
        for effect in DocumentEffect.all {
            let names = effect.parameters.map(\.name)
            #expect(Set(names).count == names.count, "\(effect.key)")
            #expect(effect.parameters.indices.contains(effect.main))
            #expect(effect.make(effect.defaults).parameters == effect.defaults, "\(effect.key)")
            for parameter in effect.parameters {
                #expect(parameter.range.contains(parameter.defaultValue), "\(effect.key).\(parameter.name)")
                var values = effect.defaults
                values[effect.index(of: parameter.name)!] = parameter.range.lowerBound
                #expect(effect.make(values).parameters == values, "\(effect.key).\(parameter.name)")
            }
        }
    }

    @Test func readsNamedParametersWithTheRestAtTheirDefaults() throws {
        let doc = try #require(SessionReader.read(Self.json, file: "named.json").document)
        let compressor = CompressorEffect.declaration
        #expect(doc.bus(named: "voice")?.effects == [Bus.Effect(key: "compressor", values: [0, 4, 0.002, 0.2, 6, 0])])
        #expect(compressor.defaults[4...] == [6, 0])
        // `{ "cutoff": 8000 }` is what `8000` is short for.
        #expect(doc.bus(named: "ambient")?.effects == [Bus.Effect(key: "lowpass", value: 8000)])
        #expect(doc.cues[1].effect == Cue.EffectChange(bus: "voice", effect: "compressor", parameter: "threshold", to: -30, over: 0))
        #expect(doc.cues[2].effect == Cue.EffectChange(bus: "voice", effect: "compressor", parameter: "attack", to: 0.02, over: 0.1))
        // A cue without "parameter" moves the main one.
        let short = try #require(SessionReader.read(#"{ "cabin": 1, "duration": "1s", "buses": { "voice": { "compressor": -20 } }, "cues": [ { "at": 0, "compressor": "voice", "to": -24 } ] }"#, file: "s.json").document)
        #expect(short.bus(named: "voice")?.effects == [Bus.Effect(key: "compressor", values: compressor.values(main: -20))])
        #expect(short.cues[0].effect?.parameter == "threshold")
    }

    /// The shorthand and the object form of the same low-pass render the same bits, and the
    /// object form of a document written back is the shorthand again.
    @Test func shorthandAndObjectRenderTheSameBits() throws {
        let shorthand = SessionEffectTests.json
        let object = shorthand.replacingOccurrences(of: #""pad": { "lowpass": 8000 }"#, with: #""pad": { "lowpass": { "cutoff": 8000 } }"#)
            .replacingOccurrences(of: #""lowpass": 20000 }"#, with: #""lowpass": { "cutoff": 20000 } }"#)
        #expect(object != shorthand)
        let a = try #require(SessionReader.read(shorthand, file: "a.json").document)
        let b = try #require(SessionReader.read(object, file: "b.json").document)
        #expect(a == b)
        #expect(b.json() == a.json())
        #expect(SessionRender.render(try SessionRender.compile(object)) == SessionRender.render(try SessionRender.compile(shorthand)))
    }

    @Test func writingBackRoundTrips() throws {
        let doc = try #require(SessionReader.read(Self.json, file: "named.json").document)
        let text = doc.json()
        // The main parameter's cue is written short; another names its parameter.
        #expect(text.contains(#""compressor": "voice", "to": -30"#), "\(text)")
        #expect(text.contains(#""parameter": "attack""#), "\(text)")
        #expect(text.contains(#""attack": "2ms""#) && text.contains(#""to": "20ms""#), "\(text)")
        #expect(text.contains(#""lowpass": 8000"#), "\(text)")
        let again = try #require(SessionReader.read(text, file: "written.json").document, "\(text)")
        #expect(again == doc)
    }

    /// The threshold cue at 2 s: the same samples as without it until its frame, changed
    /// within its 5 ms ramp, then the
    /// tone (peak −6 dBFS at the compressor, before the bus's −20 dB) turned down by the
    /// curve's reduction at −30 dBFS, ratio 4, 6 dB knee: 18 dB, within 0.15 dB.
    @Test func aCueMovingANamedParameterChangesTheSamplesAtItsTime() throws {
        let moved = SessionRender.render(try SessionRender.compile(Self.json))
        let still = SessionRender.render(try SessionRender.compile(Self.stillJSON))
        #expect(moved.count == still.count)
        let cue = 96_000
        #expect(moved[..<(2 * cue)] == still[..<(2 * cue)])
        let first = try #require((cue..<(cue + 2_000)).first { moved[2 * $0] != still[2 * $0] })
        // The threshold glides over the mixer's shortest ramp (5 ms); the tone's next peak over
        // the knee then turns it down.
        #expect(first < cue + 240 + 48, "first changed frame \(first)")
        let peak = 20 * log10(SignalAnalysis.peak(SessionRender.left(still, 48_000..<96_000))) + 20
        let expected = (1 - 1 / 4.0) * (peak - -30)
        let change = SessionRender.level(moved, 120_000..<190_000) - SessionRender.level(still, 120_000..<190_000)
        #expect(abs(change + expected) < 0.15, "peak \(peak) dBFS: \(change) dB, expected \(-expected)")
    }

    /// Seeking into a session past a named-parameter cue starts the compressor there.
    @Test func seekingKeepsNamedParameterMoves() throws {
        let compiled = try SessionRender.compile(Self.json)
        let voice = try #require(compiled.config.bus(named: "voice"))
        let seeked = compiled.starting(at: 5 * 48_000)
        let parameters = try #require(seeked.config.buses[Int(voice.index)].effects.first?.parameters)
        #expect(parameters[CompressorEffect.thresholdParameter] == -30)
        #expect(abs(parameters[CompressorEffect.attackParameter] - 0.02) < 1e-12)
    }

    @Test func everyProblemIsOneLocatedLine() {
        let json = """
            { "cabin": 1, "duration": "8s",
              "buses": { "voice": { "compressor": { "thresold": -20, "ratio": 50, "attack": "2s", "release": true } },
                         "radio": { "compressor": "loud" }, "ui": { "lowpass": { "cutoff": 5 } } },
              "cues": [
                { "at": 0, "compressor": "voice", "parameter": "ratoi", "to": 2 },
                { "at": 1, "compressor": "voice", "parameter": "ratio", "to": 0.5 },
                { "at": 2, "compressor": "voice", "parameter": "knee", "to": "6dB" },
                { "at": 3, "set": "x", "parameter": "ratio", "to": 2 },
                { "at": 4, "compressor": "engine", "to": -20 },
                { "at": 5, "compressor": "voice", "parameter": "attack", "to": "1s" }
              ] }
            """
        let lines = SessionReader.read(json, file: "fx.json").diagnostics.map(\.description)
        let expected = [
            #"fx.json:2:41: error: buses.voice.compressor.thresold: unknown key "thresold" is not a parameter of compressor (threshold, ratio, attack, release, knee, makeup) (did you mean "threshold"?)"#,
            #"fx.json:2:67: error: buses.voice.compressor.ratio: compressor ratio 50 is outside 1…20"#,
            #"fx.json:2:81: error: buses.voice.compressor.attack: compressor attack "2s" is outside 0.1ms…500ms"#,
            #"fx.json:2:98: error: buses.voice.compressor.release: true is not a duration"#,
            #"fx.json:3:39: error: buses.radio.compressor: expected a number (compressor's threshold in dB) or an object of its parameters (threshold, ratio, attack, release, knee, makeup), found a string "loud""#,
            #"fx.json:3:80: error: buses.ui.lowpass.cutoff: lowpass cutoff 5 Hz is outside 20…20000 Hz"#,
            #"fx.json:5:52: error: cues[0].parameter: no compressor parameter named "ratoi" (did you mean "ratio"?)"#,
            #"fx.json:6:67: error: cues[1].to: compressor ratio 0.5 is outside 1…20"#,
            #"fx.json:7:66: error: cues[2].to: expected a number, found a string "6dB""#,
            #"fx.json:8:28: error: cues[3].parameter: "parameter" goes with lowpass or compressor, which this cue does not have"#,
            #"fx.json:9:30: error: cues[4].compressor: bus "engine" has no compressor: declare it in "buses", e.g. "engine": { "gain": -12, "compressor": -18 }"#,
            #"fx.json:10:68: error: cues[5].to: compressor attack "1s" is outside 0.1ms…500ms"#,
        ]
        for line in expected {
            #expect(lines.contains { $0.hasPrefix(line) }, "missing: \(line)\nall:\n\(lines.joined(separator: "\n"))")
        }
        #expect(lines.count == expected.count + 1, "\(lines.joined(separator: "\n"))")  // + cues[3]'s unknown parameter "x"
    }

    /// docs/SESSION-FORMAT.md's effect table is generated from the declarations: every
    /// effect and parameter, its unit, range and default (a new effect's row is printed here
    /// when it is missing).
    @Test func theFormatPagesTableIsTheDeclarations() throws {
        let page = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("docs/SESSION-FORMAT.md"),
                              encoding: .utf8)
        let table = Self.markdownTable()
        #expect(page.contains(table), "docs/SESSION-FORMAT.md should hold this table:\n\(table)")
    }

    static func markdownTable() -> String {
        func shown(_ x: Double, _ unit: EffectParameter.Unit) -> String {
            let text: String
            if unit == .seconds {
                text = x < 1 ? NumberText.plain((x * 1e6).rounded() / 1000) + "ms" : NumberText.plain(x) + "s"
            } else {
                text = NumberText.plain(x)
            }
            return text.replacingOccurrences(of: "-", with: "−")
        }
        var rows = ["| effect | parameter | unit | range | default | meaning |", "| --- | --- | --- | --- | --- | --- |"]
        for effect in DocumentEffect.all {
            for (i, p) in effect.parameters.enumerated() {
                let unit = p.unit == .ratio ? "ratio" : p.unit == .seconds ? "time" : p.unit.rawValue
                let name = i == effect.main ? "`\(p.name)` (main)" : "`\(p.name)`"
                rows.append("| \(i == 0 ? "`\(effect.key)`" : "") | \(name) | \(unit) | \(shown(p.range.lowerBound, p.unit))…\(shown(p.range.upperBound, p.unit)) | \(shown(p.defaultValue, p.unit)) | \(p.meaning) |")
            }
        }
        return rows.joined(separator: "\n") + "\n"
    }
}
