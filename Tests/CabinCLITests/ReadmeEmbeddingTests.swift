import CabinTestSupport
import Foundation
import Testing

/// Issue 28.1: the README's embedding example works as written. Its `Package.swift` and
/// `main.swift`, copied into a new package in a folder outside the checkout (beside a `cabin`
/// folder, as the README's path dependency names it), build against this checkout and play
/// the drive with no environment variables: the built-in sounds and haptic patterns are found
/// (no line about a missing library), on the paced test sink as `default`, and on a machine
/// with no sound device at all on the system clock, said in the `started` event.
@Suite(.serialized) struct ReadmeEmbeddingTests {
    /// The two Swift blocks of the README's *Embedding* section: the package, then the program.
    static func example() throws -> (package: String, main: String) {
        let readme = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n## Embedding\n"))
        let blocks = readme[section.upperBound...].components(separatedBy: "```swift\n").dropFirst()
            .map { $0.components(separatedBy: "\n```")[0] + "\n" }
        try #require(blocks.count >= 2)
        return (blocks[0], blocks[1])
    }

    /// Runs the built example for `seconds`, then kills it (a 50-minute drive), its output
    /// line-buffered so what it printed before is kept. SIGKILL: the test process blocks
    /// SIGINT and SIGTERM (the library's signal handling, which children inherit), and the
    /// example installs no handler of its own. timeout then ends by the same signal (status 9
    /// here, as Process reports a signal; 137 from a shell): killed at the end of its time,
    /// not ended by an error.
    static func play(_ binary: String, seconds: Int, environment: [String: String]) throws -> ExternalTool.Result {
        try ExternalTool.run("stdbuf", ["-oL", "-eL", "timeout", "-s", "KILL", "\(seconds)", binary],
                             environment: environment, unset: ["CABIN_SOUNDS", "CABIN_PATTERNS"])
    }

    @Test(.enabled(if: ExternalTool.which("swift") != nil && ExternalTool.which("stdbuf") != nil, "needs swift and stdbuf"))
    func theReadmesEmbeddingExampleBuildsAndPlaysWithAndWithoutASoundDevice() throws {
        let (package, main) = try Self.example()
        #expect(package.contains(".package(path: \"../cabin\")"))
        let dir = try TestEnvironment.temporaryDirectory("cabin-readme-app")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("cabin"), withDestinationURL: TestEnvironment.packageRoot)
        let app = dir.appendingPathComponent("app")
        let sources = app.appendingPathComponent("Sources/MyFocusApp")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data(package.utf8).write(to: app.appendingPathComponent("Package.swift"))
        try Data(main.utf8).write(to: sources.appendingPathComponent("main.swift"))

        let build = try ExternalTool.run("swift", ["build", "-c", "release", "--package-path", app.path],
                                         unset: ["CABIN_SOUNDS", "CABIN_PATTERNS"])
        try #require(build.status == 0, "\(build.stdout.suffix(3000))\(build.stderr.suffix(3000))")
        let binary = app.appendingPathComponent(".build/release/MyFocusApp").path

        // No sound device at all: it plays on, silently, for the 10 s it is given, and the
        // started event says why.
        let silent = try Self.play(binary, seconds: 10, environment: try SilentPlayTests.noSoundDevices())
        #expect(silent.status == 9 || silent.status == 137, "\(silent.stdout)\(silent.stderr)")
        // Events print as one line for people (`PlayerEvent`'s description), not a Swift dump.
        #expect(silent.stdout.contains("started on none at "), "\(silent.stdout)")
        #expect(silent.stdout.contains(": no sound (no sound device (no sound card, no sound server))"), "\(silent.stdout)")
        // The drive's first marks: the ritual, then on the road at 0:08.
        #expect(silent.stdout.contains("mark ritual at 0.000 s"), "\(silent.stdout)")
        #expect(silent.stdout.contains("mark drive at 8.000 s"), "\(silent.stdout)")
        // Every sound and pattern found: nothing said about a library, no decoding failure.
        #expect(!(silent.stdout + silent.stderr).contains("library"), "\(silent.stdout)\(silent.stderr)")
        #expect(silent.stderr.isEmpty, "\(silent.stderr)")

        // On a sound device (the paced test sink as `default`): heard, with no silent reason.
        let heard = try Self.play(binary, seconds: 5, environment: [:])
        #expect(heard.status == 9 || heard.status == 137, "\(heard.stdout)\(heard.stderr)")
        #expect(heard.stdout.contains("started on default at "), "\(heard.stdout)")
        #expect(!heard.stdout.contains("no sound"), "\(heard.stdout)")
        #expect(heard.stdout.contains("mark ritual at 0.000 s"), "\(heard.stdout)")
        #expect(!(heard.stdout + heard.stderr).contains("library"), "\(heard.stdout)\(heard.stderr)")
    }
}
