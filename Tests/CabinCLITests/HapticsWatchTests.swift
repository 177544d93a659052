import CabinIO
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

    /// The preview is streamed (each block made as the device takes it, so a long pattern's
    /// sound begins before the rest is made): what the sink hears is `haptics render`'s file,
    /// sample for sample within 16-bit rounding, for a pattern whose transients sound apart
    /// from its track (where the streamed gain bound needs no gain). Each reload's line says
    /// where its time went, the parts adding up to the total.
    @Test(.enabled(if: TestEnvironment.pacedSinkReady, Comment(rawValue: TestEnvironment.pacedSinkProblem)))
    func theStreamedPreviewIsTheRenderAndItsTimeIsAccountedFor() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-watch-stream")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("p.ahap")
        let text = """
            { "Version": 1.0, "Pattern": [
              { "Event": { "Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.25, "EventParameters": [
                { "ParameterID": "HapticIntensity", "ParameterValue": 0.9 }, { "ParameterID": "HapticSharpness", "ParameterValue": 0.3 } ] } },
              { "Event": { "Time": 0.3, "EventType": "HapticTransient", "EventParameters": [
                { "ParameterID": "HapticIntensity", "ParameterValue": 1 }, { "ParameterID": "HapticSharpness", "ParameterValue": 0.8 } ] } },
              { "Event": { "Time": 0.35, "EventType": "HapticTransient", "EventParameters": [
                { "ParameterID": "HapticIntensity", "ParameterValue": 0.5 } ] } } ] }
            """
        try Data(text.utf8).write(to: file)
        let heard = dir.appendingPathComponent("heard.wav").path
        let rendered = dir.appendingPathComponent("rendered.wav").path
        let render = try ExternalTool.cabin(["haptics", "render", file.path, "-o", rendered])
        #expect(render.status == 0, "\(render.stderr)")

        let watch = try RunningTool("/bin/sh", ["-c", "cd '\(dir.path)' && exec '\(ExternalTool.cabinBinary)' haptics watch p.ahap --audio"],
                                    environment: [PacedSink.captureVariable: heard])
        #expect(watch.wait { Self.plays($0).count == 1 }, "\(watch.stdout)\(watch.stderr)")
        // Saved again: played again, with the breakdown of its time.
        try Data(text.utf8).write(to: file)
        #expect(watch.wait { Self.plays($0).count == 2 && $0.contains(" ms]") }, "\(watch.stdout)\(watch.stderr)")
        Thread.sleep(forTimeInterval: 1)  // the 0.4 s preview played out and its device closed
        #expect(watch.interrupt() == 0, "\(watch.stderr)")

        let line = try #require(watch.stdout.split(separator: "\n").first { $0.contains(" ms]") }.map(String.init))
        let total = try #require(Self.plays(line).latencies.first, "\(line)")
        let parts = line[line.range(of: " [")!.upperBound...].split(separator: ",").compactMap { part in
            part.split(separator: " ").compactMap { Int($0) }.last
        }
        #expect(parts.count == 6, "\(line)")
        #expect(abs(parts.reduce(0, +) - total) <= 3, "\(line)")
        for phase in ["gathering the save", "reading and compiling", "preparing", "stopping the last", "opening the device", "first write"] {
            #expect(line.contains(phase), "\(line)")
        }

        let reference = try SoundFile.read(rendered)
        let played = try SoundFile.read(heard)
        #expect(reference.channelCount == 1 && played.channelCount == 2)
        #expect(played.samples.count / 2 >= reference.samples.count, "heard \(played.samples.count / 2) frames of \(reference.samples.count)")
        var worst: Float = 0
        for n in 0..<min(reference.samples.count, played.samples.count / 2) {
            worst = max(worst, abs(played.samples[2 * n] - reference.samples[n]), abs(played.samples[2 * n + 1] - reference.samples[n]))
        }
        #expect(worst <= 2.0 / 32768, "the heard preview differs from the render by \(worst)")
        #expect(played.samples.dropFirst(2 * reference.samples.count).allSatisfy { $0 == 0 })
    }

    /// A file that cannot be watched (its folder missing) is one line and status 1.
    @Test func aFileInAMissingFolderIsOneLine() throws {
        let result = try ExternalTool.cabin(["haptics", "watch", "/nonexistent-cabin-folder/p.ahap"])
        #expect(result.status == 1)
        #expect(result.stderr == "cabin: error: /nonexistent-cabin-folder/p.ahap: cannot watch for saves: no such file or directory (inotify_add_watch)\n",
                "\(result.stderr)")
    }
}
