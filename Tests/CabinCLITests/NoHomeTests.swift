import CabinTestSupport
import Foundation
import Glibc
import Testing

/// Issue 31.9, no home: with `HOME` unset Cabin wrote `/.local/state/cabin/state.json` at the
/// filesystem root; with `HOME=/nonexistent/home` it made that whole tree (speech cache and
/// state). Now an unset `HOME` falls back to the password database's home, and a missing
/// home is never made: the command goes without state and speech cache, saying so once.
@Suite(.serialized)
struct NoHomeTests {
    /// Prompts (the speech cache) and a bed, half a second.
    static let session = """
        { "cabin": 1, "title": "homeless", "duration": "800ms",
          "layers": { "t": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
          "cues": [ { "at": 0, "start": "t" }, { "at": "0.1s", "say": "Halfway there" } ] }
        """

    static let xdg = ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "CABIN_SPEECH_CACHE"]

    static func document() throws -> (URL, String) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-home")
        let path = dir.appendingPathComponent("s.json").path
        try Data(Self.session.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    @Test func noHome() throws {
        let (dir, path) = try Self.document()
        defer { try? FileManager.default.removeItem(at: dir) }

        // HOME unset: the password database's home, not the root.
        let passwordHome = String(cString: getpwuid(getuid()).pointee.pw_dir)
        let config = try ExternalTool.cabin(["config"], unset: ["HOME"] + Self.xdg)
        #expect(config.status == 0, "\(config.stderr)")
        #expect(config.stdout.contains("config file: \(passwordHome)/.config/cabin/config.toml"), "\(config.stdout)")
        #expect(config.stdout.contains("state file:  \(passwordHome)/.local/state/cabin/state.json"), "\(config.stdout)")
        // (Played with the state and cache elsewhere, so the real home is not written.)
        let played = try ExternalTool.cabin(["play", path, "-D", "none"], environment: [
            "XDG_STATE_HOME": dir.appendingPathComponent("state").path, "XDG_CACHE_HOME": dir.appendingPathComponent("cache").path,
        ], unset: ["HOME", "XDG_CONFIG_HOME", "CABIN_SPEECH_CACHE"])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/.local/state/cabin"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("state/cabin/state.json").path))

        // HOME names a folder that is not there: never made; one line says what goes.
        try #require(!FileManager.default.fileExists(atPath: "/nonexistent"), "/nonexistent exists on this machine")
        for arguments in [["play", path, "-D", "none"], ["play", path, "-D", "none", "--json"]] {
            let missing = try ExternalTool.cabin(arguments, environment: ["HOME": "/nonexistent/home"], unset: Self.xdg)
            #expect(missing.status == 0, "\(missing.stderr)")
            // (Besides -D none's own note.)
            let lines = missing.stderr.split(separator: "\n").filter { !$0.contains("-D none: playing silently") }
            #expect(lines == ["cabin: warning: the home folder /nonexistent/home does not exist, and Cabin does not make one: "
                              + "going without the state file or the speech cache"], "\(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "/nonexistent"))
        }
        let resume = try ExternalTool.cabin(["play", "--resume", "-D", "none"], environment: ["HOME": "/nonexistent/home"], unset: Self.xdg)
        #expect(resume.status == 1)
        let render = try ExternalTool.cabin(["render", path, "-o", dir.appendingPathComponent("x.wav").path],
                                            environment: ["HOME": "/nonexistent/home"], unset: Self.xdg)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stderr == "cabin: warning: the home folder /nonexistent/home does not exist, and Cabin does not make one: "
                + "going without the speech cache\n", "\(render.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent"))

        // HOME set to a folder that is there: it is where state and cache go.
        let home = dir.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let housed = try ExternalTool.cabin(["play", path, "-D", "none"], environment: ["HOME": home.path], unset: Self.xdg)
        #expect(housed.status == 0, "\(housed.stderr)")
        #expect(!housed.stderr.contains("home folder"), "\(housed.stderr)")
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/state/cabin/state.json").path))
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent(".cache/cabin/speech").path)) ?? []
        #expect(cached.contains { $0.hasSuffix(".speech") }, "\(cached)")
    }
}
