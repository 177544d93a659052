import CabinHaptics
import Testing

@Suite("AHAP writer: normalized output that reads back")
struct AHAPWriterTests {
    @Test(.needsSharedFixtures, arguments: fixtureNames.filter { $0.hasSuffix(".ahap") })
    func ahapRoundTripsExactly(name: String) throws {
        let pattern = try #require(try readFixture(name).pattern)
        let text = AHAPWriter.write(pattern)
        let reread = AHAPReader.read(text, file: "rewritten.ahap", options: .strict)
        #expect(reread.diagnostics.isEmpty, "\(reread.diagnostics)")
        let again = try #require(reread.pattern)
        #expect(again.events == pattern.events)
        #expect(again.parameterCurves == pattern.parameterCurves)
        #expect(again.metadata == pattern.metadata)
        let a = HapticCompiler.compile(pattern)
        let b = HapticCompiler.compile(again)
        #expect(a.breakpoints == b.breakpoints)
        #expect(a.transients == b.transients)
        #expect(AHAPWriter.write(again) == text)
    }

    /// Issue 30: the AHAP written keeps the input's `Metadata`: Apple's Boing's as read, and a
    /// `.haptic` file's author and description as `Created` and `Description`, as Lofelt's own
    /// converter wrote them for its `valid_v1` (its empty `Project` left out).
    @Test(.needsSharedFixtures) func metadataIsKept() throws {
        let boing = try #require(try readFixture("ahap/apple__unityplugins__Boing.ahap").pattern)
        #expect(boing.metadata["Project"] == "Haptic Sampler" && boing.metadata["Created"] == "5 June 2019"
                && boing.metadata["Description"]?.hasPrefix("A continuous event tweaked by sloped parameter curves") == true,
                "\(boing.metadata)")
        let text = AHAPWriter.write(boing)
        #expect(text.contains(#""Metadata""#))
        #expect(AHAPReader.read(text, file: "b.ahap", options: .strict).pattern?.metadata == boing.metadata)
        let ours = try #require(try readFixture("haptic/Lofelt__NiceVibrations__valid_v1.haptic").pattern)
        let theirs = try #require(try readFixture("ahap/Lofelt__NiceVibrations__ahap_from_valid_v1.ahap").pattern)
        #expect(ours.metadata == ["Created": "SDK Team", "Description": "Testing"])
        #expect(ours.metadata == theirs.metadata.filter { !$0.value.isEmpty })
        #expect(AHAPReader.read(AHAPWriter.write(ours), file: "c.ahap", options: .strict).pattern?.metadata == ours.metadata)
    }

    @Test(.needsSharedFixtures, arguments: fixtureNames.filter { $0.hasSuffix(".haptic") })
    func hapticInputIsWrittenAsCurvesThatKeepTheContinuousTrack(name: String) throws {
        let pattern = try #require(try readFixture(name).pattern)
        let reread = AHAPReader.read(AHAPWriter.write(pattern), file: "converted.ahap", options: .strict)
        #expect(reread.diagnostics.isEmpty, "\(reread.diagnostics)")
        let a = HapticCompiler.compile(pattern)
        let b = HapticCompiler.compile(try #require(reread.pattern))
        Self.expectTheSameFeel(a, b)
    }

    /// Converted patterns feel the same: every transient at its own intensity and sharpness,
    /// and the continuous track everywhere but the first and last 5 ms (the plain event's
    /// 2 ms ramps) and the 5 ms either side of a transient whose curves had to go neutral.
    static func expectTheSameFeel(_ a: CompiledHaptics, _ b: CompiledHaptics) {
        #expect(a.transients.count == b.transients.count)
        for (x, y) in zip(a.transients, b.transients) {
            #expect(x.time == y.time && abs(x.intensity - y.intensity) < 1e-9 && abs(x.sharpness - y.sharpness) < 1e-9,
                    "\(x) became \(y)")
        }
        let notch = HapticParameterCurve.notchSeconds
        for t in stride(from: a.breakpoints.first!.time + 0.005, to: a.duration - 0.005, by: 0.001)
        where !a.transients.contains(where: { abs($0.time - t) <= notch + 1e-9 }) {
            #expect(abs(a.value(at: t).intensity - b.value(at: t).intensity) < 1e-9, "t = \(t)")
            #expect(abs(a.value(at: t).sharpness - b.value(at: t).sharpness) < 1e-9, "t = \(t)")
        }
    }

    /// Emphasis under an amplitude envelope below 1 and a sharp frequency envelope (the
    /// case that made the 0.5 s transient of Nice Vibrations' emphasis-and-continuous
    /// 0.894/0.833 instead of 1.0/0.0): no event value compensates, so the curves go neutral
    /// at those instants.
    @Test func transientsUnderCurvesKeepTheirDesign() throws {
        let text = """
        {"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {
          "amplitude": [{"time": 0, "amplitude": 0}, {"time": 0.5, "amplitude": 0.8, "emphasis": {"amplitude": 1.0, "frequency": 0.0}},
                        {"time": 1.0, "amplitude": 0.2, "emphasis": {"amplitude": 0.3, "frequency": 0.2}},
                        {"time": 1.003, "amplitude": 0.25, "emphasis": {"amplitude": 1.0, "frequency": 1.0}},
                        {"time": 2.0, "amplitude": 1.0, "emphasis": {"amplitude": 0.5, "frequency": 0.9}}],
          "frequency": [{"time": 0, "frequency": 1.0}, {"time": 2.0, "frequency": 0.0}]}}}}
        """
        let pattern = try #require(LofeltHapticReader.read(text, file: "e.haptic").pattern)
        let reread = AHAPReader.read(AHAPWriter.write(pattern), file: "converted.ahap", options: .strict)
        #expect(reread.diagnostics.isEmpty, "\(reread.diagnostics)")
        let a = HapticCompiler.compile(pattern), b = HapticCompiler.compile(try #require(reread.pattern))
        #expect(a.transients.first?.intensity == 1 && a.transients.first?.sharpness == 0)
        Self.expectTheSameFeel(a, b)
    }

    @Test func writerOutputLooksLikeApples() {
        let pattern = HapticPattern(events: [HapticEvent(.hapticTransient, time: 0.5, parameters: [.hapticIntensity: 0.8])])
        #expect(AHAPWriter.write(pattern) == """
        {
          "Version": 1.0,
          "Pattern": [
            {
              "Event": {
                "Time": 0.5,
                "EventType": "HapticTransient",
                "EventParameters": [
                  {"ParameterID": "HapticIntensity", "ParameterValue": 0.8},
                  {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}
                ]
              }
            }
          ]
        }

        """)
    }

    @Test func longCurvesAreSplitIntoSixteenPointPiecesWithTheSameShape() throws {
        let points = (0..<40).map { HapticControlPoint(time: Double($0) * 0.1, value: Double($0 % 5) / 4) }
        let pattern = HapticPattern(
            events: [HapticEvent(.hapticContinuous, time: 0, duration: 4.5)],
            parameterCurves: [HapticParameterCurve(.hapticIntensityControl, time: 0.3, controlPoints: points)])
        let reread = AHAPReader.read(AHAPWriter.write(pattern), file: "split.ahap", options: .strict)
        #expect(reread.diagnostics.isEmpty)
        let curves = try #require(reread.pattern?.parameterCurves)
        #expect(curves.map(\.controlPoints.count) == [16, 16, 10])
        let a = HapticCompiler.compile(pattern)
        let b = HapticCompiler.compile(try #require(reread.pattern))
        for t in stride(from: 0.0, through: 4.5, by: 0.01) {
            #expect(abs(a.value(at: t).intensity - b.value(at: t).intensity) < 1e-12)
        }
    }

    @Test func ambiguousCurveStartsGetAnExtraFirstPoint() throws {
        let pattern = HapticPattern(parameterCurves: [HapticParameterCurve(.hapticSharpnessControl, time: 0.5,
            controlPoints: [HapticControlPoint(time: 0.5, value: 0.2), HapticControlPoint(time: 1, value: 0.4)])])
        let reread = AHAPReader.read(AHAPWriter.write(pattern), file: "ambiguous.ahap", options: .strict)
        #expect(reread.diagnostics.isEmpty)
        #expect(reread.pattern?.parameterCurves.first?.controlPoints.map(\.time) == [0, 0.5, 1])
    }
}
