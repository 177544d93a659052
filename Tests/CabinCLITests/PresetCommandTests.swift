import CabinTestSupport
import Foundation
import Testing

@Suite struct PresetCommandTests {
    @Test func sessionPrintsAPresetThatValidates() throws {
        let result = try ExternalTool.cabin(["session", "--preset", "drive", "--minutes", "50", "--destination", "Yosemite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""title": "Drive to Yosemite""#))
        let dir = try TestEnvironment.temporaryDirectory("cabin-preset")
        let path = dir.appendingPathComponent("drive.json").path
        try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: path))
        let check = try ExternalTool.cabin(["session", "validate", path])
        #expect(check.status == 0)
        #expect(check.stdout.hasPrefix("\(path): ok (50m, "))
    }

    @Test(arguments: [
        (["session", "--preset", "drive", "--minutes", "0"], "cabin: error: --minutes must be a whole number of minutes from 25 to 240, not '0'\n"),
        (["session", "--preset", "drive", "--rest-every", "3x"], "cabin: error: --rest-every must be 25m, 50m or off, not '3x'\n"),
        (["render", "--preset", "pomodoro", "--vehicle", "v8", "-o", "/tmp/x.wav"], "cabin: error: --vehicle is not an option of the pomodoro preset (it takes --focus, --short, --long, --cycles, --ambient, --warn)\n"),
    ])
    func optionErrorsAreOneLine(_ arguments: [String], _ stderr: String) throws {
        let result = try ExternalTool.cabin(arguments)
        #expect(result.status == 64)
        #expect(result.stderr == stderr)
    }

    @Test func presetsAreListed() throws {
        let result = try ExternalTool.cabin(["session", "presets"])
        for name in ["drive (default)", "pomodoro", "ambient", "breathing", "quest", "ui"] {
            #expect(result.stdout.contains("\n\(name): ") || result.stdout.hasPrefix("\(name): "))
        }
    }

    @Test func renderAPreset() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-preset")
        let out = dir.appendingPathComponent("breathing.wav").path
        let result = try ExternalTool.cabin(["render", "--preset", "breathing", "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(out): 0:46.000 of Breathe at 48000 Hz"))
    }
}

@Suite(.serialized, .enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
struct DefaultPlayTests {
    /// `cabin play` with nothing else plays the default preset: a 25-minute drive.
    @Test func playWithNoArgumentsStartsTheDefaultDrive() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment()
        process.arguments = ["play", "--json"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.first?["event"] as? String == "start")
        #expect(events.first?["title"] as? String == "Drive to your destination")
        #expect(events.contains { $0["event"] as? String == "mark" && $0["name"] as? String == "ritual" })
    }
}
