import CabinPlayback
import CabinSession
import Testing

/// Issue 29.4: the radio is CabinRadio's, reached through `SessionLoader.radioProvider`.
/// Without a provider (a program that never called `RadioStations.register()`), a session
/// with a station is refused at load with one line per station, never played with its radio
/// silent; a session without stations needs no radio. The provider is given here, since the
/// registered one is process-wide and other suites register it.
struct RadioProviderTests {
    static func compile(_ layers: String) throws -> CompiledSession {
        let json = """
            { "cabin": 1, "title": "radio", "duration": "2s", "layers": { \(layers) },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """
        let doc = try #require(SessionReader.read(json, file: "radio.json").document)
        return SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 48000, maxBlockFrames: 512)
    }

    @Test func aSessionWithAStationIsRefusedWithoutARadioProvider() throws {
        let withStation = try Self.compile(#""radio": { "bus": "radio", "sound": "gen:lofi" }"#)
        #expect(!withStation.stations.isEmpty)
        let error = #expect(throws: SessionLoader.Failure.self) {
            _ = try SessionLoader.radio(for: withStation, documentFolder: "/", live: false, provider: nil)
        }
        #expect(error?.lines == ["gen:lofi: no radio to play it (live streams, playlists and generated music are CabinRadio's: register its RadioStations)"],
                "\(String(describing: error?.lines))")

        let without = try Self.compile(#""radio": { "bus": "radio", "sound": "synth:pink-noise", "loop": true }"#)
        let none = try SessionLoader.radio(for: without, documentFolder: "/", live: false, provider: nil)
        #expect(none.isEmpty)
    }
}
