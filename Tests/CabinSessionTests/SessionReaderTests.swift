import CabinJSON
import CabinSession
import CabinTestSupport
import Foundation
import Testing

@Suite struct SessionReaderTests {
    /// The project's format page (docs/SESSION-FORMAT.md) and its JSON examples.
    static func formatExamples() throws -> [String] {
        let spec = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("docs/SESSION-FORMAT.md"),
                              encoding: .utf8)
        return spec.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    /// Every JSON example in docs/SESSION-FORMAT.md reads without a diagnostic.
    @Test func formatExamplesAreValid() throws {
        let blocks = try Self.formatExamples()
        #expect(blocks.count >= 2)
        for block in blocks {
            let result = SessionReader.read(block, file: "SESSION-FORMAT.md")
            #expect(result.diagnostics.isEmpty, "\(block)\n\(result.diagnostics)")
        }
    }

    /// The contract's example (the first on the page) reads as it says.
    @Test func contractExampleMeansWhatItSays() throws {
        let result = SessionReader.read(try #require(try Self.formatExamples().first), file: "SESSION-FORMAT.md")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let doc = try #require(result.document)
        #expect(doc.title == "Drive to Yosemite")
        #expect(doc.duration == 3000)
        #expect(doc.buses.map(\.name) == ["engine", "ambient", "radio", "ui", "voice"])
        #expect(doc.layers.map(\.name) == ["engine", "ambient", "radio"])
        #expect(abs((doc.layer(named: "engine")?.pitch?.value(at: 40) ?? 0) - 1.05) < 1e-12)
        #expect(doc.layer(named: "radio")?.sound.description == "synth:brown-noise")
        #expect(doc.ducking == [Ducking(when: "voice", duck: ["radio", "ambient", "engine"], by: -12,
                                        attack: 0.04, release: 0.6)])
        #expect(doc.cues.count == 8)
        #expect(doc.marks.map(\.name) == ["halfway", "rest", "drive", "arrival"])
        #expect(doc.marks.map(\.time) == [750, 1500, 1800, 2990])
        let rest = try #require(doc.cues.first { $0.mark == "rest" })
        #expect(rest.crossfade == Cue.Crossfade(layer: "ambient", to: .library("ambient/rest-area"), over: 3))
        #expect(doc.cues[0].play == Cue.OneShot(sound: .library("ui/ignition"), bus: "ui", gain: 0))
        #expect(doc.cues[0].haptic == "engine-start")
    }

    /// The project's page keeps the original contract's example word for word (where the
    /// contract is at hand: ../shared/docs beside the package).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestEnvironment.packageRoot.deletingLastPathComponent()
                        .appendingPathComponent("shared/docs/SESSION-FORMAT.md").path),
                   "the original contract (../shared/docs/SESSION-FORMAT.md) is not beside the package"))
    func contractExampleIsUnchanged() throws {
        let contract = try String(contentsOf: TestEnvironment.packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/docs/SESSION-FORMAT.md"), encoding: .utf8)
        let original = contract.components(separatedBy: "```json\n")[1].components(separatedBy: "```")[0]
        #expect(try Self.formatExamples().first == original)
    }

    /// A broken document reports every problem at once, each with its exact place.
    @Test func brokenDocumentYieldsEveryErrorWithLocation() {
        let text = """
            {
              "cabin": 1,
              "duration": "10m",
              "buses": { "engine": -12, "rain": "loud" },
              "parameters": { "speed": { "value": 62, "min": 0, "max": 80 } },
              "layers": {
                "engine": { "bus": "engnie", "sound": "engine/v6", "loop": true },
                "rain":   { "sound": "../rain.flac", "fadein": "2s" }
              },
              "cues": [
                { "at": "3x", "start": "engine" },
                { "at": "1s", "start": "radio", "fadeIn": "2s" },
                { "at": "2s", "set": "speed", "to": 120, "over": "4s" },
                { "at": "11m", "mark": "late" },
                { "at": "5s" }
              ]
            }
            """
        let result = SessionReader.read(text, file: "drive.json")
        #expect(result.document == nil)
        #expect(result.diagnostics.map(\.description) == [
            "drive.json:4:37: error: buses.rain: expected a number, found a string \"loud\"",
            "drive.json:7:24: error: layers.engine.bus: no bus named \"engnie\" (did you mean \"engine\"?)",
            "drive.json:8:26: error: layers.rain.sound: \"../rain.flac\" leaves the document's folder: \"..\" is not allowed in sound paths",
            "drive.json:8:42: error: layers.rain.fadein: unknown key \"fadein\" is not part of the session format",
            "drive.json:11:13: error: cues[0].at: \"3x\" is not a duration: use 1h2m3s, 90s, 250ms or m:s",
            "drive.json:12:28: error: cues[1].start: no layer named \"radio\"; layers: engine",
            "drive.json:13:41: error: cues[2].to: 120 is outside speed's range 0…80",
            "drive.json:14:13: error: cues[3].at: cue at 11m comes after the session ends (duration 10m)",
            "drive.json:15:5: error: cues[4]: this cue does nothing: give it one of play, say, haptic, start, stop, fade, crossfade, set, lowpass, compressor, mark, trigger",
        ])
    }

    @Test func versionAndShape() {
        let wrongVersion = SessionReader.read(#"{ "cabin": 2 }"#, file: "v.json")
        #expect(wrongVersion.diagnostics.map(\.description) == [
            "v.json:1:12: error: cabin: unknown session format version 2: this Cabin reads version 1",
        ])
        let missing = SessionReader.read(#"{ "title": "x" }"#, file: "m.json")
        #expect(missing.diagnostics.map(\.description) == ["m.json:1:1: error: cabin: missing required key \"cabin\""])
        let syntax = SessionReader.read("{ \"cabin\": 1,\n  \"cues\": [ } ", file: "s.json")
        #expect(syntax.document == nil)
        #expect(syntax.diagnostics.errors.first?.line == 2)
    }

    @Test func combinedRampVerbsAreRejected() {
        let text = """
            { "cabin": 1, "parameters": { "speed": { "value": 1 } },
              "layers": { "a": { "bus": "ambient", "sound": "synth:pink-noise" } },
              "cues": [ { "at": 0, "set": "speed", "fade": "a", "to": 0 } ] }
            """
        let result = SessionReader.read(text, file: "c.json")
        #expect(result.diagnostics.map(\.description) == [
            "c.json:3:40: error: cues[0].fade: fade and set share \"to\" and \"over\": put them in separate cues at the same time",
        ])
    }

    @Test func aDuckingBandIsReadWrittenAndRangeChecked() throws {
        let good = """
            { "cabin": 1, "ducking": [ { "when": "voice", "duck": ["engine"], "by": -8, "band": [150, 4000] } ] }
            """
        let doc = try #require(SessionReader.read(good, file: "b.json").document)
        #expect(doc.ducking.first?.band == 150...4000)
        let again = try #require(SessionReader.read(doc.json(), file: "again.json").document)
        #expect(again.ducking == doc.ducking)
        let bad = """
            { "cabin": 1, "ducking": [
              { "when": "voice", "duck": ["engine"], "band": [150] },
              { "when": "voice", "duck": ["engine"], "band": [10, 4000] },
              { "when": "voice", "duck": ["engine"], "band": [400, 400] },
              { "when": "voice", "duck": ["engine"], "band": "speech" } ] }
            """
        #expect(SessionReader.read(bad, file: "b.json").diagnostics.map(\.description) == [
            "b.json:2:50: error: ducking[0].band: a band is two frequencies in Hz, [low, high] (e.g. [150, 4000]), found […] (1 items)",
            "b.json:3:51: error: ducking[1].band[0]: a band's frequency (Hz) 10 is outside 20…20000",
            "b.json:4:56: error: ducking[2].band[1]: a band's high frequency must be at least 1.1 × its low one (400 Hz), found 400",
            "b.json:5:50: error: ducking[3].band: expected an array, found a string \"speech\"",
        ])
    }

    @Test func defaultDurationIsLastCuePlusTail() throws {
        let text = """
            { "cabin": 1, "layers": { "a": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": "1m", "start": "a", "fadeIn": "5s" }, { "at": "2m", "stop": "a", "fadeOut": "8s" } ] }
            """
        let doc = try #require(SessionReader.read(text, file: "d.json").document)
        #expect(doc.duration == 128)
        #expect(doc.durationIsExplicit == false)
    }
}

@Suite struct SessionWriterTests {
    @Test func writtenDocumentsReadBackTheSame() throws {
        let json = try #require(try SessionReaderTests.formatExamples().first)
        let doc = try #require(SessionReader.read(json, file: "spec").document)
        let written = doc.json()
        let again = SessionReader.read(written, file: "written")
        #expect(again.diagnostics.isEmpty, "\(again.diagnostics)")
        #expect(again.document == doc)
        #expect(written.contains(#""at": "12m30s""#))
        #expect(written.contains(#""sound": "synth:brown-noise""#))
    }

    @Test func pathsWithoutAnExtensionKeepTheirDotSlash() throws {
        let doc = SessionDocument(duration: 1, layers: [Layer(name: "a", bus: "ambient", sound: .file("hum"))])
        let back = try #require(SessionReader.read(doc.json(), file: "x").document)
        #expect(back.layers[0].sound == .file("hum"))
    }

    /// `.//chime-break` and `././chime-break` are `chime-break` beside the document, written
    /// back as `./chime-break` (it was written as the absolute `/chime-break`).
    @Test func doubledSlashesAndDotsAreTheFileBesideTheDocument() throws {
        for text in [".//chime-break", "././chime-break", "./chime-break"] {
            #expect(try SoundReferenceParser.parse(text).get() == .file("chime-break"), "\(text)")
        }
        let json = #"{ "cabin": 1, "cues": [ { "at": 0, "play": ".//chime-break" } ] }"#
        let doc = try #require(SessionReader.read(json, file: "x").document)
        #expect(doc.json().contains(#""play": "./chime-break""#))
        #expect(SessionReader.read(doc.json(), file: "again").document == doc)
    }

    /// A scatter's `spacing` is read, written back only when not the default, and anything
    /// but "random" or "even" is one located error naming both.
    @Test func aScattersSpacingIsReadAndWrittenBack() throws {
        func document(_ spacing: String?) -> String {
            let key = spacing.map { #", "spacing": \#($0)"# } ?? ""
            return #"{ "cabin": 1, "duration": 10, "layers": { "rain": { "bus": "ambient", "scatter": { "sounds": ["ui/horn"], "rate": [8, 12]\#(key) } } } }"#
        }
        let even = try #require(SessionReader.read(document(#""even""#), file: "e.json").document)
        #expect(even.layers[0].scatter?.spacing == .even)
        #expect(even.json().contains(#""spacing": "even""#))
        #expect(SessionReader.read(even.json(), file: "again").document == even)
        let plain = try #require(SessionReader.read(document(nil), file: "p.json").document)
        #expect(plain.layers[0].scatter?.spacing == .random)
        #expect(!plain.json().contains("spacing"))
        let wrong = SessionReader.read(document(#""regular""#), file: "w.json")
        #expect(wrong.diagnostics.map(\.description) == [
            #"w.json:1:135: error: layers.rain.scatter.spacing: a scatter's spacing is "random" or "even", not "regular""#,
        ])
        let number = SessionReader.read(document("2"), file: "n.json")
        #expect(number.diagnostics.map(\.description).count == 1 && number.diagnostics.map(\.description)[0].contains("layers.rain.scatter.spacing"), "\(number.diagnostics)")
    }
}
