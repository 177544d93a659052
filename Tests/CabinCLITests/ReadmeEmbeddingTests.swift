import CabinTestSupport
import Foundation
import Testing

/// Issue 28.1 and 28.2: the README's embedding examples work as written. Its `Package.swift`
/// and each `main.swift` (the front door, `LivePlayer.play`, then the long form with
/// `LivePlayer.open`), copied into a new package in a folder outside the checkout (beside a
/// `cabin` folder, as the README's path dependency names it), build against this checkout
/// and play the drive with no environment variables: the built-in sounds and haptic patterns
/// are found (no line about a missing library), on the paced test sink as `default`, and on
/// a machine with no sound device at all on the system clock, said in the `started` event.
/// How long each took from its start to the `started` event (the device has taken its first
/// period) is printed, not asserted.
@Suite(.serialized) struct ReadmeEmbeddingTests {
    /// The Swift blocks of the README's *Embedding* section: the package, then the programs.
    static func example() throws -> (package: String, mains: [String]) {
        let readme = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n## Embedding\n"))
        let end = readme[section.upperBound...].range(of: "\n## ")?.lowerBound ?? readme.endIndex
        let blocks = readme[section.upperBound..<end].components(separatedBy: "```swift\n").dropFirst()
            .map { $0.components(separatedBy: "\n```")[0] + "\n" }
        try #require(blocks.count >= 3)
        return (blocks[0], Array(blocks.dropFirst()))
    }

    /// Runs the built example for `seconds`, then kills it (a 50-minute drive), each line it
    /// prints prefixed with the milliseconds since the run began (`123 ms: started on …`).
    /// SIGKILL: the test process blocks SIGINT and SIGTERM (the library's signal handling,
    /// which children inherit), and the example installs no handler of its own. timeout then
    /// ends by the same signal (137, as bash reports a signal): killed at the end of its
    /// time, not ended by an error.
    static func play(_ binary: String, seconds: Int, environment: [String: String]) throws -> ExternalTool.Result {
        let script = """
            start=$(date +%s%N)
            stdbuf -oL -eL timeout -s KILL \(seconds) "$0" | while IFS= read -r line; do
                echo "$(( ($(date +%s%N) - start) / 1000000 )) ms: $line"
            done
            exit ${PIPESTATUS[0]}
            """
        return try ExternalTool.run("bash", ["-c", script, binary], environment: environment, unset: ["CABIN_SOUNDS", "CABIN_PATTERNS"])
    }

    /// Milliseconds from the run's start to the line containing `text`.
    static func milliseconds(to text: String, in output: String) -> Int? {
        output.split(separator: "\n").first { $0.contains(text) }.flatMap { Int($0.prefix { $0.isNumber }) }
    }

    @Test(.enabled(if: ExternalTool.which("swift") != nil && ExternalTool.which("stdbuf") != nil, "needs swift and stdbuf"))
    func theReadmesEmbeddingExamplesBuildAndPlayWithAndWithoutASoundDevice() throws {
        let (package, mains) = try Self.example()
        #expect(package.contains(".package(path: \"../cabin\")"))
        #expect(mains[0].contains("LivePlayer.play("), "the first example is the front door")
        #expect(mains[1].contains("LivePlayer.open("), "the second is the long form")
        let dir = try TestEnvironment.temporaryDirectory("cabin-readme-app")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("cabin"), withDestinationURL: TestEnvironment.packageRoot)
        let app = dir.appendingPathComponent("app")
        let sources = app.appendingPathComponent("Sources/MyFocusApp")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data(package.utf8).write(to: app.appendingPathComponent("Package.swift"))

        for (index, main) in mains.prefix(2).enumerated() {
            let name = index == 0 ? "front door (LivePlayer.play)" : "long form (LivePlayer.open)"
            try Data(main.utf8).write(to: sources.appendingPathComponent("main.swift"))
            let build = try ExternalTool.run("swift", ["build", "-c", "release", "--package-path", app.path],
                                             unset: ["CABIN_SOUNDS", "CABIN_PATTERNS"])
            try #require(build.status == 0, "\(name): \(build.stdout.suffix(3000))\(build.stderr.suffix(3000))")
            let binary = app.appendingPathComponent(".build/release/MyFocusApp").path

            // No sound device at all: it plays on, silently, for the 10 s it is given, and the
            // started event says why.
            let silent = try Self.play(binary, seconds: 10, environment: try SilentPlayTests.noSoundDevices())
            #expect(silent.status == 137 || silent.status == 9, "\(name): \(silent.stdout)\(silent.stderr)")
            // Events print as one line for people (`PlayerEvent`'s description), not a Swift dump.
            #expect(silent.stdout.contains("started on none at "), "\(name): \(silent.stdout)")
            #expect(silent.stdout.contains(": no sound (no sound device (no sound card, no sound server))"), "\(name): \(silent.stdout)")
            // The drive's first marks: the ritual, then on the road at 0:08.
            #expect(silent.stdout.contains("mark ritual at 0.000 s"), "\(name): \(silent.stdout)")
            #expect(silent.stdout.contains("mark drive at 8.000 s"), "\(name): \(silent.stdout)")
            // Every sound and pattern found: nothing said about a library, no decoding failure.
            #expect(!(silent.stdout + silent.stderr).contains("library"), "\(name): \(silent.stdout)\(silent.stderr)")
            #expect(silent.stderr.isEmpty, "\(name): \(silent.stderr)")

            // On a sound device (the paced test sink as `default`): heard, with no silent reason.
            let heard = try Self.play(binary, seconds: 5, environment: [:])
            #expect(heard.status == 137 || heard.status == 9, "\(name): \(heard.stdout)\(heard.stderr)")
            #expect(heard.stdout.contains("started on default at "), "\(name): \(heard.stdout)")
            #expect(!heard.stdout.contains("no sound"), "\(name): \(heard.stdout)")
            #expect(heard.stdout.contains("mark ritual at 0.000 s"), "\(name): \(heard.stdout)")
            #expect(!(heard.stdout + heard.stderr).contains("library"), "\(name): \(heard.stdout)\(heard.stderr)")
            // Measured, not asserted: from the run's start to the started event, which the
            // player gives once the device has taken its first period (seen by the app's
            // events within their polling: 50 ms for `events`, the example's 100 ms `usleep`).
            let started = Self.milliseconds(to: "started on default", in: heard.stdout).map { "\($0) ms" } ?? "?"
            let startedSilently = Self.milliseconds(to: "started on none", in: silent.stdout).map { "\($0) ms" } ?? "?"
            print("README \(name): started \(started) after the process began on the paced sink, \(startedSilently) with no sound device")
        }
    }
}
