/// A mixing bus: a gain, a voice budget and its insert effects.
///
/// Thread: a plain value; build it on the control thread, before `MixerConfig.make()`.
public struct BusConfig: Sendable, Equatable {
    /// The name documents use ("engine", "ambient" …).
    public var name: String
    /// Bus gain.
    public var gain: Decibels
    /// Most voices that may sound at once on this bus (not counting voices fading out after
    /// being stolen). A new voice beyond it steals the oldest, quietest one.
    public var polyphony: Int
    /// Insert effects, in processing order (before the bus gain and ducking). Each `make()`
    /// builds them afresh; `setEffectParameter` names one by its position here.
    public var effects: [any BusEffectDescription]

    /// The voice budget of a bus that does not name one.
    public static let defaultPolyphony = 4

    /// A bus called `name` at `gain`, with room for `polyphony` voices (at least 1: a
    /// precondition) and `effects` in processing order.
    public init(name: String, gain: Decibels, polyphony: Int = BusConfig.defaultPolyphony, effects: [any BusEffectDescription] = []) {
        precondition(polyphony > 0, "a bus needs room for at least one voice")
        self.name = name
        self.gain = gain
        self.polyphony = polyphony
        self.effects = effects
    }

    /// Whether the two have the same name, gain, polyphony and effects (each effect equal
    /// to the one at its position, through `BusEffectDescription.isEqual(to:)`).
    public static func == (a: BusConfig, b: BusConfig) -> Bool {
        a.name == b.name && a.gain == b.gain && a.polyphony == b.polyphony && a.effects.count == b.effects.count
            && zip(a.effects, b.effects).allSatisfy { $0.isEqual(to: $1) }
    }
}

/// While any voice sounds on `when`, the `duck` buses move to `depth`, reaching it in
/// `attackDuration` seconds and returning in `releaseDuration` (ramps linear in dB).
/// Several rules on one bus multiply (their dB add). Depth is floored at −120 dB.
///
/// With a `band` the rule lowers only that band of the ducked buses: a bell cut whose
/// depth at the band's geometric centre follows the duck's ramp and whose edges (`band`'s
/// bounds) are at half that depth in dB; far outside the band the bus is untouched. It
/// is the parallel (Regalia–Mitra) form of a peaking filter, `x + (g − 1)·(x − A(x))/2`
/// with `A` a second-order all-pass, so the depth moves sample by sample with no
/// recomputed coefficients, and at 0 dB the bus passes bit for bit. A voice's own band
/// cleared this way (the engine's second harmonic, the radio's low mids) keeps the bed's
/// lows and air where they were.
///
/// Thread: a plain value; build it on the control thread, before `MixerConfig.make()`.
public struct DuckingRule: Sendable, Equatable {
    /// The bus whose voices trigger the rule.
    public var when: BusID
    /// The buses lowered while `when` sounds.
    public var duck: [BusID]
    /// The gain they move to, in dB (normally negative; floored at −120 dB).
    public var depth: Decibels
    /// Seconds to reach `depth` once a voice sounds on `when` (default 0.04).
    public var attackDuration: Double
    /// Seconds to return once `when` falls silent (default 0.6).
    public var releaseDuration: Double
    /// The band lowered, in Hz (nil: the whole bus). Clamped to 10 Hz … 0.45 × the rate.
    public var band: ClosedRange<Double>?

    /// A rule lowering `duck` by `depth` while `when` sounds, over the given seconds, in
    /// `band` (Hz) or, when nil, across the whole bus.
    public init(when: BusID, duck: [BusID], depth: Decibels,
                attackDuration: Double = 0.04, releaseDuration: Double = 0.6, band: ClosedRange<Double>? = nil) {
        self.when = when
        self.duck = duck
        self.depth = depth
        self.attackDuration = attackDuration
        self.releaseDuration = releaseDuration
        self.band = band
    }
}
