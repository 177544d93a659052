import CabinTestSupport
import Foundation
import Testing

/// `cabin session levels`: the real binary on a preset and on a document of the user's.
@Suite struct SessionLevelsCommandTests {
    @Test func aPresetsCuesArePrintedWithTheirBedAndTheLimiter() throws {
        let result = try ExternalTool.cabin(["session", "levels", "--preset", "breathing"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("\"Breathe\": cues over the bed") == true, "\(result.stdout)")
        let unlock = try #require(lines.first { $0.contains("ui/unlock") }, "\(result.stdout)")
        // time, segment, cue, bus, then cue/bed LUFS, the jump, the bed under, peak, limiter.
        #expect(unlock.contains("unlock") && unlock.hasSuffix("0.0 dB"), "\(unlock)")
        #expect(lines.contains { $0.hasPrefix("loudest over its bed: ui/unlock at 0:44.0, +") }, "\(result.stdout)")
        #expect(lines.last == "no cue drives the limiter")

        let json = try ExternalTool.cabin(["session", "levels", "--preset", "breathing", "--json"])
        #expect(json.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let cues = try #require(report["cues"] as? [[String: Any]])
        #expect(cues.count == 1)
        #expect(cues.first?["name"] as? String == "ui/unlock" && cues.first?["time"] as? Double == 44)
        let margin = try #require(cues.first?["margin"] as? Double)
        #expect(margin > 0 && margin <= 10, "\(margin)")
        #expect(report["ceiling"] as? Double == -1.5)
    }

    /// A document's title and spoken texts reach the terminal escaped: a title that would
    /// retitle the window and clear the screen prints as visible escapes, one line each.
    @Test func aDocumentsTextsArePrintedWithTheirControlCharactersEscaped() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-levels")
        let file = dir.appendingPathComponent("hostile.json")
        let document: [String: Any] = [
            "cabin": 1, "title": "Focus \u{1B}]0;PWNED\u{07}\u{1B}[2J", "duration": "12s",
            "layers": ["bed": ["bus": "ambient", "sound": "synth:pink-noise", "loop": true]],
            "cues": [["at": 0, "start": "bed", "fadeIn": "0.2s"], ["at": "6s", "play": "ui/chime-focus"]],
        ]
        try JSONSerialization.data(withJSONObject: document).write(to: file)
        let result = try ExternalTool.cabin(["session", "levels", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(result.stdout)")
        #expect(result.stdout.hasPrefix(#""Focus \u{1b}]0;PWNED\u{7}\u{1b}[2J": cues over the bed"#), "\(result.stdout)")
        let chime = try #require(result.stdout.split(separator: "\n").first { $0.contains("ui/chime-focus") })
        #expect(chime.contains("0:06.0"), "\(chime)")
    }
}
