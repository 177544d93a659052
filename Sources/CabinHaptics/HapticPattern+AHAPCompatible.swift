extension HapticPattern {
    /// The pattern with event-local envelopes (from `.haptic`) turned into what AHAP can say.
    ///
    /// Each shaped continuous event becomes a plain continuous event (intensity 1,
    /// sharpness 0) plus a `HapticIntensityControl` curve of its intensity envelope and,
    /// when it has one, a `HapticSharpnessControl` curve of its sharpness envelope (else the
    /// event keeps its sharpness). Because AHAP curves act on every event, transients are
    /// compensated: intensity ÷ intensity control (clamped to 1) and sharpness − sharpness
    /// control (clamped to 0…1). Patterns without envelopes are returned unchanged.
    ///
    /// Thread: pure; any thread.
    public func ahapCompatible() -> HapticPattern {
        guard events.contains(where: { $0.intensityEnvelope != nil || $0.sharpnessEnvelope != nil }) else {
            return self
        }
        var result = HapticPattern(version: version, events: [], dynamicParameters: dynamicParameters,
                                   parameterCurves: parameterCurves)
        for event in events {
            guard event.intensityEnvelope != nil || event.sharpnessEnvelope != nil else { continue }
            var plain = event
            plain.intensityEnvelope = nil
            plain.sharpnessEnvelope = nil
            if let envelope = event.intensityEnvelope {
                plain.parameters[.hapticIntensity] = 1
                result.parameterCurves.append(HapticParameterCurve(
                    .hapticIntensityControl, time: event.time,
                    controlPoints: envelope.map { HapticControlPoint(time: $0.time, value: clamp01($0.value * event.intensity)) }))
            }
            if let envelope = event.sharpnessEnvelope {
                plain.parameters[.hapticSharpness] = 0
                result.parameterCurves.append(HapticParameterCurve(.hapticSharpnessControl, time: event.time,
                                                                   controlPoints: envelope))
            }
            result.events.append(plain)
        }
        let intensityControl = HapticControlTrack(.hapticIntensityControl, pattern: result)
        let sharpnessControl = HapticControlTrack(.hapticSharpnessControl, pattern: result)
        for event in events where event.intensityEnvelope == nil && event.sharpnessEnvelope == nil {
            var compensated = event
            if event.type.isHaptic {
                let gain = intensityControl.value(at: event.time)
                compensated.parameters[.hapticIntensity] = gain > 0 ? min(1, event.intensity / gain) : event.intensity
                compensated.parameters[.hapticSharpness] = clamp01(event.sharpness - sharpnessControl.value(at: event.time))
            }
            result.events.append(compensated)
        }
        result.events = result.events.stableSorted { $0.time < $1.time }
        result.parameterCurves = result.parameterCurves.stableSorted { $0.time < $1.time }
        return result
    }
}
