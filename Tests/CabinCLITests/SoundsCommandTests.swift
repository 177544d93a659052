import CabinTestSupport
import Foundation
import Testing

/// `cabin sounds …` run as the real binary on the committed library.
@Suite struct SoundsCommandTests {
    static let sounds = TestEnvironment.packageRoot.appendingPathComponent("Sounds").path

    @Test func listShowsEverySoundWithCategoryDurationLoudnessAndLoop() throws {
        let result = try ExternalTool.cabin(["sounds", "list"], environment: ["CABIN_SOUNDS": Self.sounds])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("NAME") == true)
        let v8 = try #require(lines.first { $0.hasPrefix("engine/v8 ") })
        #expect(v8.contains("engine") && v8.contains("6.00 s") && v8.contains("LUFS") && v8.contains("0…288000"))
        let horn = try #require(lines.first { $0.hasPrefix("ui/horn ") })
        #expect(horn.hasSuffix("-"), "one-shots have no loop")
        #expect(lines.count >= 47)
    }

    @Test func renderWritesTheSoundAtItsTrim() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-sounds")
        let out = dir.appendingPathComponent("horn.wav").path
        let result = try ExternalTool.cabin(["sounds", "render", "ui/horn", "-o", out], environment: ["CABIN_SOUNDS": Self.sounds])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try ExternalTool.cabin(["info", "--json", out])
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [[String: Any]])
        let loudness = try #require(reports.first?["loudness"] as? [String: Any])
        let integrated = try #require(loudness["integrated"] as? Double)
        #expect(abs(integrated + 23) < 0.1, "played at the library's reference loudness, not \(integrated) LUFS")
    }

    @Test func unknownNameIsOneLine() throws {
        let result = try ExternalTool.cabin(["sounds", "render", "engine/v12", "-o", "/tmp/x.wav"],
                                            environment: ["CABIN_SOUNDS": Self.sounds])
        #expect(result.status == 1)
        #expect(result.stderr == "cabin: error: engine/v12: not in the sound library (see 'cabin sounds list')\n")
    }

    /// A voice prompt regenerated alone, in a fresh process, is byte-identical to the one the
    /// full library run committed (prompts are spoken in library order first).
    @Test func generatingOnePromptReproducesTheCommittedFile() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-sounds-gen")
        let result = try ExternalTool.cabin(["sounds", "generate", "--only", "voice/short-break", "--output", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let fresh = try Data(contentsOf: dir.appendingPathComponent("voice/short-break.opus"))
        let committed = try Data(contentsOf: URL(fileURLWithPath: Self.sounds).appendingPathComponent("voice/short-break.opus"))
        #expect(fresh == committed)
        #expect(result.stdout.contains("1 sounds"))
    }
}
