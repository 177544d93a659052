import Glibc

/// A second-order IIR filter (RBJ cookbook), transposed direct form II, in Double.
///
/// Two ways to set its response:
/// - `init(_:frequency:q:sampleRate:)` and `setCoefficients(_:frequency:q:sampleRate:)`, every
///   kind, through the C library's `cos`, `sin` and `pow` (the sound library's recipes);
/// - `setLowPass(frequency:q:sampleRate:)`, through `MixerMath` only, so the render path may
///   call it (the bus low-pass moves its cutoff with it, sample by sample).
///
/// Thread: a value. `process` and `setLowPass` are render-thread safe; `setCoefficients`
/// calls the C library (recipes, control side).
public struct Biquad: Sendable {
    @usableFromInline var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    @usableFromInline var z1 = 0.0, z2 = 0.0

    /// The cookbook responses; `frequency` is the cutoff, centre or shelf corner frequency.
    public enum Kind: Sendable {
        /// Passes below the cutoff (−3 dB there at `q` 0.7071).
        case lowpass
        /// Passes above the cutoff.
        case highpass
        /// Passes a band around the centre, 0 dB at its peak; `q` sets its width.
        case bandpass
        /// A bell at the centre, `gainDB` (dB; negative cuts); `q` sets its width.
        case peak(gainDB: Double)
        /// Moves everything below the corner by `gainDB` (dB).
        case lowShelf(gainDB: Double)
        /// Moves everything above the corner by `gainDB` (dB).
        case highShelf(gainDB: Double)
    }

    /// A filter that passes its input unchanged (set a response before using it).
    public init() {}

    /// A filter of `kind` at `frequency` Hz (clamped to 5 Hz … 0.45 × `sampleRate`) with
    /// quality `q`, for samples at `sampleRate`; its state starts at rest.
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

    /// A low-pass response (the cookbook's), computed with `MixerMath` instead of the C
    /// library: `frequency` is clamped to 5 Hz … 0.45 × `sampleRate`. 1 − cos ω is formed as
    /// 2 sin²(ω/2), exact at low cutoffs. Keeps the state.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public mutating func setLowPass(frequency: Double, q: Double, sampleRate: Double) {
        let f = min(max(frequency, 5), sampleRate * 0.45)
        let w = 2 * Double.pi * f / sampleRate  // 0 < ω ≤ 0.9π
        let half = MixerMath.sine(w / 2)
        let oneMinusCos = 2 * half * half
        let alpha = MixerMath.sine(w) / (2 * q)
        let a0 = 1 + alpha
        b1 = oneMinusCos / a0
        b0 = b1 / 2
        b2 = b0
        a1 = -2 * (1 - oneMinusCos) / a0
        a2 = (1 - alpha) / a0
    }

    /// The second-order all-pass `(−c + d z⁻¹ + z⁻²) / (1 + d z⁻¹ − c z⁻²)` (the band
    /// duck's, `DuckingRule`). Keeps the state. Control side.
    mutating func setAllPass(c: Double, d: Double) {
        (b0, b1, b2, a1, a2) = (-c, d, 1, d, -c)
    }

    /// Filters one sample and returns the output. Render thread: safe.
    @inlinable @inline(__always) public mutating func process(_ x: Double) -> Double {
        let y = b0 * x + z1
        z1 = b1 * x - a1 * y + z2
        z2 = b2 * x - a2 * y
        return y
    }

    /// Filters `samples` in place.
    @inlinable public mutating func process(_ samples: inout [Double]) {
        for i in samples.indices { samples[i] = process(samples[i]) }
    }

    /// Whether the state holds anything (a tail still rings out of silence).
    ///
    /// Render thread: safe.
    @inline(__always) public var hasState: Bool { z1 != 0 || z2 != 0 }

    /// Sets a state below `threshold` to exactly zero, so a tail ends in true silence
    /// rather than ringing in denormals.
    ///
    /// Render thread: safe.
    @inline(__always) public mutating func flush(below threshold: Double) {
        if abs(z1) < threshold && abs(z2) < threshold { z1 = 0; z2 = 0 }
    }

    /// Takes `other`'s response (coefficients), keeping this filter's state.
    ///
    /// Render thread: safe.
    @inline(__always) mutating func takeResponse(of other: Biquad) {
        (b0, b1, b2, a1, a2) = (other.b0, other.b1, other.b2, other.a1, other.a2)
    }

    /// Clears the state (the coefficients stay).
    ///
    /// Render thread: safe.
    public mutating func reset() { z1 = 0; z2 = 0 }
}
