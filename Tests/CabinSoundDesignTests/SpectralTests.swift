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

    /// A texture into a short loop, twice from the same seed: the same samples both times.
    static func seamless(_ name: String, _ add: (inout StereoBed, inout SeededRandom) -> Void) {
        var r = SeededRandom(seed: 0xA201)
        var bed = StereoBed(frames: 1 << 17, sampleRate: 48000)
        add(&bed, &r)
        var again = SeededRandom(seed: 0xA201)
        var other = StereoBed(frames: 1 << 17, sampleRate: 48000)
        add(&other, &again)
        #expect(bed.left == other.left && bed.right == other.right, "\(name): a seed renders the same samples")
        // The seam's step against the typical (median) step within 50 ms either side of it: a
        // chirp that happens to span the seam steps as far at every sample.
        for channel in bed.channels {
            let around = Array(channel.suffix(2400) + channel.prefix(2400))
            let steps = zip(around, around.dropFirst()).map { abs($0 - $1) }
            let typical = steps.sorted()[steps.count / 2]
            let seam = abs(channel[0] - channel[channel.count - 1])
            #expect(seam < 20 * typical, "\(name): seam step \(seam) against a typical \(typical)")
        }
    }

    /// Rain from the texture is periodic by construction: its loop leads into itself with no
    /// seam (the first sample continues from the last as any sample continues from the one
    /// before), and a seed renders the same samples.
    @Test func rainTextureIsSeamless() {
        Self.seamless("rain") { RainTexture.add(&$0, level: 0.25, random: &$1) }
    }

    /// So are the outdoor beds' textures, whose bursts, chirps and gaps wrap around the loop.
    @Test(arguments: [("wind", SceneTextures.wind), ("city", SceneTextures.city), ("night", SceneTextures.night)])
    func sceneTexturesAreSeamless(name: String, texture: SoundTexture) {
        Self.seamless(name) { texture.add(to: &$0, level: 0.25, random: &$1) }
    }
}
