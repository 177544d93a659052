import CabinTestSupport
import Foundation
import Testing

/// Issue 29.5: `play` and `config` share one declaration of the settings' options
/// (`ConfigOptions`, and `DeviceArguments` for -D): the same help text in both, and each
/// option still taken by both binaries' commands.
@Suite struct SharedSettingsOptionsTests {
    static let options = ["-D, --device <name>", "--latency <auto|low|relaxed>", "--period <period>", "--periods <periods>",
                          "--volume <[bus=]level>", "--rumble <rumble>"]

    @Test func playAndConfigListEachOptionOnceWithOneHelpText() throws {
        let play = try ExternalTool.cabin(["play", "--help"]).stdout
        let config = try ExternalTool.cabin(["config", "--help"]).stdout
        for option in Self.options {
            let inPlay = PresetChoicesHelpTests.help(of: option, in: play)
            #expect(inPlay != nil, "play: no \(option)")
            #expect(inPlay == PresetChoicesHelpTests.help(of: option, in: config), "\(option)")
            for help in [play, config] {
                let lines = help.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(lines.filter { $0 == option || $0.hasPrefix(option + " ") }.count == 1, "\(option)")
            }
        }
    }

    @Test func configTakesEachOptionAndSaysItCameFromIt() throws {
        let (_, environment) = try ConfigCommandTests.config(nil)
        let result = try ExternalTool.cabin(["config", "--json", "-D", "none", "--latency", "relaxed", "--period", "512", "--periods", "4",
                                             "--volume=-6dB", "--volume", "radio=-3dB", "--rumble", "off"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let settings = try #require(report["settings"] as? [String: [String: Any]])
        let expected: [(String, String, String)] = [
            ("play.device", "none", "-D"), ("play.latency", "relaxed", "--latency"), ("play.period", "512", "--period"),
            ("play.periods", "4", "--periods"), ("volume.master", "-6.0", "--volume"), ("volume.radio", "-3.0", "--volume"),
            ("play.rumble", "off", "--rumble"),
        ]
        for (key, value, option) in expected {
            let entry = try #require(settings[key], "\(key)")
            #expect(entry["source"] as? String == "option" && entry["name"] as? String == option, "\(key): \(entry)")
            let shown = entry["value"].map { v -> String in (v as? Double).map { String(format: "%.1f", $0) } ?? "\(v)" }
            #expect(shown == value || (entry["value"] as? Int).map(String.init) == value, "\(key): \(entry)")
        }
    }

    /// `cabin play` with each of them: a second of the UI preset on the system clock.
    @Test func playTakesEachOption() throws {
        let (_, environment) = try ConfigCommandTests.config(nil)
        let result = try ExternalTool.cabin(["play", "--preset", "ui", "-D", "none", "--latency", "low", "--period", "512", "--periods", "4",
                                             "--volume=-6dB", "--rumble", "off", "--to", "1s", "--no-state", "--ipc", "off", "--no-mpris"],
                                            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("volume -6.0 dB") && result.stdout.contains("(from --volume)"), "\(result.stdout)")
        let bad = try ExternalTool.cabin(["play", "--preset", "ui", "-D", "none", "--period", "100"], environment: environment)
        #expect(bad.status == 64 && bad.stderr.contains("--period must be a power of two between 16 and 8192 frames, not 100"), "\(bad.stderr)")
    }
}
