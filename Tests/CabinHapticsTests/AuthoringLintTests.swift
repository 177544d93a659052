import CabinHaptics
import CabinJSON
import Testing

/// Issue 30, item 5: authoring lints — warnings in lenient mode, errors in strict, each with
/// a rule id and a location.
@Suite("Authoring lints: located, with rule ids, errors when strict")
struct AuthoringLintTests {
    /// The one diagnostic of `text`, lenient, and that it is an error in strict mode.
    static func only(_ text: String, _ file: String = "l.ahap") throws -> Diagnostic {
        let lenient = HapticReader.read(Array(text.utf8), file: file)
        #expect(lenient.pattern != nil)
        #expect(lenient.diagnostics.count == 1, "\(lenient.diagnostics)")
        let strict = HapticReader.read(Array(text.utf8), file: file, options: .strict)
        #expect(strict.pattern == nil && strict.diagnostics.errors.count == 1, "\(strict.diagnostics)")
        return try #require(lenient.diagnostics.all.first)
    }

    /// Engine-off's old shape: a shudder after a fade to 0.1.
    @Test func aTransientScaledBelowHalfByTheCurve() throws {
        let d = try Self.only("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 2.2}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}, {"Time": 2.2, "ParameterValue": 0.1}]}},
          {"Event": {"Time": 2.25, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.7}]}}
        ]}
        """)
        #expect(d.description == "l.ahap:4:13: warning: Pattern[2].Event: HapticTransient at 2.25 s plays at 0.07, less than half its HapticIntensity 0.7: the pattern's HapticIntensityControl is 0.1 there")
        #expect(d.rule == "ahap.transient-under-curve")
        // Meta Haptics Studio's Button_Press_Default_A as the old convert wrote it (its click
        // of 0.775 under a HapticIntensityControl of 0 everywhere): check --strict fails it.
        let silenced = HapticReader.read(Array("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.1}},
          {"Event": {"Time": 0.012, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.775}]}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 0}, {"Time": 0.1, "ParameterValue": 0}]}}
        ]}
        """.utf8), file: "b.ahap", options: .strict)
        #expect(silenced.pattern == nil)
        #expect(silenced.diagnostics.all.map(\.description) == [
            "b.ahap:3:13: error: Pattern[1].Event: HapticTransient at 0.012 s plays at 0, less than half its HapticIntensity 0.775: the pattern's HapticIntensityControl is 0 there",
        ])
        // At half, nothing is said.
        let half = HapticReader.read(Array(#"{"Version": 1.0, "Pattern": [{"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 0.5}}, {"Event": {"Time": 1, "EventType": "HapticTransient"}}]}"#.utf8), file: "h.ahap", options: .strict)
        #expect(half.diagnostics.isEmpty)
    }

    @Test func moreThanSixteenPointsInACurve() throws {
        let points = (0..<17).map { #"{"Time": \#(Double($0) / 10), "ParameterValue": 0.5}"# }.joined(separator: ", ")
        let d = try Self.only(#"{"Version": 1.0, "Pattern": [{"ParameterCurve": {"ParameterID": "HapticSharpnessControl", "Time": 0, "ParameterCurveControlPoints": [\#(points)]}}]}"#)
        #expect(d.rule == "ahap.too-many-points")
        #expect(d.path.description == "Pattern[0].ParameterCurve.ParameterCurveControlPoints" && d.line == 1)
    }

    @Test func aZeroLengthContinuousEvent() throws {
        let d = try Self.only(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 0}}]}"#)
        #expect(d.description == "l.ahap:1:104: warning: Pattern[0].Event.EventDuration: HapticContinuous event with EventDuration 0: it plays nothing")
        #expect(d.rule == "ahap.zero-length")
    }

    @Test func aParameterOfTheWrongEventType() throws {
        let d = try Self.only(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "AudioContinuous", "EventDuration": 1, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}}]}"#)
        #expect(d.description == "l.ahap:1:140: warning: Pattern[0].Event.EventParameters[0].ParameterID: HapticIntensity does nothing on a AudioContinuous event (it is a haptic parameter)")
        #expect(d.rule == "ahap.parameter-for-other-type")
        let audio = try Self.only(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "AudioVolume", "ParameterValue": 0.5}]}}]}"#)
        #expect(audio.rule == "ahap.parameter-for-other-type" && audio.message.contains("(it is a sound parameter)"))
    }

    @Test func aLofeltEmphasisBelowItsEnvelope() throws {
        let d = try Self.only("""
        {"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {"amplitude": [
          {"time": 0, "amplitude": 0.2}, {"time": 0.1, "amplitude": 0.6, "emphasis": {"amplitude": 0.4, "frequency": 0.5}}, {"time": 0.2, "amplitude": 0.1}]}}}}
        """, "e.haptic")
        #expect(d.description == "e.haptic:2:92: warning: signals.continuous.envelopes.amplitude[1].emphasis.amplitude: emphasis amplitude 0.4 is below its breakpoint's amplitude 0.6: the click is weaker than the texture it should stand out of")
        #expect(d.rule == "haptic.emphasis-below-envelope")
    }

    /// What `convert` writes passes them: a `.haptic` emphasis under a quiet texture (a
    /// control below ½) gets its piece, so the AHAP reads strictly clean.
    @Test func convertedPatternsPassTheLints() throws {
        let source = try #require(LofeltHapticReader.read("""
        {"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {"amplitude": [
          {"time": 0, "amplitude": 0.05}, {"time": 0.1, "amplitude": 0.1, "emphasis": {"amplitude": 0.9, "frequency": 0.5}},
          {"time": 0.2, "amplitude": 0.04, "emphasis": {"amplitude": 0.05, "frequency": 0.5}}, {"time": 0.3, "amplitude": 0}]}}}}
        """, file: "q.haptic").pattern)
        let reread = AHAPReader.read(AHAPWriter.write(source), file: "q.ahap", options: .strict)
        #expect(reread.diagnostics.isEmpty, "\(reread.diagnostics)")
    }
}
