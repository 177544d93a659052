import CabinHaptics
import Testing

func ahap(_ elements: String) -> HapticPattern {
    let result = AHAPReader.read(#"{"Version": 1.0, "Pattern": [\#(elements)]}"#, file: "inline.ahap")
    return result.pattern!
}

func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

let fixtureNames = [
    "ahap/apple__unityplugins__Boing.ahap", "ahap/apple__unityplugins__Spin.ahap",
    "ahap/apple__unityplugins__Heartbeats.ahap", "ahap/apple__unityplugins__Texture.ahap",
    "ahap/apple__unityplugins__Implode.ahap", "ahap/Lofelt__NiceVibrations__long_clip.ahap",
    "haptic/Lofelt__NiceVibrations__ShotgunFire2.haptic",
    "haptic/Lofelt__NiceVibrations__emphasis-and-continuous.haptic",
    "haptic/Lofelt__NiceVibrations__valid_required_v1.haptic",
]

@Suite("Compiler: envelopes, controls, streams")
struct HapticCompilerTests {
    @Test(.needsSharedFixtures, arguments: fixtureNames)
    func compiledStreamsAreSortedAndInsideTheDuration(name: String) throws {
        let pattern = try #require(try readFixture(name).pattern)
        let compiled = HapticCompiler.compile(pattern)
        #expect(compiled.duration == pattern.events.filter(\.type.isHaptic).map(\.endTime).max())
        #expect(compiled.endTime >= compiled.duration && compiled.endTime <= compiled.duration + 2.0)
        let times = compiled.breakpoints.map(\.time)
        #expect(times == times.sorted())
        #expect(times.allSatisfy { $0 >= 0 && $0 <= compiled.endTime })
        #expect(compiled.breakpoints.allSatisfy { (0...1).contains($0.intensity) && (0...1).contains($0.sharpness) })
        #expect(compiled.transients.map(\.time) == compiled.transients.map(\.time).sorted())
        #expect(compiled.transients.allSatisfy { $0.time >= 0 && $0.time <= compiled.duration })
        #expect(compiled.transients.count == pattern.events(ofType: .hapticTransient).count)
        let sampled = compiled.sampled()
        #expect(sampled.frameCount == Int((compiled.endTime * 1000 + 1e-9).rounded(.down)) + 1)
        #expect(sampled.transients.allSatisfy { $0.frame >= 0 && $0.frame < sampled.frameCount })
        #expect(HapticCompiler.compile(pattern).breakpoints == compiled.breakpoints)  // deterministic
    }

    @Test func sustainedEnvelopeHasTheDocumentedCorners() {
        let pattern = ahap(#"{"Event": {"Time": 1, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.3}, {"ParameterID": "AttackTime", "ParameterValue": 0.5}]}}"#)
        let compiled = HapticCompiler.compile(pattern)
        let attack = 0.002 * 1000.0.squareRoot()
        #expect(compiled.breakpoints.map(\.time) == [0, 1, 1 + attack, 2, 2.002])
        #expect(compiled.breakpoints.map(\.intensity) == [0, 0, 0.8, 0.8, 0])
        #expect(compiled.breakpoints.allSatisfy { $0.sharpness == 0.3 })
        #expect(compiled.endTime == 2.002)
        #expect(near(compiled.value(at: 1 + attack / 2).intensity, 0.4))
    }

    @Test func unsustainedEnvelopeDecaysInsideTheEvent() {
        let pattern = ahap(#"{"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1, "EventParameters": [{"ParameterID": "Sustained", "ParameterValue": 0}, {"ParameterID": "DecayTime", "ParameterValue": 0.5}]}}"#)
        let compiled = HapticCompiler.compile(pattern)
        let decay = 0.002 * 1000.0.squareRoot()
        #expect(compiled.breakpoints.map(\.time).contains(0.002 + decay))
        #expect(near(compiled.value(at: 0.002 + decay / 2).intensity, 0.5))
        #expect(compiled.value(at: 0.5).intensity == 0)
    }

    @Test(.needsSharedFixtures) func boingCurvesInterpolateAtExactTimes() throws {
        let compiled = HapticCompiler.compile(try #require(try readFixture("ahap/apple__unityplugins__Boing.ahap").pattern))
        // Curve starts at 0.015; at +0.05 s the intensity control is 0.75 and the sharpness control −0.06.
        let v = compiled.value(at: 0.065)
        #expect(near(v.intensity, 0.8 * 0.75))
        #expect(near(v.sharpness, 0.4 - 0.06))
        // A knot of the curve (0.015 + 0.1 → control 0.5) is a breakpoint.
        let knot = try #require(compiled.breakpoints.first { near($0.time, 0.115) })
        #expect(near(knot.intensity, 0.4))
        #expect(near(knot.sharpness, 0.4 - 0.12))
        // The transient at 0 comes before the curve: control default 1.
        #expect(compiled.transients == [HapticTransientEvent(time: 0, intensity: 0.8, sharpness: 0.4)])
    }

    @Test func intensityControlMultipliesTransientsAndSharpnessControlAddsThenClamps() {
        let pattern = ahap("""
        {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0.05, "ParameterValue": 0.5}},
        {"Parameter": {"ParameterID": "HapticSharpnessControl", "Time": 0.05, "ParameterValue": 0.5}},
        {"Event": {"Time": 0.0, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.9}]}},
        {"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.8}, {"ParameterID": "HapticSharpness", "ParameterValue": 0.9}]}}
        """)
        let compiled = HapticCompiler.compile(pattern)
        #expect(compiled.transients == [
            HapticTransientEvent(time: 0, intensity: 0.8, sharpness: 0.9),
            HapticTransientEvent(time: 0.1, intensity: 0.4, sharpness: 1.0),
        ])
        #expect(compiled.breakpoints.isEmpty)
        #expect(near(compiled.endTime, 0.12))
    }

    @Test func aDynamicParameterStepIsTwoBreakpointsAtOneTime() throws {
        let pattern = ahap("""
        {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1}},
        {"Parameter": {"ParameterID": "HapticIntensityControl", "Time": 0.5, "ParameterValue": 0.25}}
        """)
        let compiled = HapticCompiler.compile(pattern)
        let atStep = compiled.breakpoints.filter { $0.time == 0.5 }
        #expect(atStep.map(\.intensity) == [1, 0.25])
        #expect(compiled.value(at: 0.5).intensity == 0.25)
        #expect(compiled.value(at: 0.4999).intensity == 1)
    }

    @Test(.needsSharedFixtures) func overlappingEventsAddAndMixSharpnessByIntensity() throws {
        let compiled = HapticCompiler.compile(try #require(try readFixture("ahap/apple__unityplugins__Spin.ahap").pattern))
        let control = 0.914 + (1.0 - 0.914) * (0.5 - 0.483) / (0.706 - 0.483)
        let sharpness = (0.44 * 0.39 + 0.5 * 0.09) / 0.94 + 0.8 * 0.4 / 1.0
        let v = compiled.value(at: 0.5)
        #expect(near(v.intensity, 0.94 * control))
        #expect(near(v.sharpness, sharpness))
    }

    @Test(.needsSharedFixtures) func sampledStreamMatchesTheModelOnEveryFrame() throws {
        let compiled = HapticCompiler.compile(try #require(try readFixture("ahap/apple__unityplugins__Boing.ahap").pattern))
        let sampled = compiled.sampled(rate: 1000)
        #expect(sampled.frameCount == 268)  // 0…0.267 s (0.265 + 2 ms release)
        for k in stride(from: 0, to: sampled.frameCount, by: 13) {
            #expect(sampled.intensity[k] == Float(compiled.value(at: Double(k) / 1000).intensity))
        }
        #expect(sampled.transients.map(\.frame) == [0])
    }

    @Test(.needsSharedFixtures) func hapticMappingGivesSquareRootIntensityAtBreakpoints() throws {
        let compiled = HapticCompiler.compile(try #require(try readFixture("haptic/Lofelt__NiceVibrations__valid_required_v1.haptic").pattern))
        for (t, a) in [(0.0, 0.2), (0.1, 0.3), (0.2, 0.2)] {
            #expect(near(compiled.value(at: t).intensity, a.squareRoot()))
        }
        #expect(near(compiled.value(at: 0.05).intensity, (0.2.squareRoot() + 0.3.squareRoot()) / 2))
        #expect(compiled.value(at: 0.1).sharpness == 0.5)
    }
}

@Suite("Compiler: time controls and silence")
struct HapticCompilerDetailTests {
    @Test func releaseTimeControlLengthensTheTail() {
        let pattern = ahap("""
        {"Parameter": {"ParameterID": "HapticReleaseTimeControl", "Time": 0, "ParameterValue": 0.5}},
        {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 1}}
        """)
        let compiled = HapticCompiler.compile(pattern)
        #expect(near(compiled.endTime, 1 + 0.002 * 1000.0.squareRoot()))
        #expect(compiled.duration == 1)
    }

    @Test func sharpnessIsHeldThroughSilenceBetweenEvents() {
        let pattern = ahap("""
        {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.1, "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 0.2}]}},
        {"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 0.1, "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 0.9}]}}
        """)
        let compiled = HapticCompiler.compile(pattern)
        #expect(compiled.value(at: 0.3) == (intensity: 0, sharpness: 0.2))
        #expect(compiled.value(at: 0.55).sharpness == 0.9)
    }
}
