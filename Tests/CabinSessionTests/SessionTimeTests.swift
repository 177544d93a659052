import CabinSession
import Testing

@Suite struct SessionTimeTests {
    @Test(arguments: [
        ("1h2m3.5s", 3723.5), ("90s", 90), ("250ms", 0.25), ("12:30", 750), ("1:02:03", 3723),
        ("0", 0), ("2.5", 2.5), ("12m30s", 750), ("49m50s", 2990), ("1h", 3600), ("1m500ms", 60.5),
        ("0:00.250", 0.25), ("1.s", 1), (".5s", 0.5), (" 90s\t", 90), ("\u{00A0}2m\u{200B}", 120), ("3m14.729s", 194.729),
    ])
    func parses(_ text: String, _ seconds: Double) {
        #expect(SessionTime.parse(text) == seconds)
    }

    @Test(arguments: ["3x", "", "1:60", "1:2:3:4", "s", "5m1h", "1s1s", "-1s", "1..5s", "ms", "1 h", "abc", ":30",
                      ".s", "1S", "1H", "1mss", "1sm", "\u{0663}s", "1\u{00B5}s", "1e3s", "1_0s"])
    func rejects(_ text: String) {
        #expect(SessionTime.parse(text) == nil)
    }

    @Test func formatsBack() {
        #expect(SessionTime.format(750) == "12m30s")
        #expect(SessionTime.format(3723.5) == "1h2m3.5s")
        #expect(SessionTime.format(0.25) == "0.25s")
        #expect(SessionTime.format(0) == "0s")
    }
}

@Suite struct SoundReferenceTests {
    @Test func kinds() throws {
        #expect(try SoundReferenceParser.parse("engine/v6").get() == .library("engine/v6"))
        #expect(try SoundReferenceParser.parse("sounds/rain.flac").get() == .file("sounds/rain.flac"))
        #expect(try SoundReferenceParser.parse("./hum").get() == .file("hum"))
        #expect(try SoundReferenceParser.parse("synth:brown-noise").get() == .synth(.brownNoise()))
        #expect(try SoundReferenceParser.parse("synth:sine?frequency=220").get() == .synth(.sine(frequency: 220)))
        #expect(try SoundReferenceParser.parse("synth:binaural?carrier=180&beat=6").get()
            == .synth(.binaural(carrier: 180, beat: 6)))
        #expect(try SoundReferenceParser.parse("synth:binaural").get() == .synth(.binaural(carrier: 200, beat: 10)))
        #expect(try SoundReferenceParser.parse("synth:isochronic?rate=6").get() == .synth(.isochronic(carrier: 200, rate: 6)))
        #expect(SoundReference.synth(.isochronic(carrier: 180, rate: 6)).description == "synth:isochronic?carrier=180&rate=6")
    }

    @Test(arguments: [
        ("../secret.wav", "\"../secret.wav\" leaves the document's folder: \"..\" is not allowed in sound paths"),
        ("a/../../b.flac", "\"a/../../b.flac\" leaves the document's folder: \"..\" is not allowed in sound paths"),
        ("/etc/x.wav", "\"/etc/x.wav\" is an absolute path: sounds are library names or paths relative to the document's folder"),
        ("synth:purple-noise", "no synthesizer \"purple-noise\": use synth:white-noise, synth:pink-noise, synth:brown-noise, synth:sine, synth:binaural, synth:isochronic, synth:engine, synth:motor"),
        ("synth:sine?freq=3", "synth:sine has no option \"freq\"; options: frequency"),
        ("synth:binaural?carrier=10&beat=20", "synth:binaural needs beat (20 Hz) below carrier (10 Hz)"),
    ])
    func errors(_ text: String, _ message: String) {
        guard case .failure(let problem) = SoundReferenceParser.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(problem.message == message)
    }
}
