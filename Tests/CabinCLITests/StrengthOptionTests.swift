import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// `--strength` on the commands that play or render a session's haptics: the option is the
/// last word over the environment and the config file, as it is for `haptics play/render`.
@Suite struct StrengthOptionTests {
    /// The haptic track of the UI demo (toggle, counter, streak cues) under `arguments`.
    static func track(_ dir: URL, _ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> [Float] {
        let out = dir.appendingPathComponent(name + ".wav").path, haptics = dir.appendingPathComponent(name + "-h.wav").path
        let result = try ExternalTool.cabin(["render", "--preset", "ui", "-o", out, "--haptics", haptics, "--bits", "32f"] + arguments,
                                            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return try SoundFile.read(haptics).samples
    }

    @Test func renderTakesStrengthAsAnOption() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-strength-option")
        let strong = try Self.track(dir, "strong", ["--strength", "strong"])
        let light = try Self.track(dir, "light", ["--strength", "light"])
        #expect(ConfigAgreementTests.peak(light) > 0 && ConfigAgreementTests.peak(light) < 0.75 * ConfigAgreementTests.peak(strong))
        // The option over the environment and the file.
        let (_, environment) = try ConfigCommandTests.config("[haptics]\nstrength = \"off\"\n")
        let over = try Self.track(dir, "over", ["--strength", "light"], environment: environment.merging(["CABIN_HAPTIC_STRENGTH": "medium"]) { $1 })
        #expect(over == light)
        #expect(try Self.track(dir, "file", [], environment: environment).allSatisfy { $0 == 0 }, "the file's off")
    }

    @Test func playTakesStrengthAsAnOption() throws {
        let (_, environment) = try ConfigCommandTests.config("[haptics]\nstrength = \"off\"\n")
        let config = try ExternalTool.cabin(["play", "--preset", "quest", "-D", "none", "--to", "0.1s", "--strength", "loud"], environment: environment)
        #expect(config.status == 64 && config.stderr.contains("'loud'"), "\(config.stderr)")
        let played = try ExternalTool.cabin(["play", "--preset", "quest", "-D", "none", "--to", "0.2s", "--strength", "light"], environment: environment)
        #expect(played.status == 0, "\(played.stderr)")
    }
}

/// `haptics play` with nowhere named plays on the configured rumble device, as `cabin play`
/// does; with none configured it says where it could play.
@Suite struct HapticsPlayConfigTests {
    static let pattern = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics/tick.ahap").path

    @Test func theConfiguredRumbleDeviceIsTheDefault() throws {
        let (_, environment) = try ConfigCommandTests.config("[play]\nrumble = \"/dev/input/event999\"\n")
        let configured = try ExternalTool.cabin(["haptics", "play", Self.pattern], environment: environment)
        #expect(configured.status == 1)
        #expect(configured.stderr.hasPrefix("cabin: error: rumble device /dev/input/event999: open: No such file or directory"), "\(configured.stderr)")
        let variable = try ExternalTool.cabin(["haptics", "play", Self.pattern], environment: ["CABIN_RUMBLE": "/dev/input/event998"])
        #expect(variable.stderr.hasPrefix("cabin: error: rumble device /dev/input/event998: open:"), "\(variable.stderr)")
        let nowhere = try ExternalTool.cabin(["haptics", "play", Self.pattern], environment: try ConfigCommandTests.config("").environment)
        #expect(nowhere.status == 64)
        #expect(nowhere.stderr == "cabin: error: say where to play: --rumble /dev/input/eventN, --audio [-D NAME] (ALSA) or --dualsense NAME, one of them (or set play.rumble in the config file)\n")
    }
}
