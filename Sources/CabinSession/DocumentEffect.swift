import CabinAudio

/// A bus effect as session documents name it: one key, used both in a bus object
/// (`"ambient": { "gain": -18, "lowpass": 8000 }`, its starting value) and as a cue verb
/// that moves it (`{ "at": "25m", "lowpass": "ambient", "to": 800, "over": "3s" }`).
///
/// In a document an effect is one number, its main parameter: the reader checks it against
/// `range` (a located error naming `unit`), the compiler builds the effect with `make` and
/// turns its cues into `setEffectParameter` commands for `parameter`.
///
/// Adding an effect to the format is one entry in `all` (next to the effect's own file in
/// CabinAudio); the reader, the writer, the compiler and seeking know it from here.
///
/// Thread: immutable values; any thread.
public struct DocumentEffect: Sendable {
    /// The key in bus objects and the cue verb: `lowpass`.
    public var key: String
    /// The number's unit, for messages: `Hz`.
    public var unit: String
    /// The values a document may give.
    public var range: ClosedRange<Double>
    /// The parameter (the effect's own index) that the number sets and cues move.
    public var parameter: Int
    /// The effect, starting at a value.
    public var make: @Sendable (Double) -> any BusEffectDescription

    public init(key: String, unit: String, range: ClosedRange<Double>, parameter: Int,
                make: @escaping @Sendable (Double) -> any BusEffectDescription) {
        self.key = key
        self.unit = unit
        self.range = range
        self.parameter = parameter
        self.make = make
    }

    /// Every effect a document may name, in the order a bus object's keys are written.
    public static let all: [DocumentEffect] = [
        DocumentEffect(key: "lowpass", unit: "Hz", range: LowPassEffect.lowestCutoff...LowPassEffect.openCutoff,
                       parameter: LowPassEffect.cutoffParameter) { LowPassEffect.Description(cutoff: $0) },
    ]

    /// The effect called `key`, if there is one.
    public static func named(_ key: String) -> DocumentEffect? { all.first { $0.key == key } }

    /// Every effect's key.
    static var keys: [String] { all.map(\.key) }
}
