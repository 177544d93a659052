import CabinAudio
import CabinHaptics

/// A haptic layer ready to feel: its pattern(s), maps and what the cues do to it, in frames.
///
/// Thread: a value type; any thread.
public struct CompiledHapticLayer: Sendable {
    /// The layer's name in the document (what cues' `start`, `stop` and `crossfade` name).
    public var name: String
    /// The pattern text it starts with (a key of ``CompiledSession/hapticPatterns``).
    public var pattern: String
    /// Whether the pattern repeats from its start when it ends (else it plays once).
    public var isLooping: Bool
    /// The factor 0…1 on intensity by the parameter's value (nil: × 1).
    public var intensity: LayerMap?
    /// The offset −1…1 on sharpness by the parameter's value (nil: + 0).
    public var sharpness: LayerMap?
    /// What the cues do to it, sorted by frame (stable: document order).
    public var events: [Event]

    /// A cue acting on the layer.
    public struct Event: Sendable, Equatable {
        /// What the cue does to the layer.
        public enum Action: Sendable, Equatable {
            /// Starts the layer, its intensity rising from 0 over `fadeInFrames` (0: at once).
            case start(fadeInFrames: FrameTime)
            /// Stops the layer, its intensity falling to 0 over `fadeOutFrames` (0: at once).
            case stop(fadeOutFrames: FrameTime)
            /// Crossfade to another pattern (linear in intensity).
            case crossfade(to: String, overFrames: FrameTime)
        }
        /// The session frame the cue acts at (its time in frames at the session's rate).
        public var frame: FrameTime
        /// What it does.
        public var action: Action
    }
}

/// How a compiled session answers `leave-focus` and `return-focus` (from its document's
/// `"focus"`), resolved to IDs and frames.
///
/// Thread: a value type; any thread.
public struct CompiledFocus: Sendable {
    /// The parameter that falls on `leave-focus`; nil when the document names none or the
    /// session has no parameter of that name.
    public var parameter: ParameterID?
    /// The name of that parameter as the document's `focus` gives it (nil: none named).
    public var parameterName: String?
    /// The value the parameter falls to on `leave-focus` (the document's `away`, else the
    /// parameter's `min`).
    public var away: Double
    /// Frames the fall to `away` takes (the document's `fall`, 8 s by default).
    public var fallFrames: FrameTime
    /// Frames `return-focus` takes to bring the parameter back (the document's `rise`, 6 s
    /// by default).
    public var riseFrames: FrameTime
    /// The pattern text (a key of ``CompiledSession/hapticPatterns`` when it loaded).
    public var haptic: String
    /// The pattern's audio on the `haptics` bus, when the session has one.
    public var hapticAsset: AssetID?
    /// The session's `haptics` bus, which `hapticAsset` plays on (nil: the session has none).
    public var hapticsBus: BusID?
    /// The focus sound, played once on `leave-focus` (nil: the document names none).
    public var sound: SoundSource?
    /// The bus the focus sound plays on (the document's `bus`, `ui` by default); nil when
    /// the session has no bus of that name.
    public var bus: BusID?
    /// The focus sound's gain on its bus.
    public var gain: Decibels
}
