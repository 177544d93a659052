extension HapticPattern {
    /// The pattern with event-local envelopes (from `.haptic`) turned into what AHAP can say.
    ///
    /// Each shaped continuous event becomes a plain continuous event (intensity 1,
    /// sharpness 0) plus a `HapticIntensityControl` curve of its intensity envelope and,
    /// when it has one, a `HapticSharpnessControl` curve of its sharpness envelope (else the
    /// event keeps its sharpness). Because AHAP curves act on every event, transients are
    /// compensated: intensity ÷ intensity control and sharpness − sharpness control. Where
    /// no value in 0…1 does that (a full-intensity transient under a curve below 1, a soft
    /// one under a sharp curve), the curves instead go neutral (intensity control 1,
    /// sharpness control 0) for an instant at the transient — ramping over
    /// `HapticParameterCurve.notchSeconds` either side — and the transient keeps its own
    /// values: it plays exactly as it was designed, and the continuous event under it
    /// swells for those few milliseconds, inside the transient's own click. Patterns without
    /// envelopes are returned unchanged.
    ///
    /// Thread: pure; any thread.
    public func ahapCompatible() -> HapticPattern {
        guard events.contains(where: { $0.intensityEnvelope != nil || $0.sharpnessEnvelope != nil }) else {
            return self
        }
        var result = HapticPattern(version: version, events: [], dynamicParameters: dynamicParameters,
                                   parameterCurves: parameterCurves, metadata: metadata)
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
        var notches: [Double] = []
        for event in events where event.intensityEnvelope == nil && event.sharpnessEnvelope == nil {
            var compensated = event
            if event.type.isHaptic {
                let gain = intensityControl.value(at: event.time)
                let intensity = gain > 0 ? event.intensity / gain : event.intensity
                let sharpness = event.sharpness - sharpnessControl.value(at: event.time)
                if intensity <= 1 + 1e-12 && (-1e-12...(1 + 1e-12)).contains(sharpness) {
                    compensated.parameters[.hapticIntensity] = min(1, intensity)
                    compensated.parameters[.hapticSharpness] = clamp01(sharpness)
                } else if event.type == .hapticTransient {
                    // No event value compensates: the curves go neutral at the transient's
                    // instant instead, and it keeps its own values.
                    notches.append(event.time)
                } else {
                    compensated.parameters[.hapticIntensity] = min(1, intensity)
                    compensated.parameters[.hapticSharpness] = clamp01(sharpness)
                }
            }
            result.events.append(compensated)
        }
        if !notches.isEmpty {
            // Only the curves made here from envelopes; the pattern's own stay as written.
            for k in parameterCurves.count..<result.parameterCurves.count {
                let curve = result.parameterCurves[k]
                result.parameterCurves[k] = curve.notched(at: notches, neutral: curve.id == .hapticIntensityControl ? 1 : 0)
            }
        }
        result.events = result.events.stableSorted { $0.time < $1.time }
        result.parameterCurves = result.parameterCurves.stableSorted { $0.time < $1.time }
        return result
    }
}

extension HapticParameterCurve {
    /// How far either side of a transient a curve ramps to neutral and back (`notched`).
    public static let notchSeconds = 0.005

    /// The curve's value at `t` seconds after its start: linear between points, held
    /// before the first and after the last.
    func value(atRelative t: Double) -> Double {
        guard let first = controlPoints.first, let last = controlPoints.last else { return 0 }
        if t <= first.time { return first.value }
        if t >= last.time { return last.value }
        let i = controlPoints.firstIndex { $0.time > t }!
        let a = controlPoints[i - 1], b = controlPoints[i]
        return b.time > a.time ? a.value + (b.value - a.value) * (t - a.time) / (b.time - a.time) : b.value
    }

    /// The curve with `neutral` at each of `times` (absolute) inside its span, reached by
    /// a ramp from `notchSeconds` before and left by one to `notchSeconds` after (less
    /// where notches or the span's ends are closer); elsewhere the same function.
    func notched(at times: [Double], neutral: Double) -> HapticParameterCurve {
        guard let first = controlPoints.first, let last = controlPoints.last else { return self }
        let centres = times.map { $0 - time }.filter { $0 >= first.time && $0 <= last.time }.sorted()
        guard !centres.isEmpty else { return self }
        var windows: [(from: Double, centre: Double, to: Double)] = []
        for (k, c) in centres.enumerated() {
            let before = k > 0 ? (c - centres[k - 1]) / 2 : .infinity
            let after = k + 1 < centres.count ? (centres[k + 1] - c) / 2 : .infinity
            let from = max(first.time, c - min(Self.notchSeconds, before))
            let to = min(last.time, c + min(Self.notchSeconds, after))
            windows.append((from, c, to))
        }
        var points: [HapticControlPoint] = controlPoints.filter { p in !windows.contains { p.time >= $0.from && p.time <= $0.to } }
        for w in windows {
            if w.from < w.centre { points.append(HapticControlPoint(time: w.from, value: value(atRelative: w.from))) }
            points.append(HapticControlPoint(time: w.centre, value: neutral))
            if w.to > w.centre { points.append(HapticControlPoint(time: w.to, value: value(atRelative: w.to))) }
        }
        var curve = self
        curve.controlPoints = points.stableSorted { $0.time < $1.time }
        return curve
    }
}
