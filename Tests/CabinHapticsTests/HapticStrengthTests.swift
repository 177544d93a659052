import CabinHaptics
import Testing

@Suite("Haptic strength: a documented scale on intensity")
struct HapticStrengthTests {
    static let pattern = ahap(#"""
        {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.5, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.9}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}]}},
        {"Event": {"Time": 0.2, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.9}]}},
        {"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}, {"Time": 0.5, "ParameterValue": 0.5}]}}
        """#)

    @Test(arguments: [(HapticStrength.off, 0.0), (.light, 0.4), (.medium, 0.7), (.strong, 1.0)])
    func strengthScalesEveryIntensityAndKeepsSharpness(strength: HapticStrength, factor: Double) {
        #expect(strength.intensityScale == factor)
        let full = HapticCompiler.compile(Self.pattern)
        let scaled = HapticCompiler.compile(Self.pattern, options: HapticCompileOptions(strength: strength))
        #expect(scaled.breakpoints.count == full.breakpoints.count)
        for (a, b) in zip(full.breakpoints, scaled.breakpoints) {
            #expect(b.time == a.time)
            #expect(near(b.intensity, a.intensity * factor))
            #expect(b.sharpness == a.sharpness)
        }
        #expect(scaled.transients.map(\.intensity) == full.transients.map { $0.intensity * factor })
        #expect(scaled.transients.map(\.sharpness) == full.transients.map(\.sharpness))
        for t in stride(from: 0.0, through: 0.6, by: 0.01) {
            #expect(near(scaled.value(at: t).intensity, full.value(at: t).intensity * factor))
        }
        #expect(scaled.endTime == full.endTime)
    }

    @Test func strongIsThePatternAsDesignedBitForBit() {
        let plain = HapticCompiler.compile(Self.pattern)
        let strong = HapticCompiler.compile(Self.pattern, options: HapticCompileOptions(strength: .strong))
        #expect(plain.breakpoints == strong.breakpoints)
        #expect(plain.transients == strong.transients)
        #expect(HapticAudioRenderer.synthesize(plain).samples == HapticAudioRenderer.synthesize(strong).samples)
    }
}
