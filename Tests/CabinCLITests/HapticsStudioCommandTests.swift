import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// Issue 30 items 3 and 4 on the real binary: `haptics from-audio` and `show|plot|render --as`.
@Suite struct HapticsStudioCommandTests {
    static let root = TestEnvironment.packageRoot.path
    static let speedBump = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics/speed-bump.ahap").path

    /// A mono WAV of clicks (3 ms decaying bursts) at `times` over silence.
    static func clicks(_ times: [Double], seconds: Double, to path: String) throws {
        var x = [Float](repeating: 0, count: Int(seconds * 48_000))
        var state: UInt64 = 0x1234_5678_9ABC_DEF1
        for t in times {
            for k in 0..<720 {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                x[Int(t * 48_000) + k] = Float(Double(state >> 11) / Double(1 << 53) * 2 - 1) * 0.7 * Float(exp(-Double(k) / 144))
            }
        }
        try SoundFile.write(AudioBuffer(samples: x, channelCount: 1, sampleRate: 48_000), to: path, format: .forPath(path, encoding: .pcm24))
    }

    @Test func fromAudioWritesAHAPAndHapticWithTransientsOnTheClicks() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-from-audio")
        let wav = dir.appendingPathComponent("clicks.wav").path
        let times = [0.25, 0.6125, 1.3]
        try Self.clicks(times, seconds: 1.5, to: wav)
        for ext in ["ahap", "haptic"] {
            let out = dir.appendingPathComponent("clicks.\(ext)").path
            let made = try ExternalTool.cabin(["haptics", "from-audio", wav, "-o", out, "--resolution", "20", "--headroom", "3",
                                               "--description", "three clicks"])
            #expect(made.status == 0, "\(made.stderr)")
            #expect(made.stdout.hasPrefix("\(out): 1.5 s from \(wav), 3 transients at its onsets, "), "\(made.stdout)")
            let check = try ExternalTool.cabin(["haptics", "check", "--strict", out])
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            let compiled = try ExternalTool.cabin(["haptics", "compile", out])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(compiled.stdout.utf8)) as? [String: Any])
            let transients = try #require(json["transients"] as? [[String: Any]])
            let found = transients.compactMap { $0["time"] as? Double }
            #expect(found.count == 3)
            for (t, f) in zip(times, found) { #expect(abs(t - f) <= 0.001, "\(ext): a click at \(t) s, a transient at \(f) s") }
        }
        #expect(try String(contentsOfFile: dir.appendingPathComponent("clicks.ahap").path, encoding: .utf8).contains("\"Description\": \"three clicks\""))
    }

    @Test func fromAudioBadInputIsOneLine() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-from-audio-bad")
        let wav = dir.appendingPathComponent("clicks.wav").path
        try Self.clicks([0.1], seconds: 0.3, to: wav)
        let out = dir.appendingPathComponent("x.ahap").path
        for (option, value, line) in [("--resolution", "0", "Error: --resolution must be 1…1000 points a second, not 0.0"),
                                      ("--gain", "90", "Error: --gain must be -60…60 dB, not 90.0"),
                                      ("--emphasis-threshold", "1.5", "Error: --emphasis-threshold must be 0…1, not 1.5"),
                                      ("--headroom", "-3", "Error: --headroom must be 0…60 dB, not -3.0")] {
            let r = try ExternalTool.cabin(["haptics", "from-audio", wav, "-o", out, "\(option)=\(value)"])
            #expect(r.status == 64)
            #expect(r.stderr.split(separator: "\n").first.map(String.init) == line)
        }
        let text = dir.appendingPathComponent("notes.txt").path
        try Data("not a sound\u{1b}[31m".utf8).write(to: URL(fileURLWithPath: text))
        let notSound = try ExternalTool.cabin(["haptics", "from-audio", text, "-o", out])
        #expect(notSound.status == 1)
        #expect(notSound.stderr.split(separator: "\n").count == 1 && notSound.stderr.hasPrefix("cabin: error: "), "\(notSound.stderr)")
        let wrongKind = try ExternalTool.cabin(["haptics", "from-audio", wav, "-o", dir.appendingPathComponent("x.json").path])
        #expect(wrongKind.status == 64)
        #expect(wrongKind.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func showPlotAndRenderAsADevice() throws {
        let rumble = try ExternalTool.cabin(["haptics", "show", Self.speedBump, "--as", "rumble"])
        #expect(rumble.status == 0)
        let lines = rumble.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix(", as rumble:equal-power-split") == true, "\(lines)")
        #expect(lines.dropFirst().map { String($0.prefix(10)) }.prefix(3) == ["strong    ", "weak      ", "pulse     "])
        let android = try ExternalTool.cabin(["haptics", "show", Self.speedBump, "--as", "android"])
        #expect(android.stdout.split(separator: "\n")[1].hasPrefix("amplitude "))
        let composition = try ExternalTool.cabin(["haptics", "show", Self.speedBump, "--as", "android-composition"])
        let rows = composition.stdout.split(separator: "\n").map(String.init)
        #expect(rows[1].hasPrefix("primitive ") && rows[2].hasPrefix("primitive ") && rows[2].contains("H") && rows[2].contains("F"), "\(rows)")
        let bad = try ExternalTool.cabin(["haptics", "show", Self.speedBump, "--as", "rumble:loud"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: --as must be rumble[:equal-power-split|intensity-only], android or android-composition, not 'rumble:loud'\n"))

        let dir = try TestEnvironment.temporaryDirectory("cabin-as")
        let svg = dir.appendingPathComponent("bump.svg").path
        let plot = try ExternalTool.cabin(["haptics", "plot", Self.speedBump, "-o", svg, "--as", "rumble:intensity-only"])
        #expect(plot.status == 0)
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.contains("class=\"strong\"") && picture.contains("class=\"weak\"") && picture.contains("as rumble:intensity-only"))
        let wav = dir.appendingPathComponent("bump.wav").path
        let render = try ExternalTool.cabin(["haptics", "render", Self.speedBump, "-o", wav, "--as", "android", "--channels", "4"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.hasSuffix(", 4 channels (haptics on 3-4), as android (amplitude at 170 Hz)\n"), "\(render.stdout)")
        let sound = try SoundFile.read(wav)
        // Channels 1-2 silent, 3-4 a 170 Hz tone: ~2 × 170 zero crossings a second where it sounds.
        let third = stride(from: 2, to: sound.samples.count, by: 4).map { sound.samples[$0] }
        #expect(stride(from: 0, to: sound.samples.count, by: 4).allSatisfy { sound.samples[$0] == 0 })
        let crossings = zip(third.dropFirst(), third).filter { ($0 > 0) != ($1 > 0) && $0 != 0 && $1 != 0 }.count
        let sounding = Double(third.filter { $0 != 0 }.count) / 48_000
        #expect(abs(Double(crossings) / sounding - 340) < 20, "\(crossings) crossings in \(sounding) s")
        let rumbleRender = try ExternalTool.cabin(["haptics", "render", Self.speedBump, "-o", wav, "--as", "rumble", "--freq-range", "30-120"])
        #expect(rumbleRender.stdout.hasSuffix("as rumble:equal-power-split (strong, weak at 30-120 Hz)\n"), "\(rumbleRender.stdout)")
    }

    /// The README's `--as` and `from-audio` examples, run as written from the checkout,
    /// print what the README shows.
    @Test func theReadmesExamplesPrintWhatItShows() throws {
        let readme = try String(contentsOfFile: Self.root + "/README.md", encoding: .utf8)
        let blocks = readme.components(separatedBy: "```\n").filter {
            $0.hasPrefix("$ cabin haptics show Patterns/haptics/engine-start.ahap --as") || $0.hasPrefix("$ cabin haptics from-audio")
        }
        #expect(blocks.count == 2)
        for block in blocks {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let command = String(lines[0].dropFirst(8))
            let shown = lines.dropFirst().joined(separator: "\n")
            let run = try ExternalTool.run("/bin/sh", ["-c", "cd '\(Self.root)' && '\(ExternalTool.cabinBinary)' \(command)"])
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(run.stdout == shown, "\(command)")
        }
    }
}
