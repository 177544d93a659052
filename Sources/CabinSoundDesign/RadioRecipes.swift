import CabinAudio
import Glibc

/// Radio beds beyond the `synth:` noises: a lo-fi loop, a nature bed and a slow pad.
/// Stereo, seamless (every note and event placed circularly), Ogg Opus.
public enum RadioRecipes {
    /// The radio recipes (`radio/…`), in library order.
    public static let all: [SoundRecipe] = [
        bed("radio/lofi", seed: 0xB101, "Lo-fi: electric piano ii–V–I–vi, soft drums, vinyl crackle (80 BPM, 8 bars)") { sr, r in
            LofiLoop.make(sampleRate: sr, random: &r)
        },
        bed("radio/nature", seed: 0xB201, "Nature: a babbling stream, songbirds, leaves in the breeze") { sr, r in
            nature(sampleRate: sr, random: &r)
        },
        bed("radio/pad", seed: 0xB301, "Slow instrumental pad: four swelling chords, 8 s each") { sr, r in
            pad(sampleRate: sr, random: &r)
        },
    ]

    static func bed(_ name: String, seed: UInt64, _ description: String,
                    _ make: @escaping @Sendable (Double, inout SeededRandom) -> StereoBed) -> SoundRecipe {
        SoundRecipe(name, .radio, loop: true, storage: .opus, seed: seed, description: description) { context in
            let bed = make(context.sampleRate, &context.random)
            return SoundFinish.buffer(bed.channels, sampleRate: context.sampleRate, peakDB: -4)
        }
    }

    /// A stream (hundreds of small bubbles: short sines gliding up as they resonate, over
    /// a band of rushing water), birds, and a soft breeze.
    static func nature(sampleRate sr: Double, random r: inout SeededRandom) -> StereoBed {
        var bed = StereoBed(frames: Int(40 * sr), sampleRate: sr)
        let n = bed.frames
        for _ in 0..<Int(40 * 70) {
            let f0 = r.uniform(350...1500)
            let tau = r.uniform(0.004...0.016)
            let length = Int(tau * 5 * sr)
            let amp = pow(r.unit(), 1.5) * 0.12
            var phase = 0.0
            let bubble = (0..<length).map { i -> Double in
                let t = Double(i) / sr
                phase += 2 * Double.pi * f0 * (1 + 0.12 * t / tau) / sr
                return amp * sin(phase) * exp(-t / tau) * min(1, t / 0.0008)
            }
            bed.add(bubble, at: r.int(0...(n - 1)), pan: r.uniform(-0.6...0.6))
        }
        let rush = Periodic.wander(frames: n, maxCycles: 6, random: &r)
        for side in 0..<2 {
            var water = Noise.pink(n, random: &r).filtered(.bandpass, 700, q: 0.5, sampleRate: sr, periodic: true)
            for i in 0..<n { water[i] *= 0.35 * (1 + 0.25 * rush[i]) }
            if side == 0 { bed.add(left: water, right: [Double](repeating: 0, count: n)) } else {
                bed.add(left: [Double](repeating: 0, count: n), right: water)
            }
        }
        AmbientTextures.birds(&bed, phrases: 16, level: 0.09, random: &r)
        AmbientTextures.wind(&bed, level: 0.04, low: 900, high: 2200, whistle: 0, random: &r)
        bed.filter(.lowpass, 8500)
        bed.filter(.highpass, 60)
        return bed
    }

    /// Four chords of detuned saws through slowly opening low-pass filters, each swelling
    /// in over 3 s and releasing into the next (the last releases into the first).
    static func pad(sampleRate sr: Double, random r: inout SeededRandom) -> StereoBed {
        let chordSeconds = 8.0
        let chords: [[Double]] = [[48, 55, 64, 71], [45, 52, 60, 67], [41, 48, 57, 64], [43, 50, 59, 66]]
        var bed = StereoBed(frames: Int(Double(chords.count) * chordSeconds * sr), sampleRate: sr)
        let noteSeconds = chordSeconds + 3.5
        let count = Int(noteSeconds * sr)
        for (c, chord) in chords.enumerated() {
            for note in chord {
                for (v, detune) in [-0.07, 0.06].enumerated() {
                    let f = Instruments.hertz(note + detune)
                    var tone = Instruments.saw(f, frames: count, phase: r.unit(), sampleRate: sr)
                    var lp = Biquad(.lowpass, frequency: 600, q: 0.8, sampleRate: sr)
                    for i in 0..<count {
                        let t = Double(i) / sr
                        if i % 64 == 0 {
                            let open = 500 + 900 * sin(Double.pi * min(1, t / noteSeconds))
                            lp.setCoefficients(.lowpass, frequency: open, q: 0.8, sampleRate: sr)
                        }
                        let env = SoundFinish.raisedCosine(t / 3) * SoundFinish.raisedCosine((noteSeconds - t) / 3.5)
                        tone[i] = lp.process(tone[i]) * env
                    }
                    bed.add(tone, at: Int(Double(c) * chordSeconds * sr), pan: v == 0 ? -0.5 : 0.5, gain: 0.12)
                }
            }
        }
        bed.filter(.highpass, 40)
        return bed
    }
}
