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
        let a = HapticCompiler.compile(pattern)
        let b = HapticCompiler.compile(again)
        #expect(a.breakpoints == b.breakpoints)
        #expect(a.transients == b.transients)
        #expect(AHAPWriter.write(again) == text)
    }

    @Test(.needsSharedFixtures, arguments: fixtureNames.filter { $0.hasSuffix(".haptic") })
    func hapticInputIsWrittenAsCurvesThatKeepTheContinuousTrack(name: String) throws {
        let pattern = try #require(try readFixture(name).pattern)
        let reread = AHAPReader.read(AHAPWriter.write(pattern), file: "converted.ahap", options: .strict)
        #expect(reread.diagnostics.isEmpty, "\(reread.diagnostics)")
        let a = HapticCompiler.compile(pattern)
        let b = HapticCompiler.compile(try #require(reread.pattern))
        #expect(a.transients.count == b.transients.count)
        // Away from the first and last 5 ms (the plain event's 2 ms ramps), the tracks agree.
        for t in stride(from: a.breakpoints.first!.time + 0.005, to: a.duration - 0.005, by: 0.001) {
            #expect(abs(a.value(at: t).intensity - b.value(at: t).intensity) < 1e-9, "t = \(t)")
            #expect(abs(a.value(at: t).sharpness - b.value(at: t).sharpness) < 1e-9, "t = \(t)")
        }
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
