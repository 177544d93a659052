import CabinAudio
import CabinSoundDesign
import Foundation
import Testing

/// The FFT the rain texture is made with, and its slow modulators.
@Suite struct SpectralTests {
    /// The transform agrees with the DFT's definition, and the inverse brings the signal back.
    @Test func theFFTIsTheDFTAndInvertsExactly() {
        var r = SeededRandom(seed: 5)
        let n = 64
        let x = (0..<n).map { _ in r.bipolar() }
        let (re, im) = Spectral.spectrum(x)
        var worst = 0.0
        for k in 0..<n {
            var sr = 0.0, si = 0.0
            for t in 0..<n {
                let a = -2 * Double.pi * Double(k * t) / Double(n)
                sr += x[t] * cos(a); si += x[t] * sin(a)
            }
            worst = max(worst, abs(sr - re[k]), abs(si - im[k]))
        }
        #expect(worst < 1e-9, "\(worst)")
        let back = Spectral.signal(re, im)
        #expect(zip(back, x).map { abs($0 - $1) }.max()! < 1e-12)
    }

    /// A slow modulator: mean 0, standard deviation 1, and slow (its next sample nearly its last).
    @Test func slowNoiseIsUnitAndSmooth() {
        var r = SeededRandom(seed: 9)
        let s = Spectral.slowNoise(frames: 1 << 16, sampleRate: 48000, cutoff: 3, random: &r)
        let mean = s.reduce(0, +) / Double(s.count)
        let std = (s.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(s.count)).squareRoot()
        #expect(abs(mean) < 1e-9 && abs(std - 1) < 1e-9)
        let step = zip(s, s.dropFirst() + [s[0]]).map { abs($0 - $1) }.max()!
        #expect(step < 0.01, "\(step), the seam included")
    }

    /// Rain from the texture is periodic by construction: its loop leads into itself with no
    /// seam (the first sample continues from the last as any sample continues from the one
    /// before), and a seed renders the same samples.
    @Test func rainTextureIsSeamless() {
        var r = SeededRandom(seed: 0xA201)
        var bed = StereoBed(frames: 1 << 17, sampleRate: 48000)
        RainTexture.add(&bed, level: 0.25, random: &r)
        var again = SeededRandom(seed: 0xA201)
        var other = StereoBed(frames: 1 << 17, sampleRate: 48000)
        RainTexture.add(&other, level: 0.25, random: &again)
        #expect(bed.left == other.left && bed.right == other.right)
        let steps = zip(bed.left, bed.left.dropFirst()).map { abs($0 - $1) }
        let typical = steps.sorted()[steps.count / 2]
        let seam = abs(bed.left[0] - bed.left[bed.left.count - 1])
        #expect(seam < 20 * typical, "seam step \(seam) against a typical \(typical)")
    }
}
