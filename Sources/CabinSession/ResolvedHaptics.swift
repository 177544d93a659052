import CabinAudio
import CabinHaptics

/// The haptic patterns a session's cues name, loaded and compiled by `CabinPlayback`,
/// plus what could not be loaded.
///
/// A pattern that failed to load silences the cues that use it (with a warning), not the
/// session.
///
/// Thread: a value type; any thread.
public struct ResolvedHaptics: Sendable {
    /// Compiled patterns by the cue's `haptic` text.
    public var patterns: [String: CompiledHaptics]
    /// One line per pattern that could not be loaded, keyed by the cue's `haptic` text.
    public var failures: [String: String]
    /// The patterns' own sound (AHAP audio events) as stereo audio at the session's rate,
    /// by the same text; played by their cues on the cue's bus.
    public var audio: [String: AudioBuffer] = [:]
    /// One located line per pattern whose sound could not be loaded (a waveform missing).
    public var audioFailures: [String: String] = [:]

    /// The compiled `patterns` and the `failures`, both keyed by the cue's `haptic` text;
    /// `audio` and `audioFailures` start empty.
    public init(patterns: [String: CompiledHaptics] = [:], failures: [String: String] = [:]) {
        self.patterns = patterns
        self.failures = failures
    }
}

extension SessionDocument {
    /// Every distinct pattern the session names — the cues' `haptic`, the haptic layers'
    /// patterns and their crossfade targets, the focus haptic — in first-use order.
    public var hapticPatternsToLoad: [String] {
        var seen = Set<String>()
        let named = cues.compactMap(\.haptic) + hapticLayers.map(\.pattern) + cues.compactMap(\.hapticCrossfade?.to)
            + (focus.map { [$0.haptic] } ?? [])
        return named.filter { seen.insert($0).inserted }
    }
}

/// How a session is compiled beyond its document: choices the embedder (or the CLI) makes.
///
/// Thread: a value type; any thread.
public struct SessionCompileOptions: Sendable, Equatable {
    /// When set, haptic cues also play their pattern rendered as audio on a `haptics` bus of
    /// the main mix, at this bus gain in dB (the document's own `haptics` bus gain wins when
    /// it declares one). `nil` (the default) keeps haptics out of the main mix: haptic audio
    /// is a preview or an actuator signal, not part of the session's sound.
    public var hapticsBusGain: Double?
    /// How patterns become audio (for the haptics bus and the haptic track); the sample
    /// rate and layout are the session's (mono).
    public var hapticAudio: HapticAudioOptions

    /// The default gain of the `haptics` bus when it is enabled and the document declares
    /// none: −12 dB, the engine bus's level, so the rumble sits under UI sounds.
    public static let defaultHapticsBusGain = -12.0

    /// The loudness target: the document's `"loudness"` (the default), another (`cabin
    /// play --loudness -18`), or none (`--loudness off`: gains exactly as written).
    public var loudness: LoudnessChoice = .document
    /// A master gain in dB that replaces the loudness target's (to play parts of a session
    /// at the gain the whole would have).
    public var masterGain: Double?
    /// A seed that replaces the document's `seed` (`cabin play --seed 7`).
    public var seed: UInt64?
    /// A haptic strength that replaces the document's `hapticStrength` (the listener's, from
    /// the config file or `CABIN_HAPTIC_STRENGTH`).
    public var hapticStrength: HapticStrength?

    /// Where the loudness target comes from.
    public enum LoudnessChoice: Sendable, Equatable {
        /// The document's `"loudness"`; none when it has none.
        case document
        /// This target, in LUFS, whatever the document says.
        case target(Double)
        /// No target: no master gain is computed, the gains play as written.
        case off
    }

    /// Options with the given values; `hapticStrength` starts nil (the document's).
    public init(hapticsBusGain: Double? = nil, hapticAudio: HapticAudioOptions = .init(),
                loudness: LoudnessChoice = .document, masterGain: Double? = nil, seed: UInt64? = nil) {
        self.seed = seed
        self.hapticsBusGain = hapticsBusGain
        self.hapticAudio = hapticAudio
        self.loudness = loudness
        self.masterGain = masterGain
    }
}
