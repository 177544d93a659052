import Glibc

/// The discrete Fourier transform, for the pure cores that analyse or make sound
/// (`Spectral`'s loops in CabinSoundDesign, `OnsetDetector` here).
///
/// Thread: pure functions; any thread except the render thread (allocates).
public enum FFT {
    /// An in-place radix-2 complex FFT (`re`, `im` of a power-of-two length); `inverse`
    /// without the 1/n scale.
    public static func transform(_ re: inout [Double], _ im: inout [Double], inverse: Bool = false) {
        let n = re.count
        precondition(n == im.count && n > 0 && n & (n - 1) == 0, "a power-of-two length")
        var j = 0
        if n > 1 {
            for i in 1..<n {   // bit-reversed order
                var bit = n >> 1
                while j & bit != 0 { j ^= bit; bit >>= 1 }
                j ^= bit
                if i < j { re.swapAt(i, j); im.swapAt(i, j) }
            }
        }
        let sign = inverse ? 1.0 : -1.0
        var size = 2
        while size <= n {
            let half = size / 2
            // The stage's twiddles, each from sin/cos (no drift from a recurrence).
            var wr = [Double](repeating: 0, count: half), wi = wr
            for k in 0..<half {
                let a = sign * 2 * Double.pi * Double(k) / Double(size)
                wr[k] = cos(a)
                wi[k] = sin(a)
            }
            var start = 0
            while start < n {
                for k in 0..<half {
                    let a = start + k, b = a + half
                    let tr = re[b] * wr[k] - im[b] * wi[k]
                    let ti = re[b] * wi[k] + im[b] * wr[k]
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
                start += size
            }
            size <<= 1
        }
    }
}
