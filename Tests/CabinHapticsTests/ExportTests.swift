import CabinHaptics
import Testing

@Suite("Exports: Android waveform, SVG plot, sparkline")
struct ExportTests {
    @Test func androidWaveformStepsAndMergesTheContinuousTrack() {
        let compiled = continuous(intensity: 1, sharpness: 0.7, duration: 0.1)
        let waveform = AndroidWaveform(compiled)
        // Block 0 holds the 2 ms attack (0, 0.5, then 1 ×8: mean 0.85), block 10 the release.
        #expect(waveform.timings == [10, 90, 3])
        #expect(waveform.amplitudes == [217, 255, 128])
        #expect(waveform.totalMilliseconds == 103)
        #expect(waveform.json == #"{"timings":[10,90,3],"amplitudes":[217,255,128],"repeat":-1,"minApiLevel":26}"#)
    }

    @Test func androidWaveformHoldsATransientForTwentyMilliseconds() {
        let compiled = HapticCompiler.compile(ahap(#"{"Event": {"Time": 0.05, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}}"#))
        let waveform = AndroidWaveform(compiled)
        #expect(waveform.timings == [50, 20, 1])
        #expect(waveform.amplitudes == [0, 128, 0])
    }

    /// Issue 30: a click off the 10 ms grid sounds from its own millisecond for its 20 ms
    /// (a click at 5 ms started at 0 and lasted 30 ms), and one at 23 ms beside a texture cuts
    /// the texture's steps where it starts and stops.
    @Test func androidWaveformPutsATransientOnItsOwnMillisecond() {
        let click = AndroidWaveform(HapticCompiler.compile(ahap(#"{"Event": {"Time": 0.005, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}]}}"#)))
        #expect(click.timings.first == 5 && click.amplitudes.first == 0, "\(click)")
        #expect(click.timings[1] == 20 && click.amplitudes[1] == 255, "\(click)")
        let offGrid = AndroidWaveform(HapticCompiler.compile(ahap(#"{"Event": {"Time": 0.023, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}}"#)))
        #expect(offGrid.timings.prefix(2) == [23, 20] && offGrid.amplitudes.prefix(2) == [0, 128], "\(offGrid)")
    }

    @Test(.needsSharedFixtures) func svgPlotsBothCurvesAndMarksTransients() throws {
        let compiled = HapticCompiler.compile(try #require(try readFixture("ahap/apple__unityplugins__Boing.ahap").pattern))
        let svg = HapticPreview.svg(compiled)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"240\""))
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.components(separatedBy: "class=\"transient\"").count - 1 == 1)
        let intensity = try #require(svg.split(separator: "\n").first { $0.contains("class=\"intensity\"") })
        let points = try #require(intensity.components(separatedBy: "points=\"").last?.split(separator: "\"").first)
        #expect(points.split(separator: " ").count == compiled.breakpoints.count)
        #expect(svg.contains(">0.27 s</text>"))
        #expect(HapticPreview.svg(compiled) == svg)
    }

    @Test(.needsSharedFixtures) func sparklineShowsIntensityAndTransientMarks() throws {
        #expect(HapticPreview.sparkline(continuous(intensity: 1, sharpness: 0), width: 10) == "██████████")
        #expect(HapticPreview.sparkline(continuous(intensity: 0.5, sharpness: 0), width: 10) == "▄▄▄▄▄▄▄▄▄▄")
        let heartbeats = HapticCompiler.compile(try #require(try readFixture("ahap/apple__unityplugins__Heartbeats.ahap").pattern))
        let lines = HapticPreview.sparkline(heartbeats, width: 40).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].count == 40)
        #expect(lines[1].hasPrefix("•"))
        #expect(lines[1].filter { $0 == "•" }.count >= 3)
    }
}
