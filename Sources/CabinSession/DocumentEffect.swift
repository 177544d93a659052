import CabinAudio

/// The bus effects session documents may name: each effect's own declaration
/// (`BusEffectDeclaration`, in its file in CabinAudio), listed once here.
///
/// In a document an effect is its key in a bus object, either a number for its main
/// parameter (`"lowpass": 8000`) or an object of named parameters
/// (`"compressor": { "threshold": -20, "ratio": 3, "attack": "5ms" }`, the rest at their
/// defaults); and a cue verb that moves one parameter
/// (`{ "at": "25m", "lowpass": "ambient", "to": 800, "over": "3s" }`, the main one, or with
/// `"parameter": "threshold"`). The reader checks every value against its parameter's
/// declared range and unit, the writer writes it back, the compiler builds the effect with
/// `make` and turns cues into `setEffectParameter` commands, seeking and the plot follow —
/// all from the declaration.
///
/// Adding an effect to the format is its file in `Sources/CabinAudio/Effects/` (the effect,
/// its description and its `declaration`) and one entry in `all`.
///
/// Thread: immutable values; any thread.
public enum DocumentEffect {
    /// Every effect a document may name, in the order a bus object's keys are written.
    public static let all: [BusEffectDeclaration] = [
        LowPassEffect.declaration,
        CompressorEffect.declaration,
    ]

    /// The effect called `key`, if there is one.
    public static func named(_ key: String) -> BusEffectDeclaration? { all.first { $0.key == key } }

    /// Every effect's key.
    static var keys: [String] { all.map(\.key) }
}
