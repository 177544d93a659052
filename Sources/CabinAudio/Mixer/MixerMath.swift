/// `exp` and `sin` written in Swift for the render path.
///
/// Why not Foundation's: those are C library calls, which the compiler's `@_noAllocation`
/// / `@_noLocks` checks cannot see into (it rejects them as "not available in this
/// module"). These are exact to about 1e-15 (exp) and 1e-9 (sine) — far below a Float
/// sample's resolution — and give the same bits on every run.
///
/// Thread: pure functions. Render thread: safe.
enum MixerMath {
    /// e^x. Range reduction x = k·ln2 + r with |r| ≤ ln2/2, then a degree-12 Taylor
    /// polynomial for e^r and an exact power of two for 2^k. 0 below −708.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    static func exp(_ x: Double) -> Double {
        if x < -708 { return 0 }
        if x > 709 { return .infinity }
        let scaled = x * 1.4426950408889634  // 1/ln 2
        let k = Double(Int(scaled >= 0 ? scaled + 0.5 : scaled - 0.5))  // nearest
        let r = (x - k * 0.6931471803691238) - k * 1.9082149292705877e-10  // ln 2, hi + lo
        var p = 1.0 / 479_001_600  // 1/12!
        p = p * r + 1.0 / 39_916_800
        p = p * r + 1.0 / 3_628_800
        p = p * r + 1.0 / 362_880
        p = p * r + 1.0 / 40_320
        p = p * r + 1.0 / 5_040
        p = p * r + 1.0 / 720
        p = p * r + 1.0 / 120
        p = p * r + 1.0 / 24
        p = p * r + 1.0 / 6
        p = p * r + 0.5
        p = p * r + 1
        p = p * r + 1
        // 2^k, split in two factors so that k down to −1074 stays representable.
        let half = Int(k) / 2
        let a = Double(bitPattern: UInt64(1023 + half) << 52)
        let b = Double(bitPattern: UInt64(1023 + Int(k) - half) << 52)
        return p * a * b
    }

    /// 10^(dB/20).
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    static func gain(decibels: Double) -> Double { exp(decibels * 0.11512925464970229) }

    /// sin(x) for 0 ≤ x < 2π (the oscillators' phase range): folded to [−π/2, π/2], then an
    /// odd Taylor polynomial to x¹⁵.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    static func sine(_ phase: Double) -> Double {
        var x = phase
        if x > Double.pi { x -= 2 * Double.pi }  // now −π … π
        if x > Double.pi / 2 { x = Double.pi - x } else if x < -Double.pi / 2 { x = -Double.pi - x }
        let x2 = x * x
        var p = -1.0 / 1_307_674_368_000  // −1/15!
        p = p * x2 + 1.0 / 6_227_020_800
        p = p * x2 - 1.0 / 39_916_800
        p = p * x2 + 1.0 / 362_880
        p = p * x2 - 1.0 / 5_040
        p = p * x2 + 1.0 / 120
        p = p * x2 - 1.0 / 6
        p = p * x2 + 1
        return p * x
    }
}
