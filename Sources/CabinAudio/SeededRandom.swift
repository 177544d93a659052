/// A small deterministic random source (SplitMix64): the same seed gives the same values on
/// every machine and every run. The generator never uses system randomness or the clock.
///
/// Thread: a value; each user (a recipe, a preset, a fuzz test) owns its own.
public struct SeededRandom: Sendable, RandomNumberGenerator {
    private var state: UInt64

    /// A source whose values are fixed by `seed` (any value; each seed its own sequence).
    public init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0) }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// Uniform in −1…1 (white noise).
    public mutating func bipolar() -> Double { unit() * 2 - 1 }

    /// An integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// Approximately Gaussian (sum of four uniforms), mean 0, standard deviation 1.
    public mutating func gaussian() -> Double {
        (unit() + unit() + unit() + unit() - 2) * 1.7320508
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A child source for an independent part of a sound (adding a part to a recipe does
    /// not shift the random numbers of the others).
    public func derived(_ salt: UInt64) -> SeededRandom {
        var copy = SeededRandom(seed: state ^ (salt &* 0xD6E8_FEB8_6659_FD93))
        _ = copy.next()
        return copy
    }
}
