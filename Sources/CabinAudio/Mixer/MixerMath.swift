/// `exp` and `sin` written in Swift for the render path.
///
/// Why not Foundation's: those are C library calls, which the compiler's `@_noAllocation`
/// / `@_noLocks` checks cannot see into (it rejects them as "not available in this
/// module"). These are exact to about 1e-13 (exp) and 1e-9 (sine) — far below a Float
/// sample's resolution — and give the same bits on every run. Polynomials are evaluated
/// with Estrin's scheme (pairs, then powers of r²) rather than Horner's, so the multiplies
/// overlap instead of waiting on each other: this roughly halves their cost per sample.
///
/// Public so that other render code (haptic-to-audio synthesis, say) can use them too.
///
/// Thread: pure functions; any thread. Render thread: safe.
public enum MixerMath {
    /// e^x. Range reduction x = k·ln2 + r with |r| ≤ ln2/2, then a degree-10 Taylor
    /// polynomial for e^r (error < 3e-13) and an exact power of two for 2^k. 0 below −708.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public static func exp(_ x: Double) -> Double {
        if x < -708 { return 0 }
        if x > 709 { return .infinity }
        let scaled = x * 1.4426950408889634  // 1/ln 2
        let k = Double(Int(scaled >= 0 ? scaled + 0.5 : scaled - 0.5))  // nearest
        let r = (x - k * 0.6931471803691238) - k * 1.9082149292705877e-10  // ln 2, hi + lo
        let r2 = r * r, r4 = r2 * r2
        let a = 1 + r, b = 0.5 + r * (1.0 / 6)
        let c = (1.0 / 24 + r * (1.0 / 120)) + r2 * (1.0 / 720 + r * (1.0 / 5_040))
        let d = (1.0 / 40_320 + r * (1.0 / 362_880)) + r2 * (1.0 / 3_628_800)
        let p = (a + r2 * b) + r4 * (c + r4 * d)
        // 2^k, split in two factors so that k down to −1074 stays representable.
        let half = Int(k) / 2
        let scale1 = Double(bitPattern: UInt64(1023 + half) << 52)
        let scale2 = Double(bitPattern: UInt64(1023 + Int(k) - half) << 52)
        return p * scale1 * scale2
    }

    /// `exp` on four lanes: the same operations in the same order on each lane, so each
    /// result equals the scalar `exp` of its lane, bit for bit (tested).
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public static func exp(_ x: SIMD4<Double>) -> SIMD4<Double> {
        typealias V = SIMD4<Double>
        let scaled: V = x * 1.4426950408889634
        let up: V = scaled + 0.5, down: V = scaled - 0.5
        let nearest: V = up.replacing(with: down, where: scaled .< 0)
        let bounded: V = nearest.clamped(lowerBound: V(repeating: -2000), upperBound: V(repeating: 2000))
        let ki = SIMD4<Int64>(Int64(bounded[0]), Int64(bounded[1]), Int64(bounded[2]), Int64(bounded[3]))  // toward zero
        let k = V(ki)
        let khi: V = k * 0.6931471803691238, klo: V = k * 1.9082149292705877e-10
        let r: V = (x - khi) - klo
        let r2: V = r * r
        let r4: V = r2 * r2
        let a: V = 1 + r
        let b: V = 0.5 + r * (1.0 / 6)
        let c1: V = 1.0 / 24 + r * (1.0 / 120)
        let c2: V = 1.0 / 720 + r * (1.0 / 5_040)
        let c: V = c1 + r2 * c2
        let d1: V = 1.0 / 40_320 + r * (1.0 / 362_880)
        let d: V = d1 + r2 * (1.0 / 3_628_800)
        let low: V = a + r2 * b
        let high: V = c + r4 * d
        let p: V = low + r4 * high
        let half: SIMD4<Int64> = ki / 2
        let bits1: SIMD4<Int64> = (half &+ 1023) &<< 52
        let bits2: SIMD4<Int64> = (ki &- half &+ 1023) &<< 52
        let scale1 = unsafeBitCast(bits1, to: V.self), scale2 = unsafeBitCast(bits2, to: V.self)
        var result: V = p * scale1
        result = result * scale2
        result.replace(with: V(repeating: 0), where: x .< -708)
        result.replace(with: V(repeating: .infinity), where: x .> 709)
        return result
    }

    /// 10^(dB/20).
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public static func gain(decibels: Double) -> Double { exp(decibels * 0.11512925464970229) }

    /// sin(x) for 0 ≤ x < 2π (the oscillators' phase range): folded to [−π/2, π/2], then an
    /// odd Taylor polynomial to x¹⁵.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public static func sine(_ phase: Double) -> Double {
        var x = phase
        if x > Double.pi { x -= 2 * Double.pi }  // now −π … π
        if x > Double.pi / 2 { x = Double.pi - x } else if x < -Double.pi / 2 { x = -Double.pi - x }
        let z = x * x, z2 = z * z, z4 = z2 * z2
        let low = (1 - z * (1.0 / 6)) + z2 * (1.0 / 120 - z * (1.0 / 5_040))
        let high = (1.0 / 362_880 - z * (1.0 / 39_916_800)) + z2 * (1.0 / 6_227_020_800 - z * (1.0 / 1_307_674_368_000))
        return (low + z4 * high) * x
    }

    /// ln(x) for x > 0 (−∞ at 0, +∞ at +∞, NaN below 0 or for NaN). x = m·2^e with m in
    /// [√½, √2); ln m = 2·atanh(s) with s = (m − 1)/(m + 1), |s| ≤ 0.172, by its odd series
    /// to s²¹ (error below 1e-16 relative).
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public static func log(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return x == 0 ? -.infinity : x == .infinity ? .infinity : .nan }
        var m = x.significand
        var e = Double(x.exponent)
        if m >= 1.4142135623730951 { m *= 0.5; e += 1 }
        let s = (m - 1) / (m + 1), z = s * s
        var p = 1.0 / 21
        p = p * z + 1.0 / 19; p = p * z + 1.0 / 17; p = p * z + 1.0 / 15; p = p * z + 1.0 / 13
        p = p * z + 1.0 / 11; p = p * z + 1.0 / 9; p = p * z + 1.0 / 7; p = p * z + 1.0 / 5
        p = p * z + 1.0 / 3; p = p * z + 1
        return e * 0.6931471805599453 + 2 * s * p
    }
}
