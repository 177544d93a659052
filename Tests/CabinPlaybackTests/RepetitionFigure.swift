import Glibc

/// Issue 13's repetition figure, as `scripts/repetition` computes it, at a lower rate so the
/// tests can afford it: the stereo render summed to mono and averaged down to `rate`, 4 s
/// windows every 2 s, each correlated (by FFT) with every shift from 3 s to 300 s of the
/// rest, divided by both windows' norms; windows 60 dB under the loudest are skipped.
/// 1.0 is an exact repeat; independent noise is near 0. The script's 8 kHz figure is the
/// one the issue quotes (and the report gives); a repeat shows at any rate.
enum RepetitionFigure {
    struct Result {
        var figure: Double
        var lag: Double
        var at: Double
    }

    /// The figure at a loop's length (or a multiple of it, within 0.25 s) and at every other
    /// lag (more than 1 s from any of them): a loop a listener can find shows at its length
    /// (issue 27 asks for the two within 0.05).
    struct AtLoops {
        var atLoop: Result
        var elsewhere: Result
    }

    static func measure(interleaved x: [Float], sampleRate: Double, rate: Double = 2000) -> Result {
        measure(mono: mono(x, sampleRate: sampleRate, rate: rate), rate: rate)
    }

    static func measure(interleaved x: [Float], sampleRate: Double, rate: Double = 2000, loops: [Double]) -> AtLoops {
        var near = Result(figure: 0, lag: 0, at: 0), far = near
        _ = measure(mono: mono(x, sampleRate: sampleRate, rate: rate), rate: rate) { lag, r, at in
            let isNear = loops.contains { loop in
                let m = (lag / loop).rounded()
                return m >= 1 && abs(lag - m * loop) <= 0.25
            }
            let isFar = !loops.contains { loop in
                let m = (lag / loop).rounded()
                return m >= 1 && abs(lag - m * loop) <= 1
            }
            if isNear && r > near.figure { near = Result(figure: r, lag: lag, at: at) }
            if isFar && r > far.figure { far = Result(figure: r, lag: lag, at: at) }
        }
        return AtLoops(atLoop: near, elsewhere: far)
    }

    static func mono(_ x: [Float], sampleRate: Double, rate: Double) -> [Double] {
        let factor = Int(sampleRate / rate)
        let n = x.count / 2 / factor
        var mono = [Double](repeating: 0, count: n)
        for i in 0..<n {
            var s = 0.0
            for k in 0..<factor { s += Double(x[2 * (i * factor + k)]) + Double(x[2 * (i * factor + k) + 1]) }
            mono[i] = s / Double(factor)
        }
        return mono
    }

    /// `each`, if given, sees every (lag in seconds, figure, window start in seconds).
    static func measure(mono x: [Double], rate: Double, each: ((Double, Double, Double) -> Void)? = nil) -> Result {
        let w = Int(4 * rate), step = Int(2 * rate), lo = Int(3 * rate), hi = Int(300 * rate)
        guard x.count > w + lo else { return Result(figure: 0, lag: 0, at: 0) }
        var c2 = [Double](repeating: 0, count: x.count + 1)
        for i in 0..<x.count { c2[i + 1] = c2[i] + x[i] * x[i] }
        let starts = Array(stride(from: 0, to: x.count - w, by: step))
        let energy = starts.map { c2[$0 + w] - c2[$0] }
        let floor = (energy.max() ?? 0) * 1e-6
        var size = 1
        while size < x.count + w { size <<= 1 }
        var (sr, si) = fft(x + [Double](repeating: 0, count: size - x.count), [Double](repeating: 0, count: size))
        _ = si
        var best = Result(figure: 0, lag: 0, at: 0)
        for (k, start) in starts.enumerated() where energy[k] > floor && x.count - w - start >= lo {
            var a = [Double](repeating: 0, count: size)
            for i in 0..<w { a[i] = x[start + i] }
            let (ar, ai) = fft(a, [Double](repeating: 0, count: size))
            // Cross-correlation: X · conj(A), inverse.
            var pr = [Double](repeating: 0, count: size), pi = pr
            for i in 0..<size {
                pr[i] = sr[i] * ar[i] + si[i] * ai[i]
                pi[i] = si[i] * ar[i] - sr[i] * ai[i]
            }
            let (cr, _) = fft(pr, pi.map { -$0 })  // inverse by conjugation
            for lag in lo...min(hi, x.count - w - start) {
                let at = start + lag
                let norm = c2[at + w] - c2[at]
                guard norm > floor else { continue }
                let r = cr[at] / Double(size) / (energy[k] * norm).squareRoot()
                if r > best.figure { best = Result(figure: r, lag: Double(lag) / rate, at: Double(start) / rate) }
                each?(Double(lag) / rate, r, Double(start) / rate)
            }
        }
        sr = []
        return best
    }

    /// Radix-2 complex FFT (iterative, in place on copies); `re.count` a power of two.
    static func fft(_ re: [Double], _ im: [Double]) -> ([Double], [Double]) {
        var re = re, im = im
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { re.swapAt(i, j); im.swapAt(i, j) }
        }
        var length = 2
        while length <= n {
            let angle = -2 * Double.pi / Double(length)
            let wr = cos(angle), wi = sin(angle)
            var start = 0
            while start < n {
                var cr = 1.0, ci = 0.0
                for k in 0..<(length / 2) {
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * cr - im[b] * ci, ti = re[b] * ci + im[b] * cr
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                    let next = cr * wr - ci * wi
                    ci = cr * wi + ci * wr
                    cr = next
                }
                start += length
            }
            length <<= 1
        }
        return (re, im)
    }
}
