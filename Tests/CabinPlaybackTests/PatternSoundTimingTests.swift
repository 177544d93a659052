import CabinAudio
import CabinHaptics
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// Library patterns played with a library sound are timed to that sound: at each of the
/// pattern's onset transients the decoded sound (Sounds/ui/*.opus) starts something new —
/// its level over the next 12 ms is at least 2 dB above the 12 ms before — somewhere within
/// 10 ms of the transient. (Measured margins: clicks rise 30–50 dB, each new bell or bar
/// note 2.4–5 dB over the ringing of the previous ones; 25 ms off an onset the rise is
/// below 1.2 dB everywhere.)
@Suite struct PatternSoundTimingTests {
    static let root = TestEnvironment.packageRoot

    /// Pattern, the sound cued with it, and the times of the transients that mark the
    /// sound's onsets (a pattern's other transients — settles, confetti — follow no onset).
    static let pairs: [(String, String, [Double])] = [
        ("turn-signal", "ui/turn-signal", [0.005, 0.405]), ("seatbelt", "ui/seatbelt", [0.01, 0.075]),
        ("gear-shift", "ui/gear-shift", [0.005, 0.07]), ("milestone", "ui/chime-milestone", [0, 0.12]),
        ("focus-start", "ui/chime-focus", [0, 0.14]), ("break-start", "ui/chime-break", [0, 0.2]),
        ("session-end", "ui/session-end", [0, 0.15, 0.3, 0.45]), ("arrival", "ui/session-end", [0, 0.15, 0.3, 0.45]),
        // The streak's soft fourth note (gain 0.35) hides under the ringing of the third.
        ("streak-success", "ui/streak-success", [0, 0.09, 0.18]), ("unlock", "ui/unlock", [0.005, 0.05, 0.12]),
        ("toggle", "ui/toggle", [0]), ("counter-step", "ui/counter-step", [0]),
        ("engine-start", "ui/ignition", [0.76]), ("engine-start", "ui/ignition-v6", [0.76]),
        ("engine-start", "ui/ignition-four", [0.76]), ("engine-start", "ui/ignition-diesel", [0.76]),
        ("engine-start", "ui/ignition-vintage", [0.76]), ("engine-start-electric", "ui/power-on", [0]),
        ("speed-bump", "ui/speed-bump", [0, 0.22]),
    ]

    static func rms(_ x: [Float], _ sampleRate: Double, _ from: Double, _ to: Double) -> Double {
        let a = max(0, Int(from * sampleRate)), z = min(x.count, Int(to * sampleRate))
        guard z > a else { return 1e-9 }
        return (x[a..<z].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(z - a)).squareRoot() + 1e-9
    }

    /// The largest rise in dB (next 12 ms over previous 12 ms) within 10 ms of `t`.
    static func rise(_ x: [Float], _ sampleRate: Double, near t: Double) -> Double {
        stride(from: t - 0.010, through: t + 0.010, by: 0.001).map { u in
            20 * log10(rms(x, sampleRate, u, u + 0.012) / rms(x, sampleRate, u - 0.012, u))
        }.max()!
    }

    @Test(arguments: pairs.map { PatternCase(pattern: $0.0, sound: $0.1, onsets: $0.2) })
    func patternTransientsFallOnTheSoundsOnsets(_ c: PatternCase) throws {
        let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent("Patterns/haptics/\(c.pattern).ahap")))
        let compiled = HapticCompiler.compile(try #require(HapticReader.read(bytes, file: c.pattern, options: .strict).pattern))
        let buffer = try SoundFile.read(Self.root.appendingPathComponent("Sounds/\(c.sound).opus").path)
        let mono = stride(from: 0, to: buffer.samples.count, by: buffer.channelCount).map { buffer.samples[$0] }
        for onset in c.onsets {
            let transient = try #require(compiled.transients.min { abs($0.time - onset) < abs($1.time - onset) })
            #expect(abs(transient.time - onset) < 0.002, "\(c.pattern): a transient at \(onset) s")
            let rise = Self.rise(mono, buffer.sampleRate, near: transient.time)
            #expect(rise >= 2, "\(c.pattern): \(c.sound) has no onset within 10 ms of \(transient.time) s (rise \(rise) dB)")
        }
    }
}

struct PatternCase: Sendable, CustomTestStringConvertible {
    var pattern: String, sound: String, onsets: [Double]
    var testDescription: String { "\(pattern) with \(sound)" }
}
