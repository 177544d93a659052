import CabinJSON

/// The kinds of AHAP events (`EventType`).
///
/// Thread: a value type; any thread.
public enum HapticEventType: String, Sendable, Hashable, CaseIterable {
    case hapticTransient = "HapticTransient"
    case hapticContinuous = "HapticContinuous"
    case audioContinuous = "AudioContinuous"
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
    public var location: SourceLocation?
    public var path: JSONPath?
    public init(location: SourceLocation? = nil, path: JSONPath? = nil) {
        self.location = location
        self.path = path
    }
    public static func == (a: WaveformSource, b: WaveformSource) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

/// One event of a pattern: a transient tap, a continuous vibration, or an audio event.
///
/// Times are seconds from the pattern start. Continuous durations are already capped at
/// ``HapticLimits/maxContinuousDuration`` by the readers.
///
/// Thread: a value type; any thread.
public struct HapticEvent: Sendable, Hashable {
    public var type: HapticEventType
    /// Start time in seconds (≥ 0).
    public var time: Double
    /// Length in seconds for continuous events; 0 for transients and AudioCustom.
    public var duration: Double
    /// The event parameters that were given, already clamped to their ranges.
    public var parameters: [HapticEventParameterID: Double]
    /// `EventWaveformPath` of an AudioCustom event (a path as written; never opened here).
    public var waveformPath: String?
    public var waveformUsesVolumeEnvelope: Bool?
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

    public var intensity: Double { value(.hapticIntensity) }
    public var sharpness: Double { value(.hapticSharpness) }
    /// Whether a continuous event holds its level for its whole duration (`Sustained` ≥ 0.5).
    public var isSustained: Bool { value(.sustained) >= 0.5 }
    /// The end time: `time + duration`.
    public var endTime: Double { time + duration }
}
