import CabinAudio
import CabinHaptics
import CabinJSON
import Glibc
import Testing

/// `haptics from-audio`'s analysis on generated sounds: onsets to transients, the envelope
/// to intensity, the spectrum to sharpness; the two output formats agree.
@Suite struct AudioToHapticsTests {
    static let rate = 48_000.0

    /// A generator of noise (xorshift), so the sounds are the same on every run.
    struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Float {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
        }
    }

    static func buffer(_ samples: [Float]) -> AudioBuffer { AudioBuffer(samples: samples, channelCount: 1, sampleRate: rate) }

    /// Clicks (a 3 ms decaying noise burst) at `times` over a faint noise floor.
    static func clicks(at times: [Double], seconds: Double) -> [Float] {
        var noise = Noise()
        var x = (0..<Int(seconds * rate)).map { _ in noise.next() * 0.001 }
        for t in times {
            let start = Int(t * rate)
            for k in 0..<Int(0.015 * rate) where start + k < x.count {
                x[start + k] += noise.next() * 0.8 * Float(exp(-Double(k) / (0.003 * rate)))
            }
        }
        return x
    }

    @Test func clicksAtKnownTimesBecomeTransientsWithinAMillisecond() {
        let times = [0.1, 0.3717, 0.52, 0.8234, 1.25, 1.6009]
        let result = AudioToHaptics(Self.buffer(Self.clicks(at: times, seconds: 2)))
        #expect(result.transients.count == times.count, "\(result.transients.map(\.time))")
        for t in times {
            let nearest = result.transients.map { abs($0.time - t) }.min() ?? .infinity
            #expect(nearest <= 0.001, "a click at \(t) s: the nearest transient is \(nearest * 1000) ms away")
        }
        // Clicks of one loudness: the loudest at full intensity, none much weaker.
        #expect(result.transients.map(\.intensity).max() == 1)
        #expect(result.transients.allSatisfy { $0.intensity > 0.5 }, "\(result.transients.map(\.intensity))")
    }

    @Test func anEnvelopeRampBecomesAMatchingIntensityCurve() {
        // A 150 Hz tone rising linearly from silence to full over 1 s, held 0.5 s, then
        // falling to a quarter by 2 s.
        func level(_ t: Double) -> Double { t < 1 ? t : t < 1.5 ? 1 : 1 - 0.75 * (t - 1.5) / 0.5 }
        let samples = (0..<Int(2 * Self.rate)).map { i -> Float in
            let t = Double(i) / Self.rate
            return Float(0.5 * level(t) * sin(2 * Double.pi * 150 * t))
        }
        let result = AudioToHaptics(Self.buffer(samples), options: AudioToHapticsOptions(resolution: 20))
        // A smooth tone has no clicks: onsets only where it starts and where it is cut off.
        #expect(result.transients.allSatisfy { $0.time < 0.01 || $0.time > 1.98 }, "\(result.transients.map(\.time))")
        let compiled = HapticCompiler.compile(result.pattern())
        for t in stride(from: 0.2, through: 1.9, by: 0.1) {
            #expect(abs(compiled.value(at: t).intensity - level(t)) < 0.04, "at \(t) s: \(compiled.value(at: t).intensity) for \(level(t))")
        }
        // Gain and headroom: +6 dB reaches full intensity at half the ramp; 6 dB of headroom caps it at 0.5.
        let loud = HapticCompiler.compile(AudioToHaptics(Self.buffer(samples), options: AudioToHapticsOptions(gainDecibels: 6.0206, resolution: 20, headroomDecibels: 6.0206)).pattern())
        #expect(abs(loud.value(at: 0.25).intensity - 0.25) < 0.03 && abs(loud.value(at: 0.75).intensity - 0.5) < 0.01)
    }

    @Test func brightNoiseIsSharperThanDarkNoise() {
        var noise = Noise()
        let white = (0..<Int(Self.rate)).map { _ in noise.next() * 0.3 }
        // Dark: white noise through a one-pole low-pass at ~150 Hz; bright: its remainder (a high-pass).
        var low: Float = 0
        let a = Float(1 - exp(-2 * Double.pi * 150 / Self.rate))
        var dark: [Float] = [], bright: [Float] = []
        for x in white {
            low += a * (x - low)
            dark.append(low * 8)
            bright.append(x - low)
        }
        func sharpness(_ x: [Float]) -> Double {
            let points = AudioToHaptics(Self.buffer(x)).points.filter { $0.time > 0.1 && $0.time < 0.9 }
            return points.map(\.sharpness).reduce(0, +) / Double(points.count)
        }
        let (b, d) = (sharpness(bright), sharpness(dark))
        #expect(b > d + 0.4, "bright \(b), dark \(d)")
        #expect(b > 0.7 && d < 0.4)
    }

    @Test func theHapticAndTheAHAPPlayTheSame() throws {
        let result = AudioToHaptics(Self.buffer(Self.clicks(at: [0.2, 0.6], seconds: 1)))
        let haptic = LofeltHapticReader.read(result.hapticDocument(metadata: ["description": "two clicks"]).serialized(), file: "x.haptic", options: .strict)
        #expect(haptic.diagnostics.isEmpty, "\(haptic.diagnostics)")
        let ahap = AHAPReader.read(AHAPWriter.write(result.pattern(metadata: ["description": "two clicks"])), file: "x.ahap", options: .strict)
        #expect(ahap.diagnostics.isEmpty, "\(ahap.diagnostics)")
        let a = HapticCompiler.compile(try #require(haptic.pattern)), b = HapticCompiler.compile(try #require(ahap.pattern))
        #expect(a.transients.count == 2 && b.transients.count == 2)
        for (x, y) in zip(a.transients, b.transients) {
            #expect(abs(x.time - y.time) < 1e-6 && abs(x.intensity - y.intensity) < 1e-6 && abs(x.sharpness - y.sharpness) < 1e-6)
        }
        #expect(ahap.pattern?.metadata["Description"] == "two clicks")
    }

    @Test func optionsOutOfRangeAreNamed() {
        #expect(AudioToHapticsOptions().problems.isEmpty)
        #expect(AudioToHapticsOptions(resolution: 0).problems == ["--resolution must be 1…1000 points a second, not 0.0"])
        #expect(AudioToHapticsOptions(gainDecibels: .nan, headroomDecibels: -1).problems.count == 2)
        #expect(AudioToHapticsOptions(emphasisThreshold: 2).problems == ["--emphasis-threshold must be 0…1, not 2.0"])
    }
}
