/// A layer whose source is a haptic pattern (`"road": { "haptic": "road-smooth", "loop": true,
/// "intensity": { "parameter": "speed", "map": [[0, 0], [65, 0.5]] } }`): started, stopped
/// and crossfaded by cues like a sound layer, felt on rumble devices and in the haptic track.
///
/// - `intensity` maps a parameter to a factor 0…1 on the pattern's intensity (the layer's
///   `gainMap`); without it the pattern plays as designed (× 1).
/// - `sharpness` maps a parameter to an offset −1…1 added to the pattern's sharpness, then
///   clamped to 0…1 (as Core Haptics' `HapticSharpnessControl`).
/// - Several layers and the haptic cues sounding at once combine as Core Haptics combines
///   players: intensities add (clipped to 1), sharpness is their intensity-weighted mean.
///
/// Thread: a value type; any thread.
public struct HapticLayer: Sendable, Equatable {
    /// The layer's name: its key in the document's `layers`, what cues start and stop.
    public var name: String
    /// The pattern: a library name or a file relative to the document (`HapticReference`).
    public var pattern: String
    /// Whether the pattern repeats from its start when it ends (the layer's `loop`).
    public var isLooping: Bool
    /// The parameter map giving the factor 0…1 on intensity (nil: × 1).
    public var intensity: LayerMap?
    /// The parameter map giving the offset −1…1 on sharpness (nil: + 0).
    public var sharpness: LayerMap?

    /// A layer named `name` playing `pattern`, with optional parameter maps.
    public init(name: String, pattern: String, isLooping: Bool = false, intensity: LayerMap? = nil,
                sharpness: LayerMap? = nil) {
        self.name = name
        self.pattern = pattern
        self.isLooping = isLooping
        self.intensity = intensity
        self.sharpness = sharpness
    }

    /// The factors an `intensity` map may give.
    public static let intensityRange: ClosedRange<Double> = 0...1
    /// The offsets a `sharpness` map may give.
    public static let sharpnessRange: ClosedRange<Double> = -1...1
    /// The keys of a haptic layer.
    public static let keys = ["haptic", "loop", "intensity", "sharpness"]
}
