import Glibc

/// A level or gain in decibels. `Decibels(-6).linearGain` ≈ 0.501.
///
/// A unit type, so that a gain in dB is never multiplied into samples by mistake.
public struct Decibels: Sendable, Hashable, Comparable, Codable, BitwiseCopyable,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, CustomStringConvertible
{
    /// The value in dB.
    public var value: Double

    /// A level of `value` dB (−∞ for silence).
    public init(_ value: Double) { self.value = value }
    /// A level written as a literal in dB: `let gain: Decibels = -6.5`.
    public init(floatLiteral value: Double) { self.value = value }
    /// A level written as a whole-number literal in dB: `let gain: Decibels = -6`.
    public init(integerLiteral value: Int) { self.value = Double(value) }

    /// The amplitude ratio, 10^(dB/20).
    @inlinable public var linearGain: Double { pow(10, value / 20) }

    /// The level of an amplitude ratio, 20·log10(ratio); −∞ for 0.
    public init(linearGain: Double) { self.value = 20 * log10(linearGain) }

    /// Silence, as far as gains go.
    public static let silence = Decibels(-.infinity)

    /// Whether `a` is the lower level.
    public static func < (a: Decibels, b: Decibels) -> Bool { a.value < b.value }
    /// The sum in dB: two gains applied one after the other (linear gains multiply).
    public static func + (a: Decibels, b: Decibels) -> Decibels { Decibels(a.value + b.value) }
    /// The difference in dB: `a` relative to `b` (linear gains divide).
    public static func - (a: Decibels, b: Decibels) -> Decibels { Decibels(a.value - b.value) }

    /// The level to one decimal, `-6.0 dB`; `-inf dB` for silence (any value not finite).
    public var description: String {
        value.isFinite ? String(cFormat: "%.1f dB", value) : "-inf dB"
    }
}

/// A frequency in hertz.
public typealias Hertz = Double

/// An instant on the engine's clock, in frames since the start of the session.
public typealias FrameTime = Int64
