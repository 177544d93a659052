import CabinIO
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

    /// The CLI names its own command where the library says only that no recipe has the name.
    @Test func generatingAnUnknownSoundIsOneLineNamingTheList() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-sounds-gen-unknown")
        let result = try ExternalTool.cabin(["sounds", "generate", "--only", "engine/v99", "--output", dir.path])
        #expect(result.status == 1)
        #expect(result.stderr == "cabin: error: engine/v99: no such sound (see 'cabin sounds list')\n")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
    }

    /// A voice prompt regenerated alone, in a fresh process, is byte-identical to the same
    /// prompt generated with all the others (speech does not depend on what was said before), and
    /// sounds as the committed file does. Bytes are compared on this machine only: libopus's
    /// float encoder picks its SIMD path by CPU, so the committed file's bytes are exact only
    /// on a machine like the one that made it (here its decode differs by about −40 dB).
    @Test func generatingOnePromptReproducesTheCommittedFile() throws {
        let prompts = try FileManager.default.contentsOfDirectory(atPath: Self.sounds + "/voice")
            .filter { $0.hasSuffix(".opus") }.map { "voice/" + $0.dropLast(5) }.sorted()
        #expect(prompts.contains("voice/short-break"))
        let alone = try TestEnvironment.temporaryDirectory("cabin-sounds-gen")
        let all = try TestEnvironment.temporaryDirectory("cabin-sounds-gen-all")
        let result = try ExternalTool.cabin(["sounds", "generate", "--only", "voice/short-break", "--output", alone.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 sounds"))
        #expect(!result.stdout.contains(" 0.0 kB"), "sizes are the files' real sizes: \(result.stdout)")
        let everyPrompt = try ExternalTool.cabin(["sounds", "generate", "--output", all.path] + prompts.flatMap { ["--only", $0] })
        #expect(everyPrompt.status == 0, "\(everyPrompt.stderr)")
        let fresh = alone.appendingPathComponent("voice/short-break.opus").path
        #expect(try Data(contentsOf: URL(fileURLWithPath: fresh))
                == Data(contentsOf: all.appendingPathComponent("voice/short-break.opus")))

        let committed = try SoundFile.read(Self.sounds + "/voice/short-break.opus")
        let regenerated = try SoundFile.read(fresh)
        #expect(regenerated.frameCount == committed.frameCount)
        var signal = 0.0, difference = 0.0
        for (a, b) in zip(committed.samples, regenerated.samples) {
            signal += Double(a * a)
            difference += Double((a - b) * (a - b))
        }
        let below = 10 * log10(signal / max(difference, 1e-30))
        #expect(below > 30, "the regenerated prompt differs from the committed one by only \(below) dB")
    }
}
