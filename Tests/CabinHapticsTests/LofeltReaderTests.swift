import CabinHaptics
import CabinJSON
import Testing

@Suite(".haptic reader: diagnostics and mapping")
struct LofeltReaderTests {
    func read(_ text: String, _ options: HapticReadOptions = .lenient) -> HapticReadResult {
        LofeltHapticReader.read(text, file: "h.haptic", options: options)
    }

    @Test func quirksAreWarningsWithLocations() throws {
        let result = read("""
        {"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [
          {"time": 0.2, "amplitude": 1.2},
          {"time": 0.1, "amplitude": 0.25, "emphasis": {"amplitude": 0.81, "frequency": 0.36}}
        ], "frequncy": []}}}}
        """)
        #expect(result.diagnostics.all.map(\.description) == [
            #"h.haptic:4:4: warning: signals.continuous.envelopes.frequncy: unknown key "frequncy" ignored (did you mean "frequency"?)"#,
            "h.haptic:2:30: warning: signals.continuous.envelopes.amplitude[0].amplitude: amplitude 1.2 is outside 0…1; clamped to 1",
            "h.haptic:3:12: warning: signals.continuous.envelopes.amplitude[1].time: breakpoint times must ascend (0.1 s follows 0.2 s); sorted by time",
        ])
        let pattern = try #require(result.pattern)
        let continuous = try #require(pattern.events(ofType: .hapticContinuous).first)
        #expect(continuous.time == 0.1)
        #expect(abs(continuous.duration - 0.1) < 1e-12)
        // √0.25 ducked by Lofelt's 0.8 under its emphasis, then √1.
        #expect(continuous.intensityEnvelope?.map(\.value) == [0.5 * 0.8, 1])
        let transient = try #require(pattern.events(ofType: .hapticTransient).first)
        #expect(abs(transient.intensity - 0.9) < 1e-12)
        #expect(abs(transient.sharpness - 0.36) < 1e-12)
        #expect(read(#"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 2}]}}}}"#, .strict).pattern == nil)
    }

    @Test func structuralProblemsAreErrors() {
        let result = read(#"{"version": {"major": 2}, "signals": {"continuous": {"envelopes": {"amplitude": []}}}}"#)
        #expect(result.pattern == nil)
        #expect(result.diagnostics.errors.map(\.description) == [
            "h.haptic:1:23: error: version.major: unsupported version major 2: the supported major version is 1",
            "h.haptic:1:81: error: signals.continuous.envelopes.amplitude: the amplitude envelope is empty; it needs at least one breakpoint",
        ])
        let missing = read(#"{"version": {"major": 1}, "signals": {"continuous": {}}}"#)
        #expect(missing.diagnostics.errors.map(\.description) == [
            #"h.haptic:1:53: error: signals.continuous: missing required key "envelopes""#,
        ])
    }

    @Test func longSignalsAreSplitIntoThirtySecondPieces() throws {
        let result = read(#"{"version": {"major": 1}, "signals": {"continuous": {"envelopes": {"amplitude": [{"time": 0, "amplitude": 0}, {"time": 70, "amplitude": 1}]}}}}"#)
        let pattern = try #require(result.pattern)
        let pieces = pattern.events(ofType: .hapticContinuous)
        #expect(pieces.map(\.time) == [0, 30, 60])
        #expect(pieces.map(\.duration) == [30, 30, 10])
        // √ of the linearly interpolated breakpoint values: at 30 s, amplitude 0 → 1 gives √ line 0 → 1.
        #expect(abs((pieces[1].intensityEnvelope?.first?.value ?? -1) - 30.0 / 70.0) < 1e-12)
    }
}
