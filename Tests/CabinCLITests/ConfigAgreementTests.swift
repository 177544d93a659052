import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// The config file reaches every command it concerns, as `cabin play` reads it: the haptic
/// strength in `haptics render` (default < file < environment < option), stations by name in
/// session documents (`"sound": "station:NAME"`), and a preset's configured options in
/// `cabin session --preset` and `session plot`, so they describe the session `play` plays.
@Suite struct ConfigAgreementTests {
    static let pattern = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics/arrival.ahap").path

    /// Renders `pattern` with `arguments` under `environment`: the samples and the summary.
    static func hapticsRender(_ dir: URL, _ name: String, _ arguments: [String] = [],
                              environment: [String: String] = [:]) throws -> (samples: [Float], summary: String) {
        let out = dir.appendingPathComponent(name).path
        let result = try ExternalTool.cabin(["haptics", "render", pattern, "-o", out] + arguments, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return (try SoundFile.read(out).samples, result.stdout)
    }

    static func peak(_ samples: [Float]) -> Float { samples.map(abs).max() ?? 0 }

    @Test func hapticsRenderTakesTheStrengthFromTheConfigAndTheEnvironment() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-strength")
        let (path, environment) = try ConfigCommandTests.config("[haptics]\nstrength = \"light\"\n")
        // The reference renders, with no config file: each strength given as the option.
        var given: [String: [Float]] = [:]
        for strength in ["off", "light", "medium", "strong"] {
            given[strength] = try Self.hapticsRender(dir, "\(strength).wav", ["--strength", strength]).samples
        }
        let plain = try Self.hapticsRender(dir, "plain.wav")
        #expect(plain.samples == given["strong"], "with nothing set, strong (the patterns as designed)")
        #expect(!plain.summary.contains(", strength "))
        // Light is intensity × 0.4 (strong is held at the −1 dBFS ceiling, so the ratio is at most 0.45).
        #expect(Self.peak(given["light"]!) < 0.75 * Self.peak(given["strong"]!) && Self.peak(given["light"]!) > 0)
        #expect(Self.peak(given["off"]!) == 0)

        // The file's strength, then the environment's over it, then the option over both.
        let file = try Self.hapticsRender(dir, "file.wav", environment: environment)
        #expect(file.samples == given["light"])
        #expect(file.summary.hasSuffix(", strength light (\(path):2)\n"), "\(file.summary)")
        let variable = try Self.hapticsRender(dir, "env.wav", environment: environment.merging(["CABIN_HAPTIC_STRENGTH": "off"]) { $1 })
        #expect(variable.samples == given["off"])
        #expect(variable.summary.hasSuffix(", strength off (environment CABIN_HAPTIC_STRENGTH)\n"))
        let option = try Self.hapticsRender(dir, "option.wav", ["--strength", "medium"],
                                            environment: environment.merging(["CABIN_HAPTIC_STRENGTH": "off"]) { $1 })
        #expect(option.samples == given["medium"])
        #expect(option.summary.hasSuffix(", strength medium (option --strength)\n"))

        // A bad value is the config's located error, and nothing is written.
        let (badPath, bad) = try ConfigCommandTests.config("[haptics]\nstrength = \"loud\"\n")
        let out = dir.appendingPathComponent("bad.wav").path
        let refused = try ExternalTool.cabin(["haptics", "render", Self.pattern, "-o", out], environment: bad)
        #expect(refused.status == 1)
        #expect(refused.stderr == "\(badPath):2:1: error: haptics.strength: must be off, light, medium or strong, not 'loud'\n", "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let unknown = try ExternalTool.cabin(["haptics", "render", Self.pattern, "-o", out], environment: ["CABIN_HAPTIC_STRENGTH": "max"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("environment CABIN_HAPTIC_STRENGTH: error: haptics.strength: must be off, light, medium or strong"), "\(unknown.stderr)")
    }

    /// The configured sound device is every playing command's default, as it is `play`'s.
    @Test func theCommandsThatPlayUseTheConfiguredDevice() throws {
        let (_, environment) = try ConfigCommandTests.config("[play]\ndevice = \"null\"\n")
        let haptics = try ExternalTool.cabin(["haptics", "play", Self.pattern, "--audio"], environment: environment)
        #expect(haptics.status == 0, "\(haptics.stderr)")
        #expect(haptics.stdout.contains(" as audio on null\n"), "\(haptics.stdout)")
        let sound = try ExternalTool.cabin(["sounds", "play", "ui/toggle", "--loops", "1"], environment: environment)
        #expect(sound.status == 0, "\(sound.stderr)")
        // The environment over the file, -D over both: a device that is not there is named.
        let variable = try ExternalTool.cabin(["sounds", "play", "ui/toggle"],
                                              environment: environment.merging(["CABIN_DEVICE": "no-such-pcm"]) { $1 })
        #expect(variable.status == 1)
        #expect(variable.stderr.contains("no-such-pcm"), "\(variable.stderr)")
        let option = try ExternalTool.cabin(["haptics", "play", Self.pattern, "--audio", "-D", "null"],
                                            environment: environment.merging(["CABIN_DEVICE": "no-such-pcm"]) { $1 })
        #expect(option.status == 0, "\(option.stderr)")
    }

    /// A document with an internet station by the name the config gives it.
    static func radioDocument(_ dir: URL, _ name: String, sound: String) throws -> (path: String, text: String) {
        let text = """
            { "cabin": 1, "title": "Radio by name", "duration": "4s",
              "layers": { "radio": { "bus": "radio", "sound": "\(sound)", "gain": -10 } },
              "cues": [ { "at": 0, "start": "radio", "fadeIn": "1s" },
                        { "at": "2s", "crossfade": "radio", "to": "\(sound)", "over": "1s" } ] }
            """
        let path = dir.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (path, text)
    }

    static let stations = """
        [stations]
        kexp = "http://127.0.0.1:9/kexp.mp3"
        fip = "https://fip.example/fip.aac"
        """

    @Test func aDocumentNamesAStationTheConfigNames() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-station")
        let (_, environment) = try ConfigCommandTests.config(Self.stations)
        let (named, _) = try Self.radioDocument(dir, "named.json", sound: "station:kexp")
        let (direct, _) = try Self.radioDocument(dir, "direct.json", sound: "http://127.0.0.1:9/kexp.mp3")

        let valid = try ExternalTool.cabin(["session", "validate", named], environment: environment)
        #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")
        #expect(valid.stdout == "\(named): ok (4s, 1 layer, 2 cues)\n")

        // A live stream by name is still a live stream: render says so, naming its URL …
        let out = dir.appendingPathComponent("named.wav").path
        let refused = try ExternalTool.cabin(["render", named, "-o", out], environment: environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("plays a live stream (http://127.0.0.1:9/kexp.mp3)"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // … and renders a library bed in its place, the same bits as the URL written out, every time.
        var renders: [[Float]] = []
        for (i, document) in [named, named, direct].enumerated() {
            let out = dir.appendingPathComponent("r\(i).wav").path
            let result = try ExternalTool.cabin(["render", document, "-o", out, "--radio-fallback", "radio/lofi"], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            renders.append(try SoundFile.read(out).samples)
        }
        #expect(renders[0] == renders[1] && renders[0] == renders[2])
        #expect(Self.peak(renders[0]) > 0.01)
    }

    @Test func anUnknownStationNameIsALocatedErrorWithTheNameMeant() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-station")
        let (_, environment) = try ConfigCommandTests.config(Self.stations)
        let (typo, text) = try Self.radioDocument(dir, "typo.json", sound: "station:kexq")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Where the value is: the layer's sound on line 2, the crossfade's on line 4.
        func column(_ line: Int) -> Int { lines[line - 1].distance(from: lines[line - 1].startIndex,
                                                                   to: lines[line - 1].range(of: "\"station:kexq\"")!.lowerBound) + 1 }
        for command in [["session", "validate", typo], ["render", typo, "-o", dir.appendingPathComponent("t.wav").path],
                        ["play", typo, "-D", "none"]] {
            let result = try ExternalTool.cabin(command, environment: environment)
            #expect(result.status == 1, "\(command)")
            let problems = (result.stdout + result.stderr).split(separator: "\n").map(String.init)
            #expect(problems.contains("\(typo):2:\(column(2)): error: layers.radio.sound: no station named \"kexq\" (did you mean station:kexp?)"),
                    "\(command): \(problems)")
            #expect(problems.contains("\(typo):4:\(column(4)): error: cues[1].to: no station named \"kexq\" (did you mean station:kexp?)"),
                    "\(command): \(problems)")
        }
        // Nothing close: the names there are; no stations at all: how to name one.
        let (far, _) = try Self.radioDocument(dir, "far.json", sound: "station:radio-paradise")
        let listed = try ExternalTool.cabin(["session", "validate", far], environment: environment)
        #expect(listed.stdout.contains("layers.radio.sound: no station named \"radio-paradise\" (the config file's [stations] has fip, kexp)"),
                "\(listed.stdout)")
        let none = try ExternalTool.cabin(["session", "validate", typo])
        #expect(none.status == 1)
        #expect(none.stdout.contains("layers.radio.sound: no station named \"kexq\" (none are configured: add one under [stations] in the config file, NAME = \"https://…\")"),
                "\(none.stdout)")
    }

    @Test func theSessionCommandsDescribeWhatPlayPlays() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-agree")
        let (_, environment) = try ConfigCommandTests.config("""
            [play]
            preset = "quest"
            [haptics]
            strength = "light"
            [presets.quest]
            seconds = 20
            [presets.drive]
            radio = "kexp"
            [stations]
            kexp = "https://kexp.example/live.mp3"
            """)
        // The printed document is the configured preset: its options, its strength, its station.
        let printed = try ExternalTool.cabin(["session", "--preset", "quest"], environment: environment)
        #expect(printed.status == 0, "\(printed.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(printed.stdout.utf8)) as? [String: Any])
        #expect(document["title"] as? String == "Quest: 20 s")
        #expect(document["hapticStrength"] as? String == "light")
        let drive = try ExternalTool.cabin(["session", "--preset", "drive", "--minutes", "30"], environment: environment)
        #expect(drive.stdout.contains(#""sound": "https://kexp.example/live.mp3""#))
        #expect(drive.stdout.contains(#""title": "Drive to your destination""#))
        // The option given wins over the config's.
        let given = try ExternalTool.cabin(["session", "--preset", "quest", "--seconds", "30"], environment: environment)
        #expect(given.stdout.contains(#""title": "Quest: 30 s""#))

        // The printed document (read with no config at all) renders the same bits, sound and
        // haptic track, as the preset rendered with the config: the session play would play.
        let file = dir.appendingPathComponent("quest.json").path
        try Data(printed.stdout.utf8).write(to: URL(fileURLWithPath: file))
        func render(_ source: [String], _ name: String, _ environment: [String: String]) throws -> ([Float], [Float]) {
            let out = dir.appendingPathComponent("\(name).wav").path, haptics = dir.appendingPathComponent("\(name)-h.wav").path
            let result = try ExternalTool.cabin(["render"] + source + ["-o", out, "--haptics", haptics], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return (try SoundFile.read(out).samples, try SoundFile.read(haptics).samples)
        }
        let fromPreset = try render(["--preset", "quest"], "preset", environment)
        let fromFile = try render([file], "file", [:])
        #expect(fromPreset.0 == fromFile.0)
        #expect(fromPreset.1 == fromFile.1)
        // Without the config, another session: 90 s, the haptics at full strength.
        let unconfigured = try render(["--preset", "quest", "--seconds", "20"], "plain", [:])
        #expect(unconfigured.0 == fromPreset.0)
        #expect(Self.peak(unconfigured.1) > 1.3 * Self.peak(fromPreset.1))

        // The picture is of the configured default preset too.
        let plot = try ExternalTool.cabin(["session", "plot", "-o", dir.appendingPathComponent("q.svg").path, "--no-loudness"],
                                          environment: environment)
        #expect(plot.status == 0, "\(plot.stderr)")
        #expect(plot.stdout.contains(": Quest: 20 s, 23s, "), "\(plot.stdout)")
    }
}
