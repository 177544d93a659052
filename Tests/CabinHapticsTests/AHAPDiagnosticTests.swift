import CabinHaptics
import CabinJSON
import Testing

@Suite("AHAP reader: located diagnostics on small documents")
struct AHAPDiagnosticTests {
    func read(_ text: String, _ options: HapticReadOptions = .lenient) -> HapticReadResult {
        AHAPReader.read(text, file: "p.ahap", options: options)
    }

    @Test func unknownTypoKeyIsAWarningThatNamesIt() throws {
        let result = read("""
        {"Version": 1.0, "Pattern": [
          {"ParameterCurves": {"ParameterID": "HapticIntensityControl", "Time": 0}}
        ]}
        """)
        #expect(result.diagnostics.all.map(\.description) == [
            #"p.ahap:2:4: warning: Pattern[0].ParameterCurves: unknown key "ParameterCurves" ignored (did you mean "ParameterCurve"?)"#,
            #"p.ahap:2:3: warning: Pattern[0]: element has no "Event", "Parameter" or "ParameterCurve"; ignored"#,
        ])
        #expect(result.pattern?.parameterCurves.isEmpty == true)
        #expect(read(#"{"Version": 1.0, "Pattern": [{"ParameterCurves": {}}]}"#, .strict).pattern == nil)
    }

    @Test func outOfRangeValuesAreClampedWithAWarning() throws {
        let result = read("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticTransient",
                     "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.5}]}},
          {"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 0.1, "ParameterValue": -2}}
        ]}
        """)
        #expect(result.diagnostics.all.map(\.description) == [
            "p.ahap:3:87: warning: Pattern[0].Event.EventParameters[0].ParameterValue: HapticIntensity 1.5 is outside 0…1; clamped to 1",
            "p.ahap:4:90: warning: Pattern[1].Parameter.ParameterValue: HapticSharpnessControl -2 is outside -1…1; clamped to -1",
        ])
        let pattern = try #require(result.pattern)
        #expect(pattern.events[0].intensity == 1)
        #expect(pattern.dynamicParameters == [HapticDynamicParameter(.hapticSharpnessControl, time: 0.1, value: -1)])
        let strict = read(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.5}]}}]}"#, .strict)
        #expect(strict.pattern == nil)
        #expect(strict.diagnostics.errors.first?.rule == "ahap.clamped")
    }

    /// Issue 30: after the first error in an event its other problems are still said, and a
    /// misspelt EventType or ParameterID gets "did you mean" (a `Haptic` prefix too, as
    /// ahap_rs writes `HapticAttackTime`).
    @Test func everyProblemInAnEventIsSaidWithWhatWasMeant() {
        let result = read("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": "zero", "EventType": "HapticTransent",
                     "EventParameters": [{"ParameterID": "HapticSharpnes", "ParameterValue": "high"},
                                         {"ParameterID": "HapticIntensity", "ParameterValue": "loud"}]}},
          {"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 1,
                     "EventParameters": [{"ParameterID": "HapticAttackTime", "ParameterValue": 0.1}]}}
        ]}
        """)
        #expect(result.diagnostics.all.map(\.description) == [
            #"p.ahap:2:43: error: Pattern[0].Event.EventType: unknown EventType "HapticTransent" (did you mean HapticTransient?): use HapticTransient, HapticContinuous, AudioContinuous or AudioCustom"#,
            #"p.ahap:2:22: error: Pattern[0].Event.Time: expected a number, found a string "zero""#,
            #"p.ahap:3:50: warning: Pattern[0].Event.EventParameters[0].ParameterID: unknown event ParameterID "HapticSharpnes" (did you mean HapticSharpness?); ignored"#,
            #"p.ahap:3:86: error: Pattern[0].Event.EventParameters[0].ParameterValue: expected a number, found a string "high""#,
            #"p.ahap:4:87: error: Pattern[0].Event.EventParameters[1].ParameterValue: expected a number, found a string "loud""#,
            #"p.ahap:6:50: warning: Pattern[1].Event.EventParameters[0].ParameterID: unknown event ParameterID "HapticAttackTime" (did you mean AttackTime?); ignored"#,
        ])
        #expect(result.pattern == nil)
    }

    @Test func errorsAreAllReportedAtOnce() {
        let result = read("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": -0.5, "EventType": "HapticTransient"}},
          {"Event": {"Time": "0.5", "EventType": "HapticTap"}},
          {"Event": {"Time": 1, "EventType": "HapticContinuous"}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0,
                              "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": true}]}}
        ]}
        """)
        #expect(result.pattern == nil)
        #expect(result.diagnostics.errors.map(\.description) == [
            "p.ahap:2:22: error: Pattern[0].Event.Time: Time -0.5 is negative; times are seconds from the start (≥ 0)",
            #"p.ahap:3:42: error: Pattern[1].Event.EventType: unknown EventType "HapticTap": use HapticTransient, HapticContinuous, AudioContinuous or AudioCustom"#,
            #"p.ahap:3:22: error: Pattern[1].Event.Time: expected a number, found a string "0.5""#,
            #"p.ahap:4:13: error: Pattern[2].Event: missing required key "EventDuration""#,
            "p.ahap:6:85: error: Pattern[3].ParameterCurve.ParameterCurveControlPoints[0].ParameterValue: expected a number, found true",
        ])
    }

    @Test func versionIntegerOrMissingIsAcceptedWithAWarning() {
        let integer = read(#"{"Version": 1, "Pattern": []}"#)
        #expect(integer.pattern?.version == 1)
        #expect(integer.diagnostics.all.map(\.description) == [
            "p.ahap:1:13: warning: Version: Version is the integer 1; Core Haptics writes 1.0 (read as 1.0)",
        ])
        let missing = read(#"{"Pattern": []}"#)
        #expect(missing.pattern != nil)
        #expect(missing.diagnostics.all.map(\.rule) == ["ahap.version-missing"])
        let future = read(#"{"Version": 2.0, "Pattern": []}"#)
        #expect(future.pattern == nil)
        #expect(future.diagnostics.errors.map(\.message) == ["unsupported Version 2.0: the supported version is 1.0"])
        #expect(read(#"{"Version": 1, "Pattern": []}"#, .strict).pattern == nil)
    }

    @Test func continuousEventsOverThirtySecondsAreCapped() throws {
        let result = read(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 45}}]}"#)
        #expect(result.diagnostics.all.map(\.description) == [
            "p.ahap:1:102: warning: Pattern[0].Event.EventDuration: EventDuration 45 s is longer than 30 s; capped at 30 s as Core Haptics does",
        ])
        #expect(result.pattern?.events.first?.duration == 30)
    }

    @Test func absurdSizesAreErrors() {
        let late = read(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 3599, "EventType": "HapticContinuous", "EventDuration": 10}}]}"#)
        #expect(late.diagnostics.errors.map(\.message) == ["event ends at 3609 s, beyond the limit of 3600 s"])
        let veryLate = read(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 7200, "EventType": "HapticTransient"}}]}"#)
        #expect(veryLate.diagnostics.errors.map(\.message) == ["Time 7200 is beyond the limit of 3600 s"])
        let few = HapticReadOptions(limits: HapticLimits(maxEvents: 2))
        let event = #"{"Event": {"Time": 0, "EventType": "HapticTransient"}}"#
        let many = read(#"{"Version": 1.0, "Pattern": [\#(event), \#(event), \#(event)]}"#, few)
        #expect(many.diagnostics.errors.map(\.message) == ["more than 2 events"])
        #expect(many.diagnostics.errors.first?.path.description == "Pattern[2].Event")
    }

    @Test func lofeltAbsoluteCurveTimesAreDetectedAndSaidSo() throws {
        let result = read("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 1}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.5,
            "ParameterCurveControlPoints": [{"Time": 0.5, "ParameterValue": 0}, {"Time": 1.5, "ParameterValue": 1}]}}
        ]}
        """)
        #expect(result.diagnostics.all.map(\.description) == [
            "p.ahap:4:46: warning: Pattern[1].ParameterCurve.ParameterCurveControlPoints[0].Time: control-point times read as absolute (Lofelt style): the first point's Time equals the curve's Time 0.5; Apple's relative reading would start it at 1 s (choose with --curve-times relative|absolute)",
        ])
        let curve = try #require(result.pattern?.parameterCurves.first)
        #expect(curve.controlPoints.map(\.time) == [0, 1])
        #expect(curve.endTime == 1.5)
        // Apple's relative reading: first point at 0, no warning.
        let apple = read(#"{"Version": 1.0, "Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 0}]}}]}"#)
        #expect(apple.diagnostics.isEmpty)
    }

    /// Issue 30: a valid Apple file whose curve's first point Time equals the curve's Time
    /// (0.5: Apple means 1.0 s) is read as absolute in auto, with the warning; relative and
    /// absolute force a reading, without it. Under the relative reading the event is at full
    /// intensity until 1.0 s (Apple's); under the absolute one it fades from 0.5 s.
    @Test func curveTimesCanBeForced() throws {
        let text = """
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 2}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.5,
            "ParameterCurveControlPoints": [{"Time": 0.5, "ParameterValue": 1}, {"Time": 1.0, "ParameterValue": 0}]}}
        ]}
        """
        func reading(_ times: HapticReadOptions.CurveTimes) throws -> (HapticReadResult, CompiledHaptics) {
            let result = read(text, HapticReadOptions(curveTimes: times))
            return (result, HapticCompiler.compile(try #require(result.pattern)))
        }
        let (auto, autoCompiled) = try reading(.auto)
        #expect(auto.diagnostics.all.map(\.rule) == ["ahap.absolute-curve-times"])
        let (relative, relativeCompiled) = try reading(.relative)
        #expect(relative.diagnostics.isEmpty)
        #expect(relative.pattern?.parameterCurves.first?.controlPoints.map(\.time) == [0.5, 1.0])
        #expect(abs(relativeCompiled.value(at: 0.9).intensity - 1) < 1e-9)
        #expect(abs(relativeCompiled.value(at: 1.25).intensity - 0.5) < 1e-9)
        let (absolute, absoluteCompiled) = try reading(.absolute)
        #expect(absolute.diagnostics.isEmpty)
        #expect(absolute.pattern?.parameterCurves == auto.pattern?.parameterCurves)
        #expect(abs(absoluteCompiled.value(at: 0.75).intensity - 0.5) < 1e-9)
        #expect(abs(autoCompiled.value(at: 0.75).intensity - 0.5) < 1e-9)
        // Absolute times before the curve's own Time: one located warning, and the curve starts there.
        let early = read(#"{"Version": 1.0, "Pattern": [{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterCurveControlPoints": [{"Time": 0.2, "ParameterValue": 1}, {"Time": 1, "ParameterValue": 0}]}}]}"#,
                         HapticReadOptions(curveTimes: .absolute))
        #expect(early.diagnostics.all.map(\.description) == [
            "p.ahap:1:145: warning: Pattern[0].ParameterCurve.ParameterCurveControlPoints[0].Time: control point at 0.2 s is before the curve's Time 0.5 (curve times read as absolute); read as the curve's start",
        ])
        #expect(early.pattern?.parameterCurves.first?.controlPoints.map(\.time) == [0, 0.5])
    }

    @Test func eventParameterUsedAsDynamicIDIsExplained() {
        let result = read(#"{"Version": 1.0, "Pattern": [{"Parameter": {"ParameterID": "HapticIntensity", "Time": 0, "ParameterValue": 1}}]}"#)
        #expect(result.diagnostics.all.map(\.message) == [
            #"unknown dynamic ParameterID "HapticIntensity" (it is an event parameter: the dynamic one is HapticIntensityControl); ignored"#,
        ])
    }

    @Test func malformedJSONIsALocatedError() {
        let result = read("{\"Version\": 1.0,\n \"Pattern\": [NaN]}")
        #expect(result.pattern == nil)
        #expect(result.diagnostics.all.map(\.description) == [
            "p.ahap:2:14: error: Pattern[0]: NaN is not valid JSON: numbers must be finite",
        ])
    }
}
