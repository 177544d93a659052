/// An AHAP event parameter (`EventParameters[].ParameterID`), with its range and default.
///
/// Ranges and defaults follow Core Haptics' documentation; where it publishes no default
/// (intensity, sharpness) Cabin uses 1 and 0.5.
///
/// Thread: a value type; any thread.
public enum HapticEventParameterID: String, Sendable, Hashable, CaseIterable {
    /// `HapticIntensity`: a haptic event's strength, 0…1 (default 1).
    case hapticIntensity = "HapticIntensity"
    /// `HapticSharpness`: a haptic event's feel, 0 dull … 1 crisp (default 0.5).
    case hapticSharpness = "HapticSharpness"
    /// `AttackTime`: the envelope's rise, 0…1 (default 0), in seconds as
    /// ``HapticEnvelopeShape`` maps it.
    case attackTime = "AttackTime"
    /// `DecayTime`: the fall after the attack of an event that is not sustained, 0…1
    /// (default 0), in seconds as ``HapticEnvelopeShape`` maps it.
    case decayTime = "DecayTime"
    /// `ReleaseTime`: the fall after the event's end, 0…1 (default 0), in seconds as
    /// ``HapticEnvelopeShape`` maps it.
    case releaseTime = "ReleaseTime"
    /// `Sustained`, 0…1 (default 1): 0.5 or more holds full strength from the attack to the
    /// event's end; less decays after the attack.
    case sustained = "Sustained"
    /// `AudioVolume`: a sound event's level, 0…1 (default 1).
    case audioVolume = "AudioVolume"
    /// `AudioPitch`: a sound event's pitch, −1…1 (default 0): −1 an octave down, 1 an octave up.
    case audioPitch = "AudioPitch"
    /// `AudioPan`: a sound event's balance, −1 left … 1 right (default 0, centred).
    case audioPan = "AudioPan"
    /// `AudioBrightness`: a sound event's tone, 0…1 (default 0.5; see ``HapticPatternAudio``).
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
    /// `HapticIntensityControl`: multiplies every haptic intensity, 0…1 (default 1).
    case hapticIntensityControl = "HapticIntensityControl"
    /// `HapticSharpnessControl`: added to every haptic sharpness, −1…1 (default 0).
    case hapticSharpnessControl = "HapticSharpnessControl"
    /// `HapticAttackTimeControl`: added to a haptic event's `AttackTime` at its start, −1…1 (default 0).
    case hapticAttackTimeControl = "HapticAttackTimeControl"
    /// `HapticDecayTimeControl`: added to a haptic event's `DecayTime` at its start, −1…1 (default 0).
    case hapticDecayTimeControl = "HapticDecayTimeControl"
    /// `HapticReleaseTimeControl`: added to a haptic event's `ReleaseTime` at its start, −1…1 (default 0).
    case hapticReleaseTimeControl = "HapticReleaseTimeControl"
    /// `AudioVolumeControl`: multiplies every sound event's `AudioVolume`, 0…1 (default 1).
    case audioVolumeControl = "AudioVolumeControl"
    /// `AudioPanControl`: added to every sound event's `AudioPan`, −1…1 (default 0).
    case audioPanControl = "AudioPanControl"
    /// `AudioPitchControl`: added to every sound event's `AudioPitch`, −1…1 (default 0).
    case audioPitchControl = "AudioPitchControl"
    /// `AudioBrightnessControl`: added to every sound event's `AudioBrightness`, −1…1 (default 0).
    case audioBrightnessControl = "AudioBrightnessControl"
    /// `AudioAttackTimeControl`: added to a sound event's `AttackTime` at its start, −1…1 (default 0).
    case audioAttackTimeControl = "AudioAttackTimeControl"
    /// `AudioDecayTimeControl`: added to a sound event's `DecayTime` at its start, −1…1 (default 0).
    case audioDecayTimeControl = "AudioDecayTimeControl"
    /// `AudioReleaseTimeControl`: added to a sound event's `ReleaseTime` at its start, −1…1 (default 0).
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
