import CabinAudio
import CabinHaptics

/// A haptic layer ready to feel: its pattern(s), maps and what the cues do to it, in frames.
///
/// Thread: a value type; any thread.
public struct CompiledHapticLayer: Sendable {
    public var name: String
    /// The pattern text it starts with (a key of ``CompiledSession/hapticPatterns``).
    public var pattern: String
    public var isLooping: Bool
    /// The factor 0…1 on intensity by the parameter's value (nil: × 1).
    public var intensity: LayerMap?
    /// The offset −1…1 on sharpness by the parameter's value (nil: + 0).
    public var sharpness: LayerMap?
    /// What the cues do to it, sorted by frame (stable: document order).
    public var events: [Event]

    /// A cue acting on the layer.
    public struct Event: Sendable, Equatable {
        public enum Action: Sendable, Equatable {
            case start(fadeInFrames: FrameTime)
            case stop(fadeOutFrames: FrameTime)
            /// Crossfade to another pattern (linear in intensity).
            case crossfade(to: String, overFrames: FrameTime)
        }
        public var frame: FrameTime
        public var action: Action
    }
}

/// How a compiled session answers `leave-focus` and `return-focus` (from its document's
/// `"focus"`), resolved to IDs and frames.
///
/// Thread: a value type; any thread.
public struct CompiledFocus: Sendable {
    /// The parameter that falls, and its name.
    public var parameter: ParameterID?
    public var parameterName: String?
    public var away: Double
    public var fallFrames: FrameTime
    public var riseFrames: FrameTime
    /// The pattern text (a key of ``CompiledSession/hapticPatterns`` when it loaded).
    public var haptic: String
    /// The pattern's audio on the `haptics` bus, when the session has one.
    public var hapticAsset: AssetID?
    public var hapticsBus: BusID?
    /// The focus sound, its bus and gain.
    public var sound: SoundSource?
    public var bus: BusID?
    public var gain: Decibels
}
