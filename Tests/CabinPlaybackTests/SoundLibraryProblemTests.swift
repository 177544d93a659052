import CabinPlayback
import CabinTestSupport
import Foundation
import Testing

/// Why a name is not in the sound library, as a document's diagnostics show it to any app:
/// the name meant when one is close, else the same group's sounds, else the library's groups —
/// never advice that names a command of the CLI.
@Suite struct SoundLibraryProblemTests {
    static let library = try! SoundLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Sounds"))

    @Test func aNameInTheLibraryHasNoProblem() {
        #expect(Self.library.problem(with: "ambient/rain") == nil)
    }

    @Test func aCloseNameIsSuggested() {
        #expect(Self.library.problem(with: "ambient/rian") == "ambient/rian: not in the sound library (did you mean ambient/rain?)")
    }

    @Test func aNameInNoGroupNamesTheLibrarysGroups() throws {
        let problem = try #require(Self.library.problem(with: "zzz/nothing-like-it"))
        let groups = Set(Self.library.manifest.sounds.compactMap { $0.name.split(separator: "/").first.map { "\($0)/" } }).sorted()
        #expect(problem == "zzz/nothing-like-it: not in the sound library (its sounds are in \(groups.joined(separator: ", ")))")
        #expect(groups.contains("ambient/") && groups.contains("engine/"))
        #expect(!problem.contains("cabin"), "advice for a terminal: \(problem)")
    }
}
