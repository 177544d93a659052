import CabinTestSupport
import Foundation
import Testing

/// Issue 30.1, live reload: `cabin haptics watch FILE --audio` shows and plays a pattern, and
/// again on every save — written in place or renamed over it, as editors save — through the
/// real binary on the paced test sink. A broken save prints its located errors and the last
/// good version plays on; a removed file is waited for; Ctrl-C ends it with status 0.
@Suite struct HapticsWatchTests {
    static func pattern(time: Double, intensity: Double) -> String {
        """
        { "Version": 1.0, "Pattern": [ { "Event": { "Time": \(time), "EventType": "HapticTransient",
          "EventParameters": [ { "ParameterID": "HapticIntensity", "ParameterValue": \(intensity) },
                               { "ParameterID": "HapticSharpness", "ParameterValue": 0.5 } ] } } ] }
        """
    }

    /// How many lines say the pattern began playing, and the "N ms after the save" figures.
    static func plays(_ output: String) -> (count: Int, latencies: [Int]) {
        let lines = output.split(separator: "\n").filter { $0.hasPrefix("p.ahap: playing as audio on default") }
        let latencies = lines.compactMap { line -> Int? in
            guard let open = line.range(of: " ("), let ms = line.range(of: " ms after the save)") else { return nil }
            return Int(line[open.upperBound..<ms.lowerBound])
        }
        return (lines.count, latencies)
    }

    @Test func aSavedEditIsShownAndPlayedAgainAndABrokenOneKeepsTheLastGood() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-watch")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.ahap")
        try Data(Self.pattern(time: 0, intensity: 0.8).utf8).write(to: file)
        // Run in the pattern's folder, so it prints the name as given.
        let watch = try RunningTool("/bin/sh", ["-c", "cd '\(dir.path)' && exec '\(ExternalTool.cabinBinary)' haptics watch p.ahap --audio"])

        #expect(watch.wait { $0.contains("watching p.ahap for saves as audio on default; Ctrl-C stops") && Self.plays($0).count == 1 },
                "\(watch.stdout)\(watch.stderr)")
        #expect(watch.stdout.contains("p.ahap: 0.02 s, 1 haptic event (1 transient)"), "\(watch.stdout)")
        #expect(watch.stdout.contains("transient •"), "\(watch.stdout)")

        // Saved in place: shown and played again, with how long after the save it sounded.
        try Data(Self.pattern(time: 0.5, intensity: 0.6).utf8).write(to: file)
        #expect(watch.wait { $0.contains("p.ahap: 0.52 s, 1 haptic event (1 transient)") && Self.plays($0).count == 2 },
                "\(watch.stdout)\(watch.stderr)")
        #expect(Self.plays(watch.stdout).latencies.count == 1, "\(watch.stdout)")

        // A broken save: its errors, located, and the last good version plays on (not again).
        try Data(#"{ "Version": 1.0, "Pattern": [ { "Event": { "Time": "zero", "EventType": "HapticTransient" } } ] }"#.utf8).write(to: file)
        #expect(watch.wait { $0.contains("p.ahap:1:53: error: Pattern[0].Event.Time: expected a number") }, "\(watch.stdout)")
        #expect(watch.stdout.contains("p.ahap: not loaded (1 error); the version of "), "\(watch.stdout)")
        #expect(watch.stdout.contains(" plays on\n"), "\(watch.stdout)")

        // Saved as editors that rename a new file over the old one do.
        try Data(Self.pattern(time: 1, intensity: 1).utf8).write(to: file, options: .atomic)
        #expect(watch.wait { $0.contains("p.ahap: 1.02 s, 1 haptic event (1 transient)") && Self.plays($0).count == 3 },
                "\(watch.stdout)\(watch.stderr)")

        // Removed: waited for.
        try FileManager.default.removeItem(at: file)
        #expect(watch.wait { $0.contains("p.ahap: removed; waiting for it; the version of ") }, "\(watch.stdout)")

        #expect(watch.interrupt() == 0, "\(watch.stderr)")
        #expect(Self.plays(watch.stdout).count == 3, "\(watch.stdout)")
        #expect(Self.plays(watch.stdout).latencies.count == 2, "\(watch.stdout)")
        #expect(watch.stderr.isEmpty, "\(watch.stderr)")
    }

    /// A file that cannot be watched (its folder missing) is one line and status 1.
    @Test func aFileInAMissingFolderIsOneLine() throws {
        let result = try ExternalTool.cabin(["haptics", "watch", "/nonexistent-cabin-folder/p.ahap"])
        #expect(result.status == 1)
        #expect(result.stderr == "cabin: error: /nonexistent-cabin-folder/p.ahap: cannot watch for saves: no such file or directory (inotify_add_watch)\n",
                "\(result.stderr)")
    }
}
