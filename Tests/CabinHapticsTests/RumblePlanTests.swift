import CabinHaptics
import Testing

@Suite("Rumble: the mapping and the plan")
struct RumblePlanTests {
    @Test func equalPowerSplitSendsLowSharpnessToTheStrongMotor() {
        let m = RumbleMapping.equalPowerSplit
        #expect(m.magnitudes(intensity: 1, sharpness: 0) == RumbleMagnitudes(strong: 65535, weak: 0))
        #expect(m.magnitudes(intensity: 1, sharpness: 1) == RumbleMagnitudes(strong: 0, weak: 65535))
        #expect(m.magnitudes(intensity: 1, sharpness: 0.5) == RumbleMagnitudes(strong: 46340, weak: 46340))
        #expect(m.magnitudes(intensity: 0.5, sharpness: 0) == RumbleMagnitudes(strong: 32768, weak: 0))
        #expect(m.magnitudes(intensity: 2, sharpness: -1) == RumbleMagnitudes(strong: 65535, weak: 0), "clamped")
        // Equal power: strong² + weak² = (I·0xFFFF)² at every sharpness (to rounding).
        for s in stride(from: 0.0, through: 1.0, by: 0.1) {
            let v = m.magnitudes(intensity: 0.8, sharpness: s)
            let power = Double(v.strong) * Double(v.strong) + Double(v.weak) * Double(v.weak)
            #expect(abs(power.squareRoot() - 0.8 * 65535) < 1)
        }
        #expect(RumbleMapping.intensityOnly.magnitudes(intensity: 0.25, sharpness: 0.9)
            == RumbleMagnitudes(strong: 16384, weak: 16384))
        #expect(RumbleMapping(rawValue: "equal-power-split") == .equalPowerSplit)
    }

    @Test func continuousEventBecomesFiftyMillisecondStepsThenAStop() {
        let plan = RumblePlan(continuous(intensity: 1, sharpness: 0, duration: 0.1))
        // Frames 0…102 at 1 kHz: the 2 ms attack lowers step 0's mean to 0.97, the release
        // leaves step 2 (frames 100…102) at 0.5.
        #expect(plan.steps == [
            .init(time: 0, action: .play(voice: 0, magnitudes: .init(strong: 63569, weak: 0), lengthMilliseconds: 150)),
            .init(time: 50, action: .play(voice: 0, magnitudes: .init(strong: 65535, weak: 0), lengthMilliseconds: 150)),
            .init(time: 100, action: .play(voice: 0, magnitudes: .init(strong: 32768, weak: 0), lengthMilliseconds: 103)),
            .init(time: 103, action: .stop(voice: 0)),
        ])
        #expect(plan.durationMilliseconds == 103)
        #expect(plan.voiceCount == 4)
    }

    @Test func longEffectsAreRefreshedBeforeTheirReplayLengthEnds() {
        let plan = RumblePlan(continuous(intensity: 0.5, sharpness: 1, duration: 2.5))
        let plays = plan.steps.compactMap { step -> (Int, Int)? in
            if case .play(_, _, let length) = step.action { return (step.time, length) }
            return nil
        }
        #expect(plays.map(\.0) == [0, 50, 1050, 2050, 2500])
        for (a, b) in zip(plays, plays.dropFirst()) {
            #expect(b.0 - a.0 <= 1000, "pieces of at most 1 s")
            #expect(b.0 < a.0 + a.1, "the next upload comes before the replay length ends")
        }
        #expect(plan.steps.last == .init(time: 2503, action: .stop(voice: 0)))
    }

    @Test func transientsGetThirtyMillisecondsOnReusedVoices() {
        let compiled = HapticCompiler.compile(ahap(["0", "0.01", "0.02", "0.04"].map {
            #"{"Event": {"Time": \#($0), "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}"#
        }.joined(separator: ",")))
        let plan = RumblePlan(compiled, options: .init(transientVoices: 2))
        let crisp = RumbleMagnitudes(strong: 0, weak: 65535)
        #expect(plan.steps == [
            .init(time: 0, action: .play(voice: 1, magnitudes: crisp, lengthMilliseconds: 30)),
            .init(time: 10, action: .play(voice: 2, magnitudes: crisp, lengthMilliseconds: 30)),
            // Both busy at 20 ms: voice 1 ends first (30 ms), so it is taken over.
            .init(time: 20, action: .play(voice: 1, magnitudes: crisp, lengthMilliseconds: 30)),
            .init(time: 40, action: .play(voice: 2, magnitudes: crisp, lengthMilliseconds: 30)),
        ])
        #expect(plan.durationMilliseconds == 70)
    }

    @Test func withoutTransientVoicesTransientsMergeIntoTheContinuousSteps() {
        let compiled = HapticCompiler.compile(ahap(#"""
            {"Event": {"Time": 0.06, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1}, {"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}
            """#))
        let plan = RumblePlan(compiled, options: .init(transientVoices: 0))
        #expect(plan.steps == [
            .init(time: 50, action: .play(voice: 0, magnitudes: .init(strong: 0, weak: 65535), lengthMilliseconds: 131)),
            .init(time: 81, action: .stop(voice: 0)),
        ])
    }

    @Test(.needsSharedFixtures) func fixturesPlanInsideTheirDurationWithValidVoices() throws {
        for name in ["ahap/apple__unityplugins__Heartbeats.ahap", "ahap/apple__unityplugins__Texture.ahap",
                     "haptic/Lofelt__NiceVibrations__ShotgunFire2.haptic"] {
            let compiled = HapticCompiler.compile(try #require(try readFixture(name).pattern))
            let plan = RumblePlan(compiled)
            #expect(plan.steps.map(\.time) == plan.steps.map(\.time).sorted(), "\(name)")
            #expect(plan.durationMilliseconds <= Int((compiled.endTime * 1000).rounded()) + 30, "\(name)")
            for step in plan.steps {
                if case .play(let voice, _, let length) = step.action {
                    #expect((0..<4).contains(voice))
                    #expect(length >= 30)
                }
            }
        }
    }
}
