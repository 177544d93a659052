import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Issue 28.2: the library's messages do not assume the CLI. A recipe that does not exist,
/// a preset's bad option through `SessionSource`: what happened, in the library's terms,
/// with no `cabin` command and no `--flag` (the CLI says them its own way).
@Suite struct LibraryWordsTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static func assumesNoCLI(_ line: String) -> Bool { !line.contains("cabin ") && !line.contains("--") }

    @Test func anUnknownRecipeIsNamedWithoutTheCLI() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-words")
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try SoundLibraryGenerator(folder: dir).generate(only: ["engine/v99"])
            Issue.record("generated a sound with no recipe")
        } catch {
            #expect("\(error)" == "engine/v99: no such sound (no recipe has this name)")
            #expect(Self.assumesNoCLI("\(error)"))
        }
        // Refused before any work: nothing written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test(arguments: [["radio": "nope"], ["ambient": "nope"], ["speed": "9"], ["minutes": "0"]])
    func aPresetsBadOptionNamesTheOptionNotAFlag(_ options: [String: String]) {
        do {
            _ = try SessionSource(file: nil, preset: "drive", presetOptions: options)
            Issue.record("accepted \(options)")
        } catch {
            guard case .preset(let problem) = error else { Issue.record("\(error)"); return }
            #expect(error.description.hasPrefix(options.keys.first!), "\(error)")
            #expect(Self.assumesNoCLI(error.description), "\(error)")
            #expect(problem.option == options.keys.first)
        }
    }
}
