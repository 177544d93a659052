import CabinJSON
import CabinSession
import Testing

/// Marks with a title for people (`"mark": { "name": "rest", "title": "rest stop" }`), and
/// stations by the user's names (`"sound": "station:kexp"`), read, checked and written back.
@Suite struct MarkTitleTests {
    static let titled = """
        { "cabin": 1, "title": "Drive to Yosemite", "duration": "60s",
          "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
          "cues": [ { "at": 0, "start": "rain", "mark": "drive" },
                    { "at": "40s", "mark": { "name": "rest", "title": "rest stop" } } ] }
        """

    @Test func aMarkHasANameForHooksAndATitleForPeople() throws {
        let result = SessionReader.read(Self.titled, file: "t.json")
        let doc = try #require(result.document, "\(result.diagnostics)")
        #expect(doc.marks.map(\.name) == ["drive", "rest"])
        #expect(doc.marks.map(\.title) == [nil, "rest stop"])
        let compiled = SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 8000, maxBlockFrames: 64)
        #expect(compiled.marks == [.init(frame: 0, name: "drive"), .init(frame: 320_000, name: "rest", title: "rest stop")])
        #expect(compiled.mark(at: 330_000) == "rest")
        #expect(compiled.segment(at: 330_000) == "rest stop")
        #expect(compiled.segment(at: 100) == "drive")
        // A seek keeps the titles of the marks ahead.
        #expect(compiled.starting(at: 160_000).marks == [.init(frame: 160_000, name: "rest", title: "rest stop")])
        // Written back as it was given: a plain name stays a string, a titled mark an object.
        let written = doc.json()
        #expect(written.contains(#""mark": "drive""#))
        #expect(written.contains(#""mark": { "name": "rest", "title": "rest stop" }"#) || written.contains(#""title": "rest stop""#), "\(written)")
        let back = try #require(SessionReader.read(written, file: "back.json").document)
        #expect(back.marks.map(\.name) == doc.marks.map(\.name) && back.marks.map(\.title) == doc.marks.map(\.title))
    }

    @Test func badMarksAreLocatedErrors() {
        let text = """
            { "cabin": 1, "duration": "10s",
              "cues": [ { "at": 0, "mark": { "title": "no name" } },
                        { "at": 1, "mark": { "name": "rest", "titel": "rest stop" } },
                        { "at": 2, "mark": { "name": "rest", "title": "" } },
                        { "at": 3, "mark": 7 },
                        { "at": 4, "mark": { "name": "", "title": "nothing" } },
                        { "at": 5, "mark": { "name": "x", "title": "\(String(repeating: "a", count: 101))" } } ] }
            """
        let result = SessionReader.read(text, file: "m.json")
        #expect(result.document == nil)
        #expect(result.diagnostics.map(\.description) == [
            "m.json:2:32: error: cues[0].mark.name: missing required key \"name\"",
            "m.json:3:50: error: cues[1].mark.titel: unknown key \"titel\" is not part of the session format (did you mean \"title\"?)",
            "m.json:4:59: error: cues[2].mark.title: a mark's title is one line of words (\"rest stop\"), or leave \"title\" out",
            "m.json:5:32: error: cues[3].mark: expected a name (\"rest\") or an object ({ \"name\": \"rest\", \"title\": \"rest stop\" }), found a number 7",
            "m.json:6:42: error: cues[4].mark.name: a mark needs a name (drive, rest, arrival …)",
            "m.json:7:56: error: cues[5].mark.title: a mark's title is 101 characters; at most 100",
        ])
    }

    /// The presets' marks carry titles where the name is not what a person would say.
    @Test func thePresetsMarksHaveTitles() throws {
        let drive = try SessionPresets.make("drive", options: ["minutes": "60"])
        #expect(drive.marks.map(\.name) == ["ritual", "drive", "rest", "drive", "arrival"])
        #expect(drive.marks.map { $0.title ?? $0.name } == ["setting off", "on the road", "rest stop", "back on the road", "arrival"])
        let pomodoro = try SessionPresets.make("pomodoro", options: ["cycles": "2"])
        #expect(pomodoro.marks.map { $0.title ?? $0.name } == ["focus 1 of 2", "short break", "focus 2 of 2", "long break", "done"])
        #expect(pomodoro.marks.map(\.name) == ["focus", "short-break", "focus", "long-break", "end"])
        let one = try SessionPresets.make("pomodoro", options: ["cycles": "1"])
        #expect(one.marks.first?.title == nil && one.marks.first?.name == "focus")
        let breathing = try SessionPresets.make("breathing", options: ["cycles": "1"])
        #expect(breathing.marks.map { $0.title ?? $0.name } == ["breathe in", "hold", "breathe out", "unlock"])
    }

    static let stations = ["kexp": "https://kexp.example/kexp160.mp3", "fip": "https://fip.example/fip.mp3"]

    @Test func aStationByNameIsItsURL() throws {
        let text = """
            { "cabin": 1, "duration": "1h",
              "layers": { "radio": { "bus": "radio", "sound": "station:kexp", "gain": -10 } },
              "cues": [ { "at": 0, "start": "radio" }, { "at": "30m", "crossfade": "radio", "to": "station:fip", "over": "2s" } ] }
            """
        let references = SessionReferences(sound: { _ in nil }, haptic: { _ in nil }, stations: Self.stations)
        let result = SessionReader.read(text, file: "r.json", references: references)
        let doc = try #require(result.document, "\(result.diagnostics)")
        #expect(doc.layers.first?.sound == .station("https://kexp.example/kexp160.mp3"))
        #expect(doc.cues.last?.crossfade?.to == .station("https://fip.example/fip.mp3"))
        #expect(doc.stations == ["https://kexp.example/kexp160.mp3", "https://fip.example/fip.mp3"])
        // A live stream all the same: a render's fallback replaces both.
        #expect(doc.replacingStations(with: .library("radio/lofi")).stations.isEmpty)
    }

    @Test func anUnknownStationNameIsALocatedErrorWithTheNameMeant() {
        let text = """
            { "cabin": 1, "duration": "1h",
              "layers": { "a": { "bus": "radio", "sound": "station:kexq" }, "b": { "bus": "radio", "sound": "station:" },
                          "c": { "bus": "radio", "sound": "station:radio-paradise" } } }
            """
        let references = SessionReferences(sound: { _ in nil }, haptic: { _ in nil }, stations: Self.stations)
        #expect(SessionReader.read(text, file: "s.json", references: references).diagnostics.map(\.description) == [
            "s.json:2:47: error: layers.a.sound: no station named \"kexq\" (did you mean station:kexp?)",
            "s.json:2:97: error: layers.b.sound: station: needs a station's name (the config file's [stations] has fip, kexp)",
            "s.json:3:47: error: layers.c.sound: no station named \"radio-paradise\" (the config file's [stations] has fip, kexp)",
        ])
        // Read with no stations known (no config), every name is unknown.
        let bare = SessionReader.read(text, file: "s.json").diagnostics.map(\.description)
        #expect(bare.first == "s.json:2:47: error: layers.a.sound: no station named \"kexq\" (none are configured: add one under [stations] in the config file, NAME = \"https://…\")")
    }
}
