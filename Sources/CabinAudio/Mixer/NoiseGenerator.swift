/// Seeded noise: SplitMix64 for white noise, Paul Kellet's refined filter for pink, a
/// leaky integrator for brown; every colour normalised to `SoundSource.synthReferenceRMS`.
///
/// No Foundation randomness: the same seed gives the same samples on every machine and at
/// every block size.
///
/// Thread: a plain value inside a voice. Render thread: safe.
struct NoiseGenerator: BitwiseCopyable {
    private var state: UInt64
    private var b0: Float = 0, b1: Float = 0, b2: Float = 0, b3: Float = 0
    private var b4: Float = 0, b5: Float = 0, b6: Float = 0
    private var brown: Float = 0

    init(seed: UInt64) { state = seed }

    /// Uniform white in [−1, 1): RMS 1/√3.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func nextUniform() -> Float {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Float(Int32(truncatingIfNeeded: z >> 32)) * (1 / 2_147_483_648)
    }

    // Constants are computed properties, not `static let`: a lazily initialised global
    // takes a lock on first use, which could happen on the render thread.

    /// RMS of uniform white noise.
    static var uniformRMS: Float { 0.57735026918962576 }  // 1/√3
    static var whiteScale: Float { Float(SoundSource.synthRMSLinear) / uniformRMS }
    /// RMS of Kellet's filter fed with unit-variance white (√Σh², summed offline over its
    /// impulse response: 3.0525).
    static var pinkScale: Float { Float(SoundSource.synthRMSLinear) / (3.0525275463333412 * uniformRMS) }

    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func nextWhite() -> Float { nextUniform() * NoiseGenerator.whiteScale }

    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func nextPink() -> Float {
        let w = nextUniform()
        b0 = 0.99886 * b0 + w * 0.0555179
        b1 = 0.99332 * b1 + w * 0.0750759
        b2 = 0.96900 * b2 + w * 0.1538520
        b3 = 0.86650 * b3 + w * 0.3104856
        b4 = 0.55000 * b4 + w * 0.5329522
        b5 = -0.7616 * b5 - w * 0.0168980
        let pink = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w * 0.5362
        b6 = w * 0.115926
        return pink * NoiseGenerator.pinkScale
    }

    /// Brown noise: y = a·y + g·w. With white variance σ², var(y) = g²σ²/(1 − a²), so
    /// `BrownCoefficients` picks g for the reference RMS.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func nextBrown(_ c: BrownCoefficients) -> Float {
        brown = c.leak * brown + c.gain * nextUniform()
        return brown
    }
}

/// Leak and input gain of the brown-noise integrator at one sample rate: the leak corner is
/// 20 Hz (below it the spectrum flattens, so the level cannot wander off).
///
/// Thread: computed on the control thread when the mixer is made; read on the render thread.
struct BrownCoefficients: BitwiseCopyable {
    var leak: Float
    var gain: Float

    init(sampleRate: Double, corner: Double = 20) {
        let a = exp(-2 * Double.pi * corner / sampleRate)
        leak = Float(a)
        let sigma = Double(NoiseGenerator.uniformRMS)
        gain = Float((1 - a * a).squareRoot() * SoundSource.synthRMSLinear / sigma)
    }
}

import Glibc
