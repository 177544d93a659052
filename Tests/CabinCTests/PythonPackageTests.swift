import CabinPlayback
import CabinTestSupport
import Foundation
import Testing

/// Issue 28.8: the `cabin` Python package (python/cabin: ctypes over libcabin, no compiled
/// extension) passes its pytest suite — a preset played silently for 2 s and its events, a
/// render into a NumPy array, an AHAP compiled and rendered, a spawned `cabin play` driven
/// through its control socket — and the README's "From Python" example runs as written.
/// Skipped, saying why, without python3, pytest or NumPy (Debian: python3-pytest, python3-numpy).
@Suite(.serialized, .enabled(if: PythonPackage.problem == nil, "\(PythonPackage.problem ?? "")"))
struct PythonPackageTests {
    static var environment: [String: String] { PythonPackage.environment }

    @Test func thePytestSuitePasses() throws {
        let tests = TestEnvironment.packageRoot.appendingPathComponent("python/tests").path
        let result = try ExternalTool.run("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider", tests],
                                          environment: Self.environment, unset: ["CABIN_SOUNDS", "CABIN_PATTERNS"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" passed") && !result.stdout.contains("skipped"), "\(result.stdout)")
    }

    @Test func theReadmesPythonExampleRunsAsWritten() throws {
        let example = TestEnvironment.packageRoot.appendingPathComponent("examples/python/quest.py").path
        let readme = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n### From Python\n"))
        let block = try #require(readme[section.upperBound...].components(separatedBy: "```python\n").dropFirst().first?
            .components(separatedBy: "\n```").first)
        #expect(block + "\n" == (try String(contentsOfFile: example, encoding: .utf8)))

        let result = try ExternalTool.run("python3", [example], environment: Self.environment, unset: ["CABIN_SOUNDS", "CABIN_PATTERNS"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "cabin \(CabinVersion.string)", "\(result.stdout)")
        #expect(result.stdout.contains(#/rendered 96000 frames, RMS -[0-9]+\.[0-9] dBFS/#), "\(result.stdout)")
        #expect(result.stdout.contains("'device': 'none', 'event': 'start'"), "\(result.stdout)")
        #expect(result.stdout.contains("[{'time': 0.0, 'intensity': 0.8, 'sharpness': 0.5}]"), "\(result.stdout)")
    }
}

/// Whether the Python tests can run here, and their environment.
enum PythonPackage {
    static let problem: String? = {
        if let problem = CLibrary.problem, problem.hasPrefix("needs /") { return problem }
        guard ExternalTool.which("python3") != nil else { return "needs python3" }
        guard let probe = try? ExternalTool.run("python3", ["-c", "import pytest, numpy"]), probe.status == 0 else {
            return "needs pytest and NumPy for python3 (Debian: python3-pytest python3-numpy)"
        }
        return nil
    }()

    /// The library and `cabin` built beside the tests, the package from python/.
    static var environment: [String: String] {
        ["CABIN_LIBRARY": CLibrary.built, "CABIN_BINARY": ExternalTool.cabinBinary,
         "PYTHONPATH": TestEnvironment.packageRoot.appendingPathComponent("python").path,
         "PYTHONDONTWRITEBYTECODE": "1"]
    }
}
