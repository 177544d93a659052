import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// The Pomodoro preset's `--warn`: a soft chime that long before each phase ends, found in
/// an offline render by comparing it with the same render without the warning.
@Suite struct PomodoroWarningTests {
    /// 10 s of the pomodoro around `at` (5 s before to 5 s after), gains as written.
    static func render(_ options: [String], at: Double) throws -> [Float] {
        let dir = try TestEnvironment.temporaryDirectory("cabin-warn")
        let out = dir.appendingPathComponent("p.wav").path
        let result = try ExternalTool.cabin(["render", "--preset", "pomodoro", "--focus", "5m", "--short", "2m", "--long", "1m",
                                             "--cycles", "2", "--loudness", "off", "--bits", "32f",
                                             "--from", "\(at - 5)s", "--to", "\(at + 5)s", "-o", out] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return try SoundFile.read(out).samples
    }

    /// The first time (s into the window) where `a` and `b` differ, and the RMS of the difference after it.
    static func firstDifference(_ a: [Float], _ b: [Float]) -> (time: Double, rms: Double)? {
        guard a.count == b.count, let i = a.indices.first(where: { abs(a[$0] - b[$0]) > 1e-5 }) else { return nil }
        let tail = zip(a[i...], b[i...]).map { Double($0 - $1) }
        return (Double(i / 2) / 48000, (tail.map { $0 * $0 }.reduce(0, +) / Double(tail.count)).squareRoot())
    }

    @Test func theChimePlaysTheWarningTimeBeforeEachPhaseEnds() throws {
        // Focus ends at 5:00 (warned at 4:00), the short break at 7:00 (warned at 6:00); a 1 m
        // long break is no longer than the warning, so it has none.
        for at in [240.0, 360.0] {
            let plain = try Self.render([], at: at)
            let warned = try Self.render(["--warn", "1m"], at: at)
            let difference = try #require(Self.firstDifference(plain, warned), "no chime near \(at) s")
            // The chime's file starts within a few milliseconds of its cue.
            #expect(difference.time >= 5 && difference.time < 5.05, "the chime at \(at - 5 + difference.time) s, not \(at) s")
            #expect(20 * log10(difference.rms) > -50, "the chime is \(20 * log10(difference.rms)) dBFS")
        }
        let lastBreak = try Self.render([], at: 530)
        #expect(Self.firstDifference(lastBreak, try Self.render(["--warn", "1m"], at: 530)) == nil)
        // Off by default: the same bits as before.
        #expect(Self.firstDifference(try Self.render(["--warn", "off"], at: 240), try Self.render([], at: 240)) == nil)
    }

    @Test func aBadWarningIsOneLine() throws {
        let result = try ExternalTool.cabin(["render", "--preset", "pomodoro", "--warn", "10s", "-o", "/dev/null"])
        #expect(result.status == 64)
        #expect(result.stderr == "cabin: error: --warn must be a time from 30s to 30m before a phase ends (2m, 90s; a bare number is minutes) or off, not '10s'\n")
    }
}
