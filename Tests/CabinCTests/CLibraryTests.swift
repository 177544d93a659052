import CabinPlayback
import CabinTestSupport
import Foundation
import Testing

/// Issue 28.7: libcabin and include/cabin.h as a C program uses them — installed by
/// scripts/install-lib, found by pkg-config, compiled by gcc with -Wall -Werror and run under
/// AddressSanitizer. LeakSanitizer is off (`detect_leaks=0`): the Swift runtime linked into
/// the library keeps its type metadata, conformance caches and per-thread storage for the
/// life of the process by design, and LSan reports those at exit; every buffer and string
/// the API hands out is freed by the programs (use-after-free, overflows and double frees
/// are still caught).
@Suite(.serialized, .enabled(if: CLibrary.problem == nil, "\(CLibrary.problem ?? "")"))
struct CLibraryTests {
    static let asan = ["ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:halt_on_error=1"]

    /// Compiles `source` (a file, or C text written to one) under ASan and runs it with `arguments`.
    static func run(_ source: String, text: String? = nil, _ arguments: [String] = []) throws -> ExternalTool.Result {
        let dir = try TestEnvironment.temporaryDirectory("cabin-c")
        defer { try? FileManager.default.removeItem(at: dir) }
        var path = source
        if let text {
            path = dir.appendingPathComponent(source).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        let binary = dir.appendingPathComponent("program").path
        let built = try CLibrary.compile(path, to: binary, flags: ["-fsanitize=address", "-fno-omit-frame-pointer"])
        try #require(built.status == 0, "\(built.stdout)\(built.stderr)")
        return try ExternalTool.run(binary, arguments, environment: asan, unset: ["CABIN_SOUNDS", "CABIN_PATTERNS"])
    }

    static var example: String { TestEnvironment.packageRoot.appendingPathComponent("examples/c/quest.c").path }

    /// examples/c/quest.c, the README's "From C": renders 2 s of the quest preset into a
    /// buffer (a level in range), plays it on the silent clock for a second, its events the
    /// `--json` lines, a typo an error code with a message, then stops with a fade.
    @Test func theExampleRendersAndPlaysUnderAddressSanitizer() throws {
        let result = try Self.run(Self.example)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("AddressSanitizer"), "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "cabin \(CabinVersion.string)", "\(result.stdout)")
        let level = try #require(result.stdout.firstMatch(of: /rendered 96000 frames, RMS (-?[0-9.]+) dBFS/), "\(result.stdout)")
        let rms = try #require(Double(level.1))
        #expect(rms > -50 && rms < -6, "\(rms) dBFS")
        #expect(result.stdout.contains("set_parameter sped: CABIN_ERROR_NOT_FOUND: no parameter \"sped\" in this session"), "\(result.stdout)")
        #expect(result.stdout.contains(#/first block rendered in [0-9]+ ms/#), "\(result.stdout)")
        #expect(result.stdout.contains(#/first event after [0-9]+ ms/#), "\(result.stdout)")
        let events = lines.filter { $0.hasPrefix("{") }
        let start = try #require(events.first)
        #expect(start.contains(#""event":"start""#) && start.contains(#""device":"none""#) && start.contains(#""title":"#), "\(start)")
        #expect(events.contains { $0.contains(#""event":"mark""#) }, "\(events)")
        let end = try #require(events.last)
        #expect(end.contains(#""event":"end""#) && end.contains(#""reason":"stopped""#), "\(end)")
    }

    /// examples/c/callback.c, callback mode: the app's own loop asks for every block; the
    /// player's pause (at 1 s) fades the rain to silence and its resume (at 2 s) brings it
    /// back, the events say so, and the stop ends it — all through `cabin_player_render`.
    @Test func theCallbackExampleGetsTheWholeTransportUnderAddressSanitizer() throws {
        let result = try Self.run(TestEnvironment.packageRoot.appendingPathComponent("examples/c/callback.c").path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("AddressSanitizer"), "\(result.stderr)")
        var level: [Double: Double] = [:]
        for match in result.stdout.matches(of: /([0-9.]+) s: (-?[0-9.]+|-inf) dBFS/) {
            level[Double(match.1)!] = Double(match.2) ?? -.infinity
        }
        #expect(level.count == 12, "\(result.stdout)")
        // Playing before the pause and after the resume's fade; silent once the pause has faded.
        for t in [0.75, 1.0, 2.5, 2.75, 3.0] { #expect((level[t] ?? -.infinity) > -60, "\(t) s: \(level[t] ?? -.infinity)") }
        for t in [1.5, 1.75, 2.0] { #expect((level[t] ?? 0) < -100, "\(t) s: \(level[t] ?? 0)") }
        let events = result.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }
        for kind in ["start", "pause", "resume", "end"] {
            #expect(events.contains { $0.contains("\"event\":\"\(kind)\"") }, "no \(kind): \(events)")
        }
        #expect(events.last?.contains(#""reason":"stopped""#) == true, "\(events)")
    }

    /// Whatever a caller passes, an error code with a message, never a crash.
    @Test func badInputIsAnErrorCodeWithAMessage() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-c-render")
        defer { try? FileManager.default.removeItem(at: dir) }
        let wav = dir.appendingPathComponent("quest.wav").path
        let result = try Self.run("errors.c", text: Self.errorsProgram, [wav])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("AddressSanitizer"), "\(result.stderr)")
        let expected = [
            "null name: CABIN_ERROR_ARGUMENT: name is NULL",
            "no preset: CABIN_ERROR_NOT_FOUND: no preset \"nope\"",
            "bad option: CABIN_ERROR_ARGUMENT: seconds must be",
            "unknown option: CABIN_ERROR_ARGUMENT: speed is not an option of the quest preset",
            "not json: CABIN_ERROR_ARGUMENT: preset_options_json:1:2",
            "load option: CABIN_ERROR_ARGUMENT: options_json: unknown option \"sound\"",
            "misspelt bus: CABIN_ERROR_DOCUMENT: document:",
            "(did you mean \"ambient\"?)",
            "missing file: CABIN_ERROR_IO: ",
            "null session: CABIN_ERROR_ARGUMENT: session is NULL",
            "pause first: CABIN_ERROR_STATE: the player has not been started",
            "start twice: CABIN_ERROR_STATE: the player has already been started",
            "no bus: CABIN_ERROR_NOT_FOUND: no bus \"radoi\"",
            "nan volume: CABIN_ERROR_ARGUMENT: nan dB",
            "no event: CABIN_ERROR_NOT_FOUND: no live event 'nap'",
            "bad seek: CABIN_ERROR_ARGUMENT: seconds must be a finite time",
            "null buffer: CABIN_ERROR_ARGUMENT: buffer is NULL",
            "bad rate: CABIN_ERROR_ARGUMENT: sample_rate must be",
            "no format: CABIN_ERROR_ARGUMENT: ",
            "no folder: CABIN_ERROR_IO: ",
            "bad pattern: CABIN_ERROR_DOCUMENT: pattern:1:1",
            "status 42: CABIN_UNKNOWN_STATUS",
            "rendered file: CABIN_OK",
        ]
        for line in expected { #expect(result.stdout.contains(line), "\(line)\n\(result.stdout)") }
        // The file is the one `cabin render` writes, bit for bit.
        let cli = dir.appendingPathComponent("cli.wav").path
        let render = try ExternalTool.cabin(["render", "--preset", "quest", "--seconds", "10", "-o", cli],
                                            unset: ["CABIN_SOUNDS", "CABIN_PATTERNS"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: wav)) == Data(contentsOf: URL(fileURLWithPath: cli)))
    }

    static let errorsProgram = #"""
    #include <cabin.h>
    #include <math.h>
    #include <stdio.h>
    #include <stdlib.h>

    static void say(const char *what, cabin_status status) {
        printf("%s: %s: %s\n", what, cabin_status_name(status), status == CABIN_OK ? "" : cabin_last_error());
    }

    int main(int argc, char **argv) {
        if (argc != 2) return 2;
        cabin_session *s = NULL;
        say("null name", cabin_session_load_preset(NULL, NULL, NULL, &s));
        say("no preset", cabin_session_load_preset("nope", NULL, NULL, &s));
        say("bad option", cabin_session_load_preset("quest", "{\"seconds\": 5}", NULL, &s));
        say("unknown option", cabin_session_load_preset("quest", "{\"speed\": 5}", NULL, &s));
        say("not json", cabin_session_load_preset("quest", "{bad", NULL, &s));
        say("load option", cabin_session_load_preset("quest", NULL, "{\"sound\": \"/tmp\"}", &s));
        say("misspelt bus", cabin_session_load_json(
            "{\"cabin\": 1, \"duration\": 10, \"buses\": {\"ambient\": 0},"
            " \"layers\": {\"pad\": {\"bus\": \"ambeint\", \"sound\": \"synth:brown-noise\"}}}", NULL, NULL, &s));
        say("missing file", cabin_session_load_file("/nonexistent/session.json", NULL, &s));
        cabin_player *p = NULL;
        say("null session", cabin_player_open(NULL, "none", &p));
        say("null out", cabin_session_load_preset("quest", NULL, NULL, NULL));
        if (cabin_session_load_preset("quest", "{\"seconds\": 10}", NULL, &s) != CABIN_OK) return 1;
        if (cabin_player_open(s, "none", &p) != CABIN_OK) return 1;
        say("pause first", cabin_player_pause(p));
        say("start", cabin_player_start(p));
        say("start twice", cabin_player_start(p));
        say("no bus", cabin_player_set_volume(p, "radoi", -6));
        say("nan volume", cabin_player_set_volume(p, NULL, NAN));
        say("master volume", cabin_player_set_volume(p, NULL, -6));
        say("no event", cabin_player_trigger(p, "nap"));
        say("bad seek", cabin_player_seek(p, INFINITY));
        say("null out", cabin_player_poll(p, NULL));
        cabin_player_free(p);
        cabin_renderer *r = NULL;
        if (cabin_renderer_open(s, 0, &r) != CABIN_OK) return 1;
        say("null buffer", cabin_renderer_render(r, NULL, 512, NULL));
        cabin_renderer_free(r);
        say("bad rate", cabin_renderer_open(s, 7, &r));
        say("no format", cabin_render_file(s, "/tmp/cabin-test-out.txt", 0, 0, -1));
        say("no folder", cabin_render_file(s, "/nonexistent/folder/out.wav", 0, 0, -1));
        say("rendered file", cabin_render_file(s, argv[1], 0, 0, -1));
        cabin_pattern *pattern = NULL;
        say("bad pattern", cabin_pattern_load("not json", NULL, NULL, &pattern));
        say("null text", cabin_pattern_load(NULL, NULL, NULL, &pattern));
        say("status 42", 42);
        cabin_session_free(s);
        cabin_session_free(NULL);
        cabin_player_free(NULL);
        cabin_renderer_free(NULL);
        cabin_pattern_free(NULL);
        cabin_free(NULL);
        return 0;
    }
    """#

    /// The header declares what the library exports, and the library exports nothing else:
    /// every `cabin_` function in include/cabin.h is a defined dynamic symbol, and every
    /// dynamic symbol defined is one of them (the Swift runtime inside stays hidden).
    @Test func theLibraryExportsExactlyTheHeadersFunctions() throws {
        let header = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("include/cabin.h"), encoding: .utf8)
        let declared = Set(header.matches(of: /\b(cabin_[a-z_]+)\(/).map { String($0.1) })
        let nm = try ExternalTool.run("nm", ["-D", "--defined-only", CLibrary.built])
        try #require(nm.status == 0, "\(nm.stderr)")
        let exported = Set(nm.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        #expect(exported == declared, "only exported: \(exported.subtracting(declared).sorted()); only declared: \(declared.subtracting(exported).sorted())")
        #expect(declared.count > 30, "\(declared.count)")
    }

    /// The README's "From C" example is examples/c/quest.c as written, and its build line works.
    @Test func theReadmesCExampleIsTheFileTheTestsRun() throws {
        let readme = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n### From C\n"))
        let block = try #require(readme[section.upperBound...].components(separatedBy: "```c\n").dropFirst().first?
            .components(separatedBy: "\n```").first)
        #expect(block + "\n" == (try String(contentsOfFile: Self.example, encoding: .utf8)))
    }
}
