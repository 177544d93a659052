import Foundation

/// The tests' own true-peak meter, independent of the limiter's detector: 4× oversampling
/// with a long (64 taps per phase) Blackman-windowed sinc.
enum TestTruePeak {
    static func decibels(_ channel: [Float]) -> Double {
        let half = 32
        var kernels: [[Double]] = []
        for p in 1...3 {
            let frac = Double(p) / 4
            var row: [Double] = []
            for j in (-half + 1)...half {
                let u = frac - Double(j)
                let sinc = sin(Double.pi * u) / (Double.pi * u)
                let x = (u + Double(half)) / Double(2 * half)  // 0…1 across the window
                let w = 0.42 - 0.5 * cos(2 * Double.pi * x) + 0.08 * cos(4 * Double.pi * x)
                row.append(sinc * w)
            }
            kernels.append(row)
        }
        var peak = 0.0
        for m in 0..<channel.count {
            peak = max(peak, abs(Double(channel[m])))
            guard m - half + 1 >= 0 && m + half < channel.count else { continue }
            for row in kernels {
                var s = 0.0
                for (k, c) in row.enumerated() { s += c * Double(channel[m - half + 1 + k]) }
                peak = max(peak, abs(s))
            }
        }
        return 20 * log10(peak)
    }
}
