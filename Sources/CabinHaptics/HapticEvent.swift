import CabinJSON

/// The kinds of AHAP events (`EventType`).
///
/// Thread: a value type; any thread.
public enum HapticEventType: String, Sendable, Hashable, CaseIterable {
    /// `HapticTransient`: a brief tap at a point in time, with no duration.
    case hapticTransient = "HapticTransient"
    /// `HapticContinuous`: a vibration for `EventDuration`, shaped by its envelope.
    case hapticContinuous = "HapticContinuous"
    /// `AudioContinuous`: a generated tone for `EventDuration` (see ``HapticPatternAudio``).
    case audioContinuous = "AudioContinuous"
    /// `AudioCustom`: a recorded waveform (`EventWaveformPath`) played from its time.
    case audioCustom = "AudioCustom"

    /// Whether the event has an `EventDuration`.
    public var isContinuous: Bool { self == .hapticContinuous || self == .audioContinuous }
    /// Whether the event is felt (audio events are kept in the model but not compiled).
    public var isHaptic: Bool { self == .hapticTransient || self == .hapticContinuous }
}

/// Where an `EventWaveformPath` stands in its file: its location and JSON path. Compares
/// equal to every other, so it never changes what an event is.
///
/// Thread: a value type; any thread.
public struct WaveformSource: Sendable, Hashable {
    /// The line and column of the `EventWaveformPath` value in its file; nil when not read
    /// from a file (an event built in code).
    public var location: SourceLocation?
    /// The JSON path of the `EventWaveformPath` member; nil when not read from a file.
    public var path: JSONPath?
    /// A source at `location` and `path` (both nil: nowhere known).
    public init(location: SourceLocation? = nil, path: JSONPath? = nil) {
        self.location = location
        self.path = path
    }
    /// Always true: where a waveform path was written is not part of an event's value.
    public static func == (a: WaveformSource, b: WaveformSource) -> Bool { true }
    /// Hashes nothing, as every source is equal to every other.
    public func hash(into hasher: inout Hasher) {}
}

/// One event of a pattern: a transient tap, a continuous vibration, or an audio event.
///
/// Times are seconds from the pattern start. Continuous durations are already capped at
/// ``HapticLimits/maxContinuousDuration`` by the readers.
///
/// Thread: a value type; any thread.
public struct HapticEvent: Sendable, Hashable {
    /// What kind of event it is (`EventType`).
    public var type: HapticEventType
    /// Start time in seconds (≥ 0).
    public var time: Double
    /// Length in seconds for continuous events; 0 for transients and AudioCustom.
    public var duration: Double
    /// The event parameters that were given, already clamped to their ranges.
    public var parameters: [HapticEventParameterID: Double]
    /// `EventWaveformPath` of an AudioCustom event (a path as written; never opened here).
    public var waveformPath: String?
    /// `EventWaveformUseVolumeEnvelope` of an AudioCustom event: whether its `AttackTime`
    /// and `ReleaseTime` fade it in and out; nil when not given (no envelope).
    public var waveformUsesVolumeEnvelope: Bool?
    /// `EventWaveformLoopEnabled` of an AudioCustom event: whether the waveform loops for
    /// `EventDuration`; nil when not given (no loop).
    public var waveformLoopEnabled: Bool?
    /// Where `EventWaveformPath` was written (for located errors about the file); not part
    /// of the event's value (equal events may come from different places).
    public var waveformSource = WaveformSource()
    /// An event-local intensity envelope (times relative to `time`, linear between points)
    /// that replaces the constant intensity and the attack/decay/release shape. AHAP has no
    /// such thing; the `.haptic` mapping uses it so that pattern-wide controls stay free.
    public var intensityEnvelope: [HapticControlPoint]?
    /// An event-local sharpness envelope (relative times, linear, holds its end values).
    public var sharpnessEnvelope: [HapticControlPoint]?

    /// An event of `type` at `time` seconds lasting `duration` seconds (0 for transients
    /// and AudioCustom), with the event parameters given (absent ones take their defaults)
    /// and, for AudioCustom, its `EventWaveformPath`.
    public init(
        _ type: HapticEventType, time: Double, duration: Double = 0,
        parameters: [HapticEventParameterID: Double] = [:], waveformPath: String? = nil
    ) {
        self.type = type
        self.time = time
        self.duration = duration
        self.parameters = parameters
        self.waveformPath = waveformPath
    }

    /// A parameter's value, or its default when absent.
    public func value(_ id: HapticEventParameterID) -> Double {
        parameters[id] ?? id.defaultValue
    }

    /// `HapticIntensity`, 0…1 (1 when absent).
    public var intensity: Double { value(.hapticIntensity) }
    /// `HapticSharpness`, 0…1 (0.5 when absent).
    public var sharpness: Double { value(.hapticSharpness) }
    /// Whether a continuous event holds its level for its whole duration (`Sustained` ≥ 0.5).
    public var isSustained: Bool { value(.sustained) >= 0.5 }
    /// The end time: `time + duration`.
    public var endTime: Double { time + duration }
}
