import CabinHaptics
import Foundation
import Testing

/// `AudioBrightness` on `AudioCustom` waveforms and the `Audio…Control` parameters and curves
/// applied when a pattern's audio is rendered (`HapticPatternAudio`).
@Suite struct PatternAudioControlTests {
    static let rate = 48_000.0

    /// A mono waveform: a 200 Hz and a 6 kHz sine, each at 0.25, for `seconds`.
    static func twoTones(seconds: Double = 1) -> HapticWaveform {
        let n = Int(seconds * rate)
        return HapticWaveform(samples: (0..<n).map { i in
            let t = Double(i) / rate
            return Float(0.25 * sin(2 * .pi * 200 * t) + 0.25 * sin(2 * .pi * 6000 * t))
        }, channelCount: 1)
    }

    static func custom(brightness: Double? = nil, duration: Double = 0) -> HapticEvent {
        var parameters: [HapticEventParameterID: Double] = [.audioVolume: 1]
        if let brightness { parameters[.audioBrightness] = brightness }
        var event = HapticEvent(.audioCustom, time: 0, duration: duration, parameters: parameters)
        event.waveformPath = "tones.wav"
        return event
    }

    static func left(_ stereo: [Float]) -> [Float] { stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] } }
    static func right(_ stereo: [Float]) -> [Float] { stride(from: 1, to: stereo.count, by: 2).map { stereo[$0] } }

    /// Amplitude of the `frequency` component of `x` (a single-bin DFT).
    static func amplitude(_ x: ArraySlice<Float>, _ frequency: Double) -> Double {
        var re = 0.0, im = 0.0
        for (k, v) in x.enumerated() {
            let p = 2 * Double.pi * frequency * Double(k) / rate
            re += Double(v) * cos(p)
            im += Double(v) * sin(p)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(x.count)
    }

    static func render(_ events: [HapticEvent], curves: [HapticParameterCurve] = [], parameters: [HapticDynamicParameter] = []) -> [Float] {
        HapticPatternAudio.synthesize(HapticPattern(events: events, dynamicParameters: parameters, parameterCurves: curves),
                                      waveforms: ["tones.wav": twoTones()], sampleRate: rate)
    }

    @Test func brightnessTiltsAWaveformsTone() {
        let plain = Self.left(Self.render([Self.custom()]))
        #expect(plain == Self.twoTones().samples, "the default brightness leaves the waveform as it is")
        func levels(_ brightness: Double) -> (low: Double, high: Double) {
            let x = Self.left(Self.render([Self.custom(brightness: brightness)]))[4800..<43_200]
            return (Self.amplitude(x, 200), Self.amplitude(x, 6000))
        }
        let dull = levels(0), neutral = levels(0.5), bright = levels(1)
        #expect(abs(neutral.low - 0.25) < 0.005 && abs(neutral.high - 0.25) < 0.005)
        // 0: the highs fall by the low-pass (6 kHz is 6× the 1 kHz corner: about −16 dB),
        // the lows barely move; 1: the highs rise towards +6 dB.
        #expect(dull.high < 0.25 / 5, "\(dull)")
        #expect(abs(dull.low - 0.25) < 0.01, "\(dull)")
        #expect(bright.high > 0.25 * 1.8 && bright.high < 0.25 * 2.01, "\(bright)")
        #expect(abs(bright.low - 0.25) < 0.02, "\(bright)")
    }

    @Test func volumeAndPanControlsFollowTheirCurves() {
        // AudioVolumeControl falls from 1 to 0 over the second; AudioPanControl steps hard right at 0.5 s.
        let stereo = Self.render([Self.custom()],
                                 curves: [HapticParameterCurve(.audioVolumeControl, time: 0, controlPoints: [
                                     HapticControlPoint(time: 0, value: 1), HapticControlPoint(time: 1, value: 0)])],
                                 parameters: [HapticDynamicParameter(.audioPanControl, time: 0.5, value: 1)])
        let l = Self.left(stereo), r = Self.right(stereo)
        let early = Self.amplitude(l[4800..<9600], 200), late = Self.amplitude(l[14_400..<19_200], 200)
        // 0.1–0.2 s at about 0.85, 0.3–0.4 s at about 0.65 of the level.
        #expect(abs(early / 0.25 - 0.85) < 0.03 && abs(late / 0.25 - 0.65) < 0.03, "\(early) \(late)")
        #expect(l[24_000..<48_000].allSatisfy { $0 == 0 }, "panned hard right from 0.5 s")
        #expect(Self.amplitude(r[28_800..<33_600], 200) > 0.05)
    }

    @Test func pitchAndBrightnessControlsMoveTheTone() {
        // AudioPitchControl +1 (an octave up) from 0.5 s: the 200 Hz tone reads at 400 Hz,
        // and the waveform ends sooner than at its own rate.
        let stereo = Self.render([Self.custom()], parameters: [HapticDynamicParameter(.audioPitchControl, time: 0.5, value: 1)])
        let l = Self.left(stereo)
        #expect(Self.amplitude(l[4800..<19_200], 200) > 0.2)
        #expect(Self.amplitude(l[26_400..<33_600], 400) > 0.2 && Self.amplitude(l[26_400..<33_600], 200) < 0.02)
        #expect(l.count == 48_000 / 2 + 48_000 / 4, "half at 1×, the other half of the waveform at 2×: \(l.count) frames")
        // AudioBrightnessControl on a tone: +1 from 0.25 s brings the odd harmonics in.
        let tone = HapticEvent(.audioContinuous, time: 0, duration: 0.5, parameters: [.audioVolume: 0.5, .audioBrightness: 0])
        let toned = Self.left(HapticPatternAudio.synthesize(
            HapticPattern(events: [tone], dynamicParameters: [HapticDynamicParameter(.audioBrightnessControl, time: 0.25, value: 1)]),
            waveforms: [:], sampleRate: Self.rate))
        #expect(Self.amplitude(toned[2400..<9600], 3 * 440) < 0.005)
        #expect(Self.amplitude(toned[14_400..<21_600], 3 * 440) > 0.05)
    }

    /// The `Audio…TimeControl` parameters move a tone's envelope as `AttackTime`,
    /// `DecayTime` and `ReleaseTime` do: added at the event's start.
    @Test func audioTimeControlsMoveTheToneEnvelope() {
        // Sustained 0.5 s tone, release 0 (2 ms): +0.7 on AudioReleaseTimeControl makes it
        // 2 ms × 1000^0.7 ≈ 250 ms, so the tone still sounds 100 ms after the event's end.
        let tone = HapticEvent(.audioContinuous, time: 0, duration: 0.5, parameters: [.audioVolume: 1])
        func render(_ parameters: [HapticDynamicParameter]) -> [Float] {
            Self.left(HapticPatternAudio.synthesize(HapticPattern(events: [tone], dynamicParameters: parameters),
                                                    waveforms: [:], sampleRate: Self.rate))
        }
        let plain = render([])
        let released = render([HapticDynamicParameter(.audioReleaseTimeControl, time: 0, value: 0.7)])
        #expect(plain.count < 24_000 + 200)
        #expect(released.count > 24_000 + 11_000)
        #expect(Self.amplitude(released[28_800..<29_760], 440) > 0.2)
        // A control set after the event starts does not reach it (read at the event's start).
        let late = render([HapticDynamicParameter(.audioReleaseTimeControl, time: 0.25, value: 0.7)])
        #expect(late == plain)
        // +0.5 on AudioAttackTimeControl: a 2 ms × 1000^0.5 ≈ 63 ms fade in.
        let slow = render([HapticDynamicParameter(.audioAttackTimeControl, time: 0, value: 0.5)])
        #expect(Self.amplitude(slow[0..<960], 440) < 0.5 * Self.amplitude(plain[0..<960], 440))
        #expect(abs(Self.amplitude(slow[9600..<19_200], 440) - Self.amplitude(plain[9600..<19_200], 440)) < 0.01)
    }
}
