import Glibc

/// Volume as people type it, as mpv takes it: a percentage (`80`, `80%`; mpv's cubic
/// curve, so 50 % is −18 dB and 100 % is 0 dB) or decibels (`-6dB`); `mute`/`0` is silence.
public enum VolumeLevel {
    /// The most: 130 % (mpv's `volume-max`), +6.8 dB.
    public static let maximum = Decibels(60 * log10(1.3))

    /// The least above silence: −200 dB (0.046 %). Every volume — an option, the config,
    /// the control socket, the state file — is −∞ (mute) or within `minimum … maximum`.
    public static let minimum = Decibels(-200)

    /// Whether `level` is a volume: −∞, or `minimum … maximum`.
    public static func contains(_ level: Decibels) -> Bool {
        level.value == -.infinity || (level.value >= minimum.value - 1e-9 && level.value <= maximum.value + 1e-9)
    }

    /// `level` brought into the range (NaN as 0 dB); −∞ stays silence.
    public static func clamped(_ level: Decibels) -> Decibels {
        guard !level.value.isNaN else { return Decibels(0) }
        return level.value == -.infinity ? .silence : Decibels(min(maximum.value, max(minimum.value, level.value)))
    }

    /// The level `text` means, or nil when it is not a volume.
    public static func parse(_ text: String) -> Decibels? {
        let t = text.trimmingWhitespace().lowercased()
        if t.hasSuffix("db") {
            guard let db = Double(t.dropLast(2).trimmingWhitespace()), !db.isNaN, contains(Decibels(db)) else { return nil }
            return Decibels(db)
        }
        let number = t.hasSuffix("%") ? String(t.dropLast()) : t
        guard let percent = Double(number.trimmingWhitespace()) else { return nil }
        return fromPercent(percent)
    }

    /// mpv's curve: gain = (percent / 100)³. Nil outside 0…130, and for a percentage so small
    /// (above 0, below 0.046 %) that it is under `minimum`.
    public static func fromPercent(_ percent: Double) -> Decibels? {
        guard percent.isFinite, percent >= 0, percent <= 130 + 1e-9 else { return nil }
        if percent == 0 { return .silence }
        let level = Decibels(60 * log10(percent / 100))
        return contains(level) ? level : nil
    }

    /// The percentage of a level (mpv's curve).
    public static func percent(_ level: Decibels) -> Double {
        level.value == -.infinity ? 0 : 100 * pow(10, level.value / 60)
    }

    /// The rule, for messages.
    public static let rule = "a volume is a percentage 0–130 (80 or 80%) or decibels from -200 to +6.8 (-6dB; -inf dB mutes)"
}
