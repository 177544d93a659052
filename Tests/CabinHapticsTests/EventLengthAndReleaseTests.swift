import CabinHaptics
import CabinJSON
import Testing

/// Issue 30, item 6: what a continuous event's release and length are.
@Suite("Compiler: release tails under curves, lengths of unsustained events")
struct EventLengthAndReleaseTests {
    static func compile(_ text: String) throws -> (HapticPattern, CompiledHaptics) {
        let result = AHAPReader.read(text, file: "t.ahap", options: .strict)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let pattern = try #require(result.pattern)
        return (pattern, HapticCompiler.compile(pattern))
    }

    /// Apple's Sparkle sample (its events and curves as they are): the continuous event at
    /// 0.024 s for 0.15 s is faded to 0 by its curve at 0.174 s, where the next curve starts
    /// at 0.75. Before, the event's 2 ms release tail came back under the new curve at
    /// 0.45 (0.6 × 0.75); its tail keeps the control it ended with, so nothing plays.
    @Test func aCurveThatFadesAnEventHoldsThroughItsRelease() throws {
        let (_, compiled) = try Self.compile("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.6}]}},
          {"Event": {"Time": 0.024, "EventType": "HapticContinuous", "EventDuration": 0.15, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.6}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.1}]}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.024, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}, {"Time": 0.025, "ParameterValue": 0.45}, {"Time": 0.15, "ParameterValue": 0}]}},
          {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0.174, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 0.75}, {"Time": 0.087, "ParameterValue": 0.4}, {"Time": 0.667, "ParameterValue": 0.4}, {"Time": 0.846, "ParameterValue": 0.2}]}},
          {"Event": {"Time": 0.174, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.4}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}
        ]}
        """)
        let samples = compiled.sampled(rate: 10_000).intensity
        let tail = samples[1740...1770]
        #expect(tail.allSatisfy { $0 == 0 }, "\(Array(tail))")
        #expect(compiled.breakpoints.filter { $0.time >= 0.174 }.allSatisfy { $0.intensity == 0 })
        // The control still acts where the event plays: 0.6 × 0.45 at 0.049 s.
        #expect(abs(compiled.value(at: 0.049).intensity - 0.27) < 1e-9)
        // The transient at 0.174 s takes the new curve (0.4 × 0.75).
        #expect(abs((compiled.transients.last?.intensity ?? 0) - 0.3) < 1e-9)
    }

    /// A release tail that plays under a curve starting as its event ends keeps the level
    /// the event ended with, ramping down from it.
    @Test func aTailKeepsTheControlItsEventEndedWith() throws {
        let (_, compiled) = try Self.compile("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "ReleaseTime", "ParameterValue": 0.5}]}},
          {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterValue": 0.5}},
          {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 1, "ParameterValue": 1}}
        ]}
        """)
        let release = HapticEnvelopeShape.default.seconds(0.5)
        #expect(abs(compiled.value(at: 0.5).intensity - 0.5) < 1e-9)
        #expect(abs(compiled.value(at: 1).intensity - 0.5) < 1e-9)
        #expect(abs(compiled.value(at: 1 + release / 2).intensity - 0.25) < 1e-9)
    }

    /// Core Haptics plays an unsustained event's attack and decay "within the event" (Apple's
    /// `sustained` documentation): the event still lasts its EventDuration, silent after its
    /// decay. An event at 2 s for 1 s with Sustained 0 and a 0.13 s decay ends at 3 s: both
    /// `duration` and `endTime` say 3, where `endTime` said 2.134.
    @Test func anUnsustainedEventLastsItsWholeDuration() throws {
        let (pattern, compiled) = try Self.compile("""
        {"Version": 1.0, "Pattern": [
          {"Event": {"Time": 2, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [
            {"ParameterID": "Sustained", "ParameterValue": 0}, {"ParameterID": "DecayTime", "ParameterValue": 0.6}]}}
        ]}
        """)
        #expect(pattern.duration == 3)
        #expect(compiled.duration == 3)
        #expect(compiled.endTime == 3)
        let decayEnd = 2 + HapticEnvelopeShape.default.seconds(0) + HapticEnvelopeShape.default.seconds(0.6)
        #expect(decayEnd < 2.2)
        #expect(compiled.value(at: decayEnd + 0.01).intensity == 0)
        #expect(compiled.sampled().frameCount == 3001)
        // A sustained one's release still lengthens it.
        let (_, sustained) = try Self.compile(#"{"Version": 1.0, "Pattern": [{"Event": {"Time": 2, "EventType": "HapticContinuous", "EventDuration": 1}}]}"#)
        #expect(sustained.endTime == 3 + HapticEnvelopeShape.default.seconds(0))
    }

    /// Identical warnings (a Lofelt Studio export's 75) are shown three times, then counted
    /// on one line; `quiet` leaves out warnings but never errors.
    @Test func identicalWarningsAreSummarisedAfterThree() throws {
        let points = (0..<10).map { #"{"time": \#(Double($0) / 10), "amplitude": 0.5, "curve": 1}"# }.joined(separator: ", ")
        let text = #"{"version": {"major": 1, "minor": 0, "patch": 0}, "signals": {"continuous": {"envelopes": {"amplitude": [\#(points)]}}}}"#
        let result = LofeltHapticReader.read(text, file: "s.haptic")
        #expect(result.diagnostics.count == 10)
        let lines = result.diagnostics.lines()
        #expect(lines.count == 4)
        #expect(lines.prefix(3) == result.diagnostics.sortedByLocation.prefix(3).map(\.description)[...])
        let rule = try #require(result.diagnostics.all.first?.rule)
        let message = try #require(result.diagnostics.all.first?.message)
        #expect(lines.last == "s.haptic: warning: and 7 more like it (\(rule)): \(message)")
        #expect(result.diagnostics.lines(quiet: true).isEmpty)
        let strict = LofeltHapticReader.read(text, file: "s.haptic", options: .strict)
        #expect(strict.diagnostics.lines(quiet: true).count == 4)
    }
}
