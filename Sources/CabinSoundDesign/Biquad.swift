import Glibc

/// A second-order IIR filter (RBJ cookbook), transposed direct form II, in Double.
///
/// Thread: a value; used while rendering a recipe (not the real-time mixer).
public struct Biquad: Sendable {
    var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    var z1 = 0.0, z2 = 0.0

    public enum Kind: Sendable { case lowpass, highpass, bandpass, peak(gainDB: Double), lowShelf(gainDB: Double), highShelf(gainDB: Double) }

    public init(_ kind: Kind, frequency: Double, q: Double = 0.7071, sampleRate: Double) {
        setCoefficients(kind, frequency: frequency, q: q, sampleRate: sampleRate)
    }

    /// Changes the response without clearing the state (for slow sweeps).
    public mutating func setCoefficients(_ kind: Kind, frequency: Double, q: Double, sampleRate: Double) {
        let f = min(max(frequency, 5), sampleRate * 0.45)
        let w = 2 * Double.pi * f / sampleRate
        let cw = cos(w), sw = sin(w)
        let alpha = sw / (2 * q)
        var nb0 = 0.0, nb1 = 0.0, nb2 = 0.0, na0 = 1.0, na1 = 0.0, na2 = 0.0
        switch kind {
        case .lowpass:
            nb0 = (1 - cw) / 2; nb1 = 1 - cw; nb2 = (1 - cw) / 2
            na0 = 1 + alpha; na1 = -2 * cw; na2 = 1 - alpha
        case .highpass:
            nb0 = (1 + cw) / 2; nb1 = -(1 + cw); nb2 = (1 + cw) / 2
            na0 = 1 + alpha; na1 = -2 * cw; na2 = 1 - alpha
        case .bandpass: // 0 dB peak gain
            nb0 = alpha; nb1 = 0; nb2 = -alpha
            na0 = 1 + alpha; na1 = -2 * cw; na2 = 1 - alpha
        case .peak(let g):
            let a = pow(10, g / 40)
            nb0 = 1 + alpha * a; nb1 = -2 * cw; nb2 = 1 - alpha * a
            na0 = 1 + alpha / a; na1 = -2 * cw; na2 = 1 - alpha / a
        case .lowShelf(let g), .highShelf(let g):
            let a = pow(10, g / 40)
            let s = 2 * a.squareRoot() * alpha
            let sign: Double = if case .lowShelf = kind { 1 } else { -1 }
            nb0 = a * ((a + 1) - sign * (a - 1) * cw + s)
            nb1 = sign * 2 * a * ((a - 1) - sign * (a + 1) * cw)
            nb2 = a * ((a + 1) - sign * (a - 1) * cw - s)
            na0 = (a + 1) + sign * (a - 1) * cw + s
            na1 = -sign * 2 * ((a - 1) + sign * (a + 1) * cw)
            na2 = (a + 1) + sign * (a - 1) * cw - s
        }
        b0 = nb0 / na0; b1 = nb1 / na0; b2 = nb2 / na0; a1 = na1 / na0; a2 = na2 / na0
    }

    @inline(__always) public mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// Filters `samples` in place.
    public mutating func process(_ samples: inout [Double]) {
        for i in samples.indices { samples[i] = process(samples[i]) }
    }
}

/// A one-pole lowpass (smoothing, gentle tone).
public struct OnePole: Sendable {
    var a = 0.0, y = 0.0
    public init(cutoff: Double, sampleRate: Double) { a = exp(-2 * Double.pi * cutoff / sampleRate) }
    @inline(__always) public mutating func process(_ x: Double) -> Double {
        y = x + a * (y - x)
        return y
    }
}
