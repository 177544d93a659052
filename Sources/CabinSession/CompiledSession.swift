import CabinAudio
import CabinHaptics

/// A session made ready for the engine: the mixer's configuration (buses, layers,
/// parameters, assets, ducking) and the timeline as frame-exact commands.
///
/// Thread: a value; build and read on the control thread.
public struct CompiledSession: Sendable {
    /// The document's title, for people (nil: it has none).
    public var title: String?
    /// Frames per second every frame here counts in (the rate it was compiled for, Hz).
    public var sampleRate: Double
    /// What the mixer is built from: buses, layers, parameters, assets, streams, ducking and
    /// the master gain.
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
    /// Layers whose source is a haptic pattern (their patterns are in `hapticPatterns`).
    public var hapticLayers: [CompiledHapticLayer] = []
    /// How the session answers `leave-focus` / `return-focus` (nil: it has no such events).
    public var focus: CompiledFocus?
    /// Where the session ends.
    public var durationFrames: FrameTime
    /// Problems that silenced part of the session (a sound that did not load stops the
    /// layers and cues that use it), one line each.
    public var warnings: [String]
    /// The live streams the session plays (`http(s)://` sounds), each registered once as an
    /// `AudioStream` in `config`; silent until a producer (the radio, `RadioStations`)
    /// writes to them.
    public var stations: [Station] = []

    /// A live stream of the session: its URL, and the stream its layers and cues play.
    public struct Station: Sendable {
        /// Seconds of audio each station's stream can hold ahead of playback.
        public static let bufferSeconds = 12.0
        /// Seconds a generated stream (`gen:`) holds: its producer keeps 0.5 s ahead live and
        /// never waits on a network, so a shorter ring does (its pages are resident once the
        /// ring has gone round: 12 s of stereo floats would be 4.6 MB).
        public static let generatedBufferSeconds = 2.0
        /// Live streams one session may play (each holds `bufferSeconds` of audio and a thread).
        public static let maximumCount = 8
        /// The station's URL, the playlist's path as the document gives it, or `gen:NAME`
        /// for generated music.
        public var url: String
        /// The stream's ID in `config`, what the layers and cues that play it name.
        public var id: StreamID
        /// The ring its producer writes into and the mixer reads from.
        public var stream: AudioStream
        /// For a playlist (`SoundReference.playlist`): how it plays; nil for an internet station.
        public var playlist: PlaylistOptions?
        /// For generated music (`SoundReference.generated`): its generator's name and seed;
        /// nil otherwise.
        public var generator: Generator?

        /// A music generator and the seed it composes with.
        public struct Generator: Sendable, Equatable {
            /// The generator's name (`lofi` of `gen:lofi`).
            public var name: String
            /// Its seed: the layer's position mixed with the session's seed, so one document
            /// and seed compose the same music.
            public var seed: UInt64
        }

        /// An internet station (neither a playlist nor generated music).
        public var isInternet: Bool { playlist == nil && generator == nil }
    }

    /// The loudness target and how it is met (nil when the session has none).
    public var loudness: LoudnessPlan?

    /// How a loudness target is met: the session's estimated loudness before the master
    /// gain (`SessionLoudness.estimate`) and the master gain that brings it to the target.
    public struct LoudnessPlan: Sendable, Equatable {
        /// The loudness aimed at, LUFS (the options' target, else the document's `loudness`).
        public var target: Double
        /// LUFS before the master gain; nil when the session plays nothing.
        public var estimate: Double?
        /// The master gain that brings `estimate` to `target`, dB (what `config` has).
        public var masterGain: Double
    }

    /// A named point on the timeline: where a segment starts.
    public struct Mark: Sendable, Equatable {
        /// Where the segment starts, in frames from the session's start.
        public var frame: FrameTime
        /// The name hooks and scripts see (`rest`).
        public var name: String
        /// The segment's title for people (`rest stop`), if the document gives one.
        public var title: String?
        /// A mark named `name` at `frame`, with an optional title for people.
        public init(frame: FrameTime, name: String, title: String? = nil) {
            self.frame = frame
            self.name = name
            self.title = title
        }

        /// What people see: the title, else the name.
        public var label: String { title ?? name }
    }

    /// A `haptic` cue verb: a pattern (library name or path) due at `frame`.
    public struct HapticCue: Sendable, Equatable {
        /// The cue's frame from the session's start.
        public var frame: FrameTime
        /// The pattern as the cue names it: a key of ``CompiledSession/hapticPatterns``
        /// when it loaded.
        public var pattern: String
    }

    /// Seconds of the session.
    public var duration: Double { Double(durationFrames) / sampleRate }
}
