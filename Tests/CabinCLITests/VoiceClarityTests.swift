import CabinTestSupport
import Foundation
import Testing

/// Whether python3 can import numpy and pystoi (what `scripts/voice-clarity` needs).
private let pystoiIsInstalled = (try? ExternalTool.run("python3", ["-c", "import numpy, pystoi"]).status) == 0

/// `scripts/voice-clarity` (python3, numpy, pystoi) on the real binary's renders: STOI of every
/// spoken prompt in the mix against its clean rendering, and the voice over the bed per band.
@Suite(.enabled(if: pystoiIsInstalled, "needs python3 with pystoi (scripts/install-deps installs it)"))
struct VoiceClarityTests {
    static let script = TestEnvironment.packageRoot.appendingPathComponent("scripts/voice-clarity").path

    /// One line of `scripts/voice-clarity --json`.
    struct Prompt: Decodable {
        var time: Double
        var prompt: String
        var seconds: Double
        var stoi: Double
        var bands: [Double]
        var worstBand: Double
        var worst: Double
    }

    static func measure(_ arguments: [String]) throws -> [Prompt] {
        let result = try ExternalTool.run("python3", [script, "--json", "--cabin", ExternalTool.cabinBinary] + arguments,
                                          environment: ["CABIN_SOUNDS": TestEnvironment.packageRoot.appendingPathComponent("Sounds").path])
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(Prompt.self, from: Data(String($0).utf8)) }
    }

    /// A prompt over loud pink noise: masked with no duck, clearer under the broadband duck,
    /// and clearer again with the speech band cleared too — what the measure is for.
    @Test func theBandDuckClearsAPromptTheNoiseMasks() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-voice-clarity")
        func document(_ ducking: String) throws -> String {
            let path = dir.appendingPathComponent("d\(ducking.count).json").path
            try """
                { "cabin": 1, "duration": "6s", "buses": { "ambient": 0, "voice": -6 }, "ducking": [\(ducking)],
                  "layers": { "noise": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
                  "cues": [ { "at": 0, "start": "noise" }, { "at": "2s", "say": "Halfway to your destination" } ] }
                """.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let broadband = #"{ "when": "voice", "duck": ["ambient"], "by": -8 }"#
        let band = #"{ "when": "voice", "duck": ["ambient"], "by": -8, "band": [150, 4000] }"#
        let none = try #require(Self.measure([try document("")]).first)
        let ducked = try #require(Self.measure([try document(broadband)]).first)
        let cleared = try #require(Self.measure([try document(broadband + ", " + band)]).first)
        print("pink noise: STOI \(none.stoi) no duck, \(ducked.stoi) ducked 8 dB, \(cleared.stoi) and its speech band 8 dB more")
        #expect(none.prompt == "Halfway to your destination" && abs(none.time - 2) < 1e-9)
        #expect(none.seconds > 1 && none.seconds < 3, "the prompt's span is where it sounds: \(none.seconds) s")
        #expect(none.bands.count == 15)
        #expect(none.stoi < ducked.stoi && ducked.stoi < cleared.stoi)
        #expect(none.stoi < 0.9)
        // The band duck lowers the noise by up to 8 dB inside 150 Hz–4 kHz: the voice rises over it there.
        let mid = 7  // 756 Hz, near the band's centre
        #expect(cleared.bands[mid] - ducked.bands[mid] > 6, "\(ducked.bands[mid]) → \(cleared.bands[mid]) dB")
    }

    /// Issue 27, goal 5: every prompt of the default drive (25 minutes, ritual to arrival) and of a Pomodoro at
    /// STOI ≥ 0.95 against its clean rendering.
    @Test(arguments: [["--preset", "drive"],
                      ["--preset", "pomodoro", "--", "--focus", "5m", "--short", "1m", "--long", "2m", "--cycles", "2"]])
    func everyPromptCarriesOverThePresetsMix(_ arguments: [String]) throws {
        let prompts = try Self.measure(arguments)
        for p in prompts { print("\(arguments[1]) \(p.time) s \"\(p.prompt)\": STOI \(p.stoi), worst band \(p.worst) dB at \(p.worstBand) Hz") }
        #expect(prompts.count >= 5)
        for p in prompts { #expect(p.stoi >= 0.95, "\(arguments[1]) at \(p.time) s: \"\(p.prompt)\" STOI \(p.stoi)") }
    }
}
