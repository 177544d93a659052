import CabinHaptics
import Foundation
import Testing

/// Frequency of a steady tone from rising zero crossings (sub-sample interpolation).
func zeroCrossingFrequency(_ x: ArraySlice<Float>, sampleRate: Double) -> Double {
    var first: Double?
    var last = 0.0
    var count = 0
    var i = x.startIndex + 1
    while i < x.endIndex {
        if x[i - 1] < 0, x[i] >= 0 {
            let t = Double(i - 1) + Double(-x[i - 1]) / Double(x[i] - x[i - 1])
            if first == nil { first = t } else { count += 1 }
            last = t
        }
        i += 1
    }
    guard let first, count > 0 else { return 0 }
    return Double(count) * sampleRate / (last - first)
}

func rms(_ x: ArraySlice<Float>) -> Double {
    (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot()
}

func continuous(intensity: Double, sharpness: Double, time: Double = 0, duration: Double = 1) -> CompiledHaptics {
    HapticCompiler.compile(ahap(#"{"Event": {"Time": \#(time), "EventType": "HapticContinuous", "EventDuration": \#(duration), "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": \#(intensity)}, {"ParameterID": "HapticSharpness", "ParameterValue": \#(sharpness)}]}}"#))
}

@Suite("Haptics as audio")
struct HapticAudioTests {
    @Test(arguments: [(0.0, 60.0), (1.0, 300.0), (0.5, (60.0 * 300.0).squareRoot())])
    func sharpnessMapsToFrequencyOnALogScale(sharpness: Double, hertz: Double) {
        let audio = HapticAudioRenderer.synthesize(continuous(intensity: 1, sharpness: sharpness))
        let middle = audio.samples[9600..<38400]  // 0.2…0.8 s
        let measured = zeroCrossingFrequency(middle, sampleRate: 48_000)
        #expect(abs(measured - hertz) / hertz < 0.001, "measured \(measured) Hz")
    }

    @Test func amplitudeTracksIntensityInDecibels() {
        let full = HapticAudioRenderer.synthesize(continuous(intensity: 1, sharpness: 0.5)).samples[9600..<38400]
        let half = HapticAudioRenderer.synthesize(continuous(intensity: 0.5, sharpness: 0.5)).samples[9600..<38400]
        let tenth = HapticAudioRenderer.synthesize(continuous(intensity: 0.1, sharpness: 0.5)).samples[9600..<38400]
        #expect(abs(20 * log10(rms(half) / rms(full)) - (-6.0206)) < 0.01)
        #expect(abs(20 * log10(rms(tenth) / rms(full)) - (-20)) < 0.01)
        // Full intensity peaks at the −1 dBFS ceiling (a sine's RMS is peak/√2).
        #expect(abs(20 * log10(rms(full) * 2.0.squareRoot()) - (-1)) < 0.01)
    }

    @Test func aTransientBurstStartsOnItsExactFrame() {
        let compiled = HapticCompiler.compile(ahap(#"{"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}"#))
        let audio = HapticAudioRenderer.synthesize(compiled)
        #expect(audio.samples[0..<4800].allSatisfy { $0 == 0 })
        #expect(audio.samples[4800] > 0)
        let burst = audio.samples[4800..<(4800 + 960)]
        #expect(burst.contains { abs($0) > 0.3 })
        #expect(audio.samples[(4800 + 960)...].allSatisfy { $0 == 0 })
    }

    @Test(arguments: [0.0, 1.0])
    func eventEdgesDoNotStepFasterThanTheSineItself(sharpness: Double) {
        let audio = HapticAudioRenderer.synthesize(continuous(intensity: 1, sharpness: sharpness, time: 0.1, duration: 0.3))
        let hertz = 60 * pow(5, sharpness)
        let sineMaxStep = 0.891_250_938 * 2 * sin(Double.pi * hertz / 48_000)
        var largest = 0.0
        for n in 1..<audio.samples.count {
            largest = max(largest, Double(abs(audio.samples[n] - audio.samples[n - 1])))
        }
        #expect(largest <= sineMaxStep * 1.0001, "largest step \(largest), sine's own \(sineMaxStep)")
        #expect(largest > sineMaxStep * 0.99)  // the steady part does reach it
    }

    @Test func overlapsAreNormalisedToTheCeiling() {
        let compiled = HapticCompiler.compile(ahap("""
        {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.2, "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 0}]}},
        {"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 1}]}}
        """))
        let audio = HapticAudioRenderer.synthesize(compiled)
        let peak = audio.samples.map { abs(Double($0)) }.max() ?? 0
        #expect(audio.normalizationGain < 1)
        #expect(abs(20 * log10(peak) - (-1)) < 0.001)
    }

    @Test func dualSenseLayoutPutsHapticsOnChannelsThreeAndFour() {
        let compiled = continuous(intensity: 1, sharpness: 0, duration: 0.1)
        let mono = HapticAudioRenderer.synthesize(compiled)
        let quad = HapticAudioRenderer.synthesize(compiled, options: HapticAudioOptions(layout: .dualSense))
        #expect(quad.channelCount == 4)
        #expect(quad.frameCount == mono.frameCount)
        #expect(quad.channel(0).allSatisfy { $0 == 0 } && quad.channel(1).allSatisfy { $0 == 0 })
        #expect(quad.channel(2) == mono.samples && quad.channel(3) == mono.samples)
        #expect(quad.frequencyRange == 60...300)
    }
}
