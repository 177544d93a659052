import CabinSession
import Testing

/// The manifest writer writes what the reader reads.
@Suite struct SoundManifestWritingTests {
    @Test func roundTripThroughText() throws {
        var manifest = SoundManifest(referenceLoudness: -23)
        manifest.upsert(.init(name: "engine/v8", file: "engine/v8.flac", category: "engine", loopStart: 0, loopEnd: 288000,
                              loudness: -11.5, truePeak: -4, trim: -11.5, duration: 6, description: "V8 \"rumble\""))
        manifest.upsert(.init(name: "ui/horn", file: "ui/horn.opus", category: "ui", loudness: -13, truePeak: -3.9,
                              trim: -10, duration: 0.55))
        let text = manifest.serialized()
        let (back, diagnostics) = SoundManifest.read(Array(text.utf8), file: "manifest.json")
        #expect(diagnostics.errors.isEmpty)
        #expect(back == manifest)
        #expect(text.contains("\"referenceLoudness\": -23"))
    }

    @Test func numbersAreRoundedSoRegeneratingIsStable() throws {
        var manifest = SoundManifest()
        manifest.upsert(.init(name: "a", file: "a.opus", category: "ui", loudness: -13.456789, truePeak: -3.00001, trim: -9.543211,
                              duration: 1.23456))
        let text = manifest.serialized()
        #expect(text.contains("\"loudness\": -13.46") && text.contains("\"trim\": -9.54") && text.contains("\"duration\": 1.235"))
    }

    @Test func upsertReplacesInPlace() {
        var manifest = SoundManifest()
        manifest.upsert(.init(name: "a", file: "a.flac", category: "x"))
        manifest.upsert(.init(name: "b", file: "b.flac", category: "x"))
        manifest.upsert(.init(name: "a", file: "a.opus", category: "x"))
        #expect(manifest.sounds.map(\.file) == ["a.opus", "b.flac"])
    }
}
