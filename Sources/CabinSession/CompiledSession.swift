import CabinAudio
import CabinHaptics

/// A session made ready for the engine: the mixer's configuration (buses, layers,
/// parameters, assets, ducking) and the timeline as frame-exact commands.
///
/// Thread: a value; build and read on the control thread.
public struct CompiledSession: Sendable {
    public var title: String?
    public var sampleRate: Double
    public var config: MixerConfig
    /// Every command, sorted by frame (stable: document order at equal frames).
    public var commands: [MixerCommand]
    /// Marks on the timeline (drive, rest, arrival …).
    public var marks: [Mark]
    /// Haptic patterns started by cues, at the frame of their cue.
    public var haptics: [HapticCue]
    /// The compiled patterns those cues play, by the cue's `haptic` text (cues whose pattern
    /// did not load, or was not loaded, have none).
    public var hapticPatterns: [String: CompiledHaptics]
    /// Where the session ends.
    public var durationFrames: FrameTime
    /// Problems that silenced part of the session (a sound that did not load stops the
    /// layers and cues that use it), one line each.
    public var warnings: [String]
    /// The loudness target and how it is met (nil when the session has none).
    public var loudness: LoudnessPlan?

    /// How a loudness target is met: the session's estimated loudness before the master
    /// gain (`SessionLoudness.estimate`) and the master gain that brings it to the target.
    public struct LoudnessPlan: Sendable, Equatable {
        public var target: Double
        /// LUFS before the master gain; nil when the session plays nothing.
        public var estimate: Double?
        public var masterGain: Double
    }

    /// A named point on the timeline.
    public struct Mark: Sendable, Equatable {
        public var frame: FrameTime
        public var name: String
        public init(frame: FrameTime, name: String) {
            self.frame = frame
            self.name = name
        }
    }

    /// A `haptic` cue verb: a pattern (library name or path) due at `frame`.
    public struct HapticCue: Sendable, Equatable {
        public var frame: FrameTime
        public var pattern: String
        public init(frame: FrameTime, pattern: String) {
            self.frame = frame
            self.pattern = pattern
        }
    }

    /// Seconds of the session.
    public var duration: Double { Double(durationFrames) / sampleRate }
}
