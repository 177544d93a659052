/// An AHAP event parameter (`EventParameters[].ParameterID`), with its range and default.
///
/// Ranges and defaults follow Core Haptics' documentation; where it publishes no default
/// (intensity, sharpness) Cabin uses 1 and 0.5.
///
/// Thread: a value type; any thread.
public enum HapticEventParameterID: String, Sendable, Hashable, CaseIterable {
    case hapticIntensity = "HapticIntensity"
    case hapticSharpness = "HapticSharpness"
    case attackTime = "AttackTime"
    case decayTime = "DecayTime"
    case releaseTime = "ReleaseTime"
    case sustained = "Sustained"
    case audioVolume = "AudioVolume"
    case audioPitch = "AudioPitch"
    case audioPan = "AudioPan"
    case audioBrightness = "AudioBrightness"

    /// The accepted range; values outside are clamped (with a warning).
    public var range: ClosedRange<Double> {
        switch self {
        case .audioPitch, .audioPan: return -1...1
        default: return 0...1
        }
    }

    /// Whether the parameter acts on events of `type`: intensity and sharpness on haptic
    /// events, the `Audio…` ones on sound events, the envelope times and `Sustained` on both.
    public func applies(to type: HapticEventType) -> Bool {
        switch self {
        case .hapticIntensity, .hapticSharpness: return type.isHaptic
        case .audioVolume, .audioPitch, .audioPan, .audioBrightness: return !type.isHaptic
        case .attackTime, .decayTime, .releaseTime, .sustained: return true
        }
    }

    /// The value used when the parameter is absent.
    public var defaultValue: Double {
        switch self {
        case .hapticIntensity, .sustained, .audioVolume: return 1
        case .hapticSharpness, .audioBrightness: return 0.5
        case .attackTime, .decayTime, .releaseTime, .audioPitch, .audioPan: return 0
        }
    }
}

/// A dynamic parameter (`Parameter` and `ParameterCurve` IDs), with its range and default.
///
/// `HapticIntensityControl` multiplies every event's intensity; `HapticSharpnessControl`
/// adds to every event's sharpness (then clamps to 0…1); the `…TimeControl` IDs shift an
/// event's envelope times exponentially. The audio controls apply to the pattern's sound
/// (``HapticPatternAudio``), not to the compiled haptics.
///
/// Thread: a value type; any thread.
public enum HapticDynamicParameterID: String, Sendable, Hashable, CaseIterable {
    case hapticIntensityControl = "HapticIntensityControl"
    case hapticSharpnessControl = "HapticSharpnessControl"
    case hapticAttackTimeControl = "HapticAttackTimeControl"
    case hapticDecayTimeControl = "HapticDecayTimeControl"
    case hapticReleaseTimeControl = "HapticReleaseTimeControl"
    case audioVolumeControl = "AudioVolumeControl"
    case audioPanControl = "AudioPanControl"
    case audioPitchControl = "AudioPitchControl"
    case audioBrightnessControl = "AudioBrightnessControl"
    case audioAttackTimeControl = "AudioAttackTimeControl"
    case audioDecayTimeControl = "AudioDecayTimeControl"
    case audioReleaseTimeControl = "AudioReleaseTimeControl"

    /// The accepted range; values outside are clamped (with a warning).
    public var range: ClosedRange<Double> {
        switch self {
        case .hapticIntensityControl, .audioVolumeControl: return 0...1
        default: return -1...1
        }
    }

    /// The value in effect before any `Parameter` or `ParameterCurve` sets it.
    public var defaultValue: Double {
        switch self {
        case .hapticIntensityControl, .audioVolumeControl: return 1
        default: return 0
        }
    }
}
