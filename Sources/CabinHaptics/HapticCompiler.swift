/// Compiles a ``HapticPattern`` into what devices and renderers consume: a continuous
/// intensity/sharpness track and a list of transients, with every control applied.
///
/// Semantics (Core Haptics' where documented, Cabin's choice where not):
/// - continuous events get the envelope described on ``HapticEnvelopeShape``; `.haptic`
///   events use their event-local envelopes instead;
/// - overlapping continuous events add (intensity clamped to 1); their sharpness is the
///   intensity-weighted mean. Where no event sounds, the sharpness of the latest started
///   event is held (so a renderer's pitch does not jump during silence);
/// - `HapticIntensityControl` (curves and steps) **multiplies** intensity and
///   `HapticSharpnessControl` **adds** to sharpness, then both clamp to 0…1 — for the
///   continuous track and for every transient, at the transient's time; an event's release
///   tail (after its `time + duration`) keeps the intensity control it had at its end, so a
///   curve that faded an event out holds through its release (a curve starting as the event
///   ends, as in Apple's Sparkle sample, does not bring it back);
/// - `Haptic{Attack,Decay,Release}TimeControl` add to the event's time parameters at the
///   event's start (clamped to 0…1);
/// - audio events and audio controls are ignored;
/// - last, every intensity (continuous track and transients) is multiplied by the user's
///   ``HapticStrength`` (``HapticCompileOptions/strength``).
///
/// A pattern whose `Metadata` has `"Loop": "true"` (a Cabin extension Core Haptics ignores:
/// the library's loopable textures) is compiled as one period of its loop
/// (``CompiledHaptics/looped()``): the release tails past its last event's end sound over its
/// start, where the next repeat begins, so `endTime` is its `duration` and its seam has no dip.
/// The single pass stays in ``CompiledHaptics/once``, for what plays the pattern once from
/// silence (the Android exports).
///
/// Output stays inside 0…``CompiledHaptics/endTime``: the pattern's haptic duration (every
/// continuous event's full `EventDuration`, sustained or not) plus a tail long enough for the
/// last release and the last transient, so `endTime` ≥ `duration`.
///
/// Thread: pure; any thread except the render thread (allocates).
public enum HapticCompiler {
    /// Compiles `pattern`. Deterministic: the same pattern and options give the same output.
    public static func compile(_ pattern: HapticPattern, options: HapticCompileOptions = .init()) -> CompiledHaptics {
        let intensityControl = HapticControlTrack(.hapticIntensityControl, pattern: pattern)
        let sharpnessControl = HapticControlTrack(.hapticSharpnessControl, pattern: pattern)
        let attackControl = HapticControlTrack(.hapticAttackTimeControl, pattern: pattern)
        let decayControl = HapticControlTrack(.hapticDecayTimeControl, pattern: pattern)
        let releaseControl = HapticControlTrack(.hapticReleaseTimeControl, pattern: pattern)
        let shape = options.envelope
        let scale = options.strength.intensityScale

        var sources: [HapticContinuousSource] = []
        var transients: [HapticTransientEvent] = []
        var duration = 0.0
        var endTime = 0.0
        for event in pattern.events where event.type.isHaptic {
            duration = max(duration, event.endTime)
            if event.type == .hapticTransient {
                transients.append(HapticTransientEvent(
                    time: event.time,
                    intensity: clamp01(event.intensity * intensityControl.value(at: event.time)) * scale,
                    sharpness: clamp01(event.sharpness + sharpnessControl.value(at: event.time))))
                endTime = max(endTime, event.time + options.transientDuration)
                continue
            }
            let intensityKnots: [HapticControlPoint]
            if let envelope = event.intensityEnvelope {
                intensityKnots = envelope.map {
                    HapticControlPoint(time: event.time + $0.time, value: clamp01($0.value * event.intensity))
                }
            } else {
                let t = event.time
                intensityKnots = shape.knots(
                    time: t, duration: event.duration, intensity: event.intensity, sustained: event.isSustained,
                    attack: shape.seconds(event.value(.attackTime) + attackControl.value(at: t)),
                    decay: shape.seconds(event.value(.decayTime) + decayControl.value(at: t)),
                    release: shape.seconds(event.value(.releaseTime) + releaseControl.value(at: t)))
            }
            guard let last = intensityKnots.last else { continue }
            let sharpnessKnots = event.sharpnessEnvelope?.map {
                HapticControlPoint(time: event.time + $0.time, value: clamp01($0.value))
            } ?? [HapticControlPoint(time: event.time, value: event.sharpness)]
            sources.append(HapticContinuousSource(
                start: event.time, end: last.time, tail: event.intensityEnvelope == nil ? event.endTime : last.time,
                intensity: PiecewiseLinear(intensityKnots, outside: .zero),
                sharpness: PiecewiseLinear(sharpnessKnots, outside: .hold)))
            // A continuous event lasts its EventDuration even when its decay (Sustained 0)
            // has ended it sooner: Core Haptics plays it "within the event".
            endTime = max(endTime, last.time, event.endTime)
        }
        let model = HapticSignalModel(
            sources: sources.stableSorted { $0.start < $1.start },
            intensityControl: intensityControl, sharpnessControl: sharpnessControl, intensityScale: scale)
        let compiled = CompiledHaptics(
            breakpoints: model.breakpoints(until: endTime),
            transients: transients.stableSorted { $0.time < $1.time },
            duration: duration, endTime: endTime, model: model)
        return pattern.metadata["Loop"] == "true" ? compiled.looped() : compiled
    }
}

/// Options for ``HapticCompiler``.
///
/// Thread: a value type; any thread.
public struct HapticCompileOptions: Sendable, Hashable {
    /// How attack, decay and release parameters become seconds.
    public var envelope: HapticEnvelopeShape
    /// How long a transient lasts for tails, sampling and audio (default 20 ms).
    public var transientDuration: Double
    /// The user's haptic strength (default `.strong`, the pattern as designed).
    public var strength: HapticStrength

    /// Options with the given values; `transientDuration` is in seconds.
    public init(envelope: HapticEnvelopeShape = .default, transientDuration: Double = 0.02,
                strength: HapticStrength = .strong) {
        self.envelope = envelope
        self.transientDuration = transientDuration
        self.strength = strength
    }
}

@inline(__always)
func clamp01(_ x: Double) -> Double { min(max(x, 0), 1) }

/// The user's haptic strength, as apps' settings offer it: a scale on every intensity after
/// the pattern's own controls (sharpness is kept, so a light tap still feels crisp).
///
/// | strength | intensity × |
/// |---|---|
/// | `off` | 0 (nothing is felt) |
/// | `light` | 0.4 (about −8 dB) |
/// | `medium` | 0.7 (about −3 dB) |
/// | `strong` | 1 (the pattern as designed; the default) |
///
/// Thread: a value type; any thread.
public enum HapticStrength: String, Sendable, Hashable, CaseIterable {
    /// Intensity × 0: nothing is felt.
    case off
    /// Intensity × 0.4 (about −8 dB).
    case light
    /// Intensity × 0.7 (about −3 dB).
    case medium
    /// Intensity × 1: the pattern as designed (the default).
    case strong

    /// The factor on intensity (see the table).
    public var intensityScale: Double {
        switch self {
        case .off: 0
        case .light: 0.4
        case .medium: 0.7
        case .strong: 1
        }
    }
}
