import CabinTestSupport
import Foundation
import Glibc
import Testing

/// `cabin config`: the settings in effect and where each came from, read from a real config
/// file in a folder of the test's own (`XDG_CONFIG_HOME`).
@Suite struct ConfigCommandTests {
    /// A config folder with `text` as its config.toml; the environment that points at it.
    static func config(_ text: String?) throws -> (path: String, environment: [String: String]) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-config")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("cabin"), withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("cabin/config.toml").path
        if let text { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
        return (path, ["XDG_CONFIG_HOME": dir.path, "XDG_STATE_HOME": dir.appendingPathComponent("state").path])
    }

    /// `cabin session presets` lists the defaults in effect: the configured default preset
    /// and preset options, each saying where it was set; the others stay Cabin's own.
    @Test func presetsListTheConfiguredDefaults() throws {
        let (path, environment) = try Self.config("""
            [play]
            preset = "pomodoro"
            [presets.pomodoro]
            focus = "50m"
            """)
        let result = try ExternalTool.cabin(["session", "presets"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains { $0.hasPrefix("pomodoro (default, \(path):2): ") })
        #expect(lines.contains { $0.hasPrefix("drive: ") })
        #expect(lines.contains { $0.hasPrefix("--focus ") && $0.hasSuffix("(default: 50m, set in \(path):4)") })
        #expect(lines.contains { $0.hasPrefix("--short ") && $0.hasSuffix("(default: 5m)") })

        let json = try ExternalTool.cabin(["session", "presets", "--json"], environment: environment)
        let items = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [[String: Any]]
        let pomodoro = try #require(items.first { $0["name"] as? String == "pomodoro" })
        #expect(pomodoro["default"] as? Bool == true)
        let focus = try #require((pomodoro["options"] as? [[String: Any]])?.first { $0["name"] as? String == "focus" })
        #expect(focus["default"] as? String == "50m")
        #expect(focus["configured"] as? String == "\(path):4")
    }

    @Test func theEffectiveSettingsWithTheirOrigins() throws {
        let (path, environment) = try Self.config("""
            [play]
            device = "pulse"
            period = 512
            [volume]
            master = "80%"
            [presets.pomodoro]
            focus = "50m"
            [stations]
            kexp = "https://kexp.example/live.mp3"
            """)
        let result = try ExternalTool.cabin(["config", "--periods", "4"], environment: environment.merging(["CABIN_PERIOD": "1024"]) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines.first == "config file: \(path)")
        #expect(lines.contains("play.device pulse \(path):2"))
        #expect(lines.contains("play.period 1024 environment CABIN_PERIOD"))
        #expect(lines.contains("play.periods 4 option --periods"))
        #expect(lines.contains("play.preset drive default"))
        #expect(lines.contains("volume.master -5.8 dB (80 %) \(path):5"))
        #expect(lines.contains("presets.pomodoro.focus 50m \(path):7"))
        #expect(lines.contains("stations.kexp https://kexp.example/live.mp3 \(path):9"))

        let json = try ExternalTool.cabin(["config", "--json", "-D", "none"], environment: environment)
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["configFile"] as? String == path)
        #expect(object["configFileExists"] as? Bool == true)
        let settings = object["settings"] as! [String: [String: Any]]
        #expect(settings["play.device"]?["value"] as? String == "none")
        #expect(settings["play.device"]?["source"] as? String == "option")
        #expect(settings["play.device"]?["name"] as? String == "-D")
        #expect(settings["play.period"]?["value"] as? Int == 512)
        #expect(settings["play.period"]?["source"] as? String == "file")
        #expect(settings["play.period"]?["line"] as? Int == 3)
        #expect(settings["play.periods"]?["source"] as? String == "default")
    }

    /// Issue 31.10, unbounded config: a 50 MB config.toml cost 17 s and ~1 GB on every
    /// command; a directory or FIFO said "Inappropriate ioctl for device"; a folder that
    /// cannot be searched or a link to nothing silently meant the defaults. Now each is one
    /// error line (exit 1), at once: the size is checked before a byte is read, and a FIFO is
    /// opened non-blocking and refused unread.
    @Test func unboundedConfig() throws {
        let (path, environment) = try Self.config(nil)
        let manager = FileManager.default
        func expectOneLine(_ message: String, _ note: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try ExternalTool.cabin(["config"], environment: environment)
            #expect(result.status == 1, "\(note)", sourceLocation: sourceLocation)
            #expect(result.stderr == "\(path): error: \(message)\n", "\(note)", sourceLocation: sourceLocation)
            #expect(result.seconds < 5, "\(note): \(result.seconds) s", sourceLocation: sourceLocation)
        }
        // 50 MB of comments (valid TOML, so only the size refuses it).
        let line = Data(("# " + String(repeating: "x", count: 1021) + "\n").utf8)
        manager.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let block = Data((0..<1024).flatMap { _ in line })   // 1 MiB
        for _ in 0..<50 { handle.write(block) }
        try handle.close()
        try expectOneLine("is 52428800 bytes; a config file is at most 1048576 bytes", "50 MB")
        // Just under the limit is read (and is the defaults: comments only).
        try manager.removeItem(atPath: path)
        manager.createFile(atPath: path, contents: block.prefix(1 << 20))
        #expect(try ExternalTool.cabin(["config"], environment: environment).status == 0)

        try manager.removeItem(atPath: path)
        try manager.createDirectory(atPath: path, withIntermediateDirectories: false)
        try expectOneLine("is a directory, not a config file", "a directory")
        try manager.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        try expectOneLine("is not a regular file (a FIFO or a device), not a config file", "a FIFO")
        try manager.removeItem(atPath: path)
        try manager.createSymbolicLink(atPath: path, withDestinationPath: "/nonexistent/cabin.toml")
        try expectOneLine("is a symbolic link to /nonexistent/cabin.toml, which does not exist", "a dangling link")
        // The config folder is not a folder: said, not taken for "no config".
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try manager.removeItem(atPath: folder)
        manager.createFile(atPath: folder, contents: Data("x".utf8))
        try expectOneLine("cannot be read (a part of the path is not a folder)", "a file for the folder")
        // (A folder without search permission says "cannot be read (permission denied)";
        // these tests run as root, which may search any folder.)
    }

    @Test func noConfigFileMeansTheDefaults() throws {
        let (path, environment) = try Self.config(nil)
        let result = try ExternalTool.cabin(["config"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("config file: \(path) (none: the defaults apply)\n"))
        #expect(result.stdout.contains("play.device       default"))
    }

    @Test func aBadConfigIsOneLineAProblemAndExit1() throws {
        let (path, environment) = try Self.config("""
            [play]
            period = 100
            devcie = "pulse"
            [volume]
            master = "loud"
            """)
        let result = try ExternalTool.cabin(["config"], environment: environment)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            \(path):2:1: error: play.period: must be a power of two from 16 to 8192 frames, not 100
            \(path):3:1: warning: play.devcie: unknown key (did you mean 'device'?); ignored
            \(path):5:1: error: volume.master: a volume is a percentage 0–130 (80 or 80%) or decibels from -200 to +6.8 (-6dB; -inf dB mutes), not 'loud'

            """)
        // `cabin play` stops on the same lines before it plays.
        let play = try ExternalTool.cabin(["play", "--preset", "quest", "-D", "none"], environment: environment)
        #expect(play.status == 1)
        #expect(play.stderr == result.stderr)
        // Not TOML at all: one line at its place.
        let (bad, badEnvironment) = try Self.config("[play\nperiod = 512\n")
        let syntax = try ExternalTool.cabin(["config"], environment: badEnvironment)
        #expect(syntax.status == 1)
        #expect(syntax.stderr.hasPrefix("\(bad):1:6: error: not TOML: "), "\(syntax.stderr)")
        #expect(syntax.stderr.split(separator: "\n").count == 1)
        // A bad environment variable too.
        let (_, plain) = try Self.config(nil)
        let variable = try ExternalTool.cabin(["config"], environment: plain.merging(["CABIN_VOLUME": "200%"]) { $1 })
        #expect(variable.status == 1)
        #expect(variable.stderr.hasPrefix("environment CABIN_VOLUME: error: volume.master: a volume is"))
    }

    @Test func anUnknownKeyIsAWarningNotAFailure() throws {
        let (path, environment) = try Self.config("[play]\nperiods = 4\n[colour]\ntheme = \"dark\"\n")
        let result = try ExternalTool.cabin(["config"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stderr == "\(path):4:1: warning: colour.theme: unknown key (known: haptics, play, presets, stations, volume); ignored\n")
        #expect(result.stdout.contains("play.periods      4"))
    }

    @Test func aPresetsOptionsAndStationsComeFromTheConfig() throws {
        let (_, environment) = try Self.config("""
            [play]
            preset = "pomodoro"
            [presets.pomodoro]
            focus = "50m"
            cycles = 2
            [presets.drive]
            radio = "kexp"
            [stations]
            kexp = "https://kexp.example/live.mp3"
            """)
        // The default preset with its configured options, under the command line's.
        let session = try ExternalTool.cabin(["session", "--preset", "pomodoro", "--cycles", "3"], environment: environment)
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stdout.contains("\"title\": \"Pomodoro: 3 × 50 min\""), "the session command prints what play plays: \(session.stdout.prefix(200))")
        let render = try ExternalTool.cabin(["render", "--preset", "drive", "--minutes", "25", "-o", "/dev/null"], environment: environment)
        // A station by name: the drive's radio is the configured URL (a live stream, so render refuses it).
        #expect(render.status != 0)
        #expect(render.stderr.contains("https://kexp.example/live.mp3"), "\(render.stderr)")
    }
}
