import CabinAudio
import Glibc

/// Loops made in the frequency domain: a discrete Fourier transform of the whole loop is
/// periodic by definition, so noise shaped there (any colour, exactly) has no seam at all.
///
/// Thread: pure functions; any thread except the render thread.
public enum Spectral {
    /// An in-place radix-2 complex FFT (`re`, `im` of a power-of-two length); `inverse`
    /// without the 1/n scale. (`FFT.transform`, CabinAudio's, which onset detection shares.)
    public static func fft(_ re: inout [Double], _ im: inout [Double], inverse: Bool = false) {
        FFT.transform(&re, &im, inverse: inverse)
    }

    /// The spectrum of a real signal (power-of-two length).
    public static func spectrum(_ x: [Double]) -> (re: [Double], im: [Double]) {
        var re = x, im = [Double](repeating: 0, count: x.count)
        fft(&re, &im)
        return (re, im)
    }

    /// The real signal of a (Hermitian) spectrum: the inverse transform's real part, scaled 1/n.
    public static func signal(_ re: [Double], _ im: [Double]) -> [Double] {
        var r = re, i = im
        fft(&r, &i, inverse: true)
        let scale = 1 / Double(r.count)
        return r.map { $0 * scale }
    }

    /// The bin frequencies' gains `gain(f)` (f in Hz, 0 … Nyquist), mirrored for the
    /// negative frequencies, so a real signal stays real.
    public static func gains(frames n: Int, sampleRate: Double, _ gain: (Double) -> Double) -> [Double] {
        var g = [Double](repeating: 0, count: n)
        for k in 0...(n / 2) {
            let v = gain(Double(k) * sampleRate / Double(n))
            g[k] = v
            if k > 0 && k < n - k { g[n - k] = v }
        }
        return g
    }

    /// A smooth periodic modulator of mean 0 and standard deviation 1: Gaussian noise whose
    /// spectrum falls as a Gaussian of `cutoff` Hz (its standard deviation in frequency).
    public static func slowNoise(frames n: Int, sampleRate: Double, cutoff: Double, random: inout SeededRandom) -> [Double] {
        var re = [Double](repeating: 0, count: n), im = re
        let top = min(n / 2 - 1, Int(5 * cutoff * Double(n) / sampleRate) + 1)
        for k in 1...max(1, top) {
            let f = Double(k) * sampleRate / Double(n)
            let w = exp(-0.5 * (f / cutoff) * (f / cutoff))
            let a = random.normal() * w, b = random.normal() * w
            re[k] = a; im[k] = b
            re[n - k] = a; im[n - k] = -b
        }
        let s = signal(re, im)
        let mean = s.reduce(0, +) / Double(n)
        let std = (s.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n)).squareRoot()
        return s.map { std > 0 ? ($0 - mean) / std : 0 }
    }
}

extension SeededRandom {
    /// A standard normal variable (Box–Muller; `gaussian()` is a sum of four uniforms, whose
    /// tails stop at ±3.5).
    public mutating func normal() -> Double {
        let u = 1 - unit(), v = unit()
        return (-2 * Glibc.log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
