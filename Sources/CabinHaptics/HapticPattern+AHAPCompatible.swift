extension HapticPattern {
    /// The pattern with event-local envelopes (from `.haptic`) turned into what AHAP can say,
    /// playing the same intensities and sharpnesses: Cabin's compiler gives every transient
    /// exactly and the continuous track within ``ahapCompatibleTolerance`` (sharpness where
    /// something sounds), away from each plain event's own attack ramp at its first instant
    /// (AttackTime 0: 2 ms) and release after its last, which the envelope did not have, and
    /// but for the one limit below.
    ///
    /// Each shaped continuous event becomes plain continuous events (one sharpness σ, Lofelt's
    /// 0 unless a transient needs another) plus a `HapticIntensityControl` curve of its
    /// intensity envelope and, when it has one, a `HapticSharpnessControl` curve of its
    /// sharpness envelope − σ (the control ranges −1…1). Because AHAP curves act on every
    /// event, transients are compensated: intensity ÷ intensity control, sharpness − sharpness
    /// control.
    ///
    /// A transient that no value of its own compensates — louder than the envelope under it
    /// (a Lofelt emphasis over its ducked texture; an emphasis-only click, whose envelope is
    /// 0), or a soft one under a sharp envelope — or one under an envelope below ½ (which
    /// `check` would call scaled below half its intensity) gets a piece of the plain event to itself:
    /// intensity k = the envelope there and sharpness = the sharpness envelope there,
    /// crossfading in over its attack ramp up to the transient (the pieces' ramps sum to a
    /// level that goes 1 → k), so both controls are neutral at the transient and it keeps
    /// its own values. The control curves there are the envelope ÷ that level and the
    /// sharpness envelope − the pieces' intensity-weighted sharpness, sampled through the
    /// crossfades until linear pieces stay within 2·10⁻³ of them. Transients less than a ramp
    /// apart share a piece (k = the lowest envelope among them); a piece where nothing sounds
    /// (k = 0) is left out. Patterns without envelopes are returned unchanged.
    ///
    /// The one limit: a plain event's level moves no faster than its ramps (1 ↔ k in 2 ms), so
    /// where the envelope climbs faster just after such a transient, or falls faster just
    /// before it (a drum hit's envelope jumps within a millisecond), the track lags it for up
    /// to a ramp, playing less than the envelope and never more (at least the fraction of the
    /// ramp gone by).
    ///
    /// Thread: pure; any thread.
    public func ahapCompatible() -> HapticPattern {
        guard events.contains(where: { $0.intensityEnvelope != nil || $0.sharpnessEnvelope != nil }) else {
            return self
        }
        let shape = HapticEnvelopeShape.default
        let transients = events.filter { $0.type == .hapticTransient && $0.intensityEnvelope == nil && $0.sharpnessEnvelope == nil }
        var result = HapticPattern(version: version, events: [], dynamicParameters: dynamicParameters,
                                   parameterCurves: parameterCurves, metadata: metadata)
        for event in events where event.intensityEnvelope != nil || event.sharpnessEnvelope != nil {
            var plain = event
            plain.intensityEnvelope = nil
            plain.sharpnessEnvelope = nil
            let start = event.time, end = event.endTime
            func absolute(_ points: [HapticControlPoint], _ scale: Double) -> PiecewiseLinear {
                PiecewiseLinear(points.map { HapticControlPoint(time: start + $0.time, value: clamp01($0.value * scale)) },
                                outside: .hold)
            }
            let sharpness = event.sharpnessEnvelope.map { absolute($0, 1) }
            let common = sharpness.map { Self.commonSharpness(for: transients.filter { $0.time >= start }, under: $0) }
                ?? event.sharpness
            guard let envelope = event.intensityEnvelope else {
                plain.parameters[.hapticSharpness] = common
                result.events.append(plain)
                result.parameterCurves.append(HapticParameterCurve(.hapticSharpnessControl, time: start,
                    controlPoints: event.sharpnessEnvelope!.map { HapticControlPoint(time: $0.time, value: $0.value - common) }))
                continue
            }
            let gain = absolute(envelope, event.intensity)
            func sharpnessAt(_ t: Double) -> Double { sharpness?.value(at: t) ?? event.sharpness }
            let own = transients.filter { t in
                guard t.time >= start && t.time <= end else { return false }
                let s = t.sharpness - (sharpnessAt(t.time) - common)
                // Louder than the envelope, or under a control below ½ (which `check` warns of).
                let g = gain.value(at: t.time)
                return t.intensity > g + 1e-12 || (t.intensity > 0 && g < 0.5) || !(-1e-12...(1 + 1e-12)).contains(s)
            }
            let attack = shape.seconds(plain.value(.attackTime)), release = shape.seconds(plain.value(.releaseTime))
            let pieces = Self.pieces(start: start, end: end, around: own.map(\.time), attack: attack,
                                     level: { gain.value(at: $0) }, sharpness: sharpnessAt, filler: common)
            for piece in pieces where piece.level > 0 && piece.end - piece.start > 1e-9 {
                var part = plain
                part.time = piece.start
                part.duration = piece.end - piece.start
                part.parameters[.hapticIntensity] = piece.level
                part.parameters[.hapticSharpness] = piece.sharpness
                result.events.append(part)
            }
            let sum = PieceSum(pieces, gain: gain, attack: attack, release: release)
            result.parameterCurves.append(HapticParameterCurve(.hapticIntensityControl, time: start,
                controlPoints: sum.controlPoints(following: gain, from: start) { sum.control(at: $0, left: $1) }))
            if let sharpness {
                result.parameterCurves.append(HapticParameterCurve(.hapticSharpnessControl, time: start,
                    controlPoints: sum.controlPoints(following: sharpness, from: start) { t, left in
                        max(-1, min(1, sharpness.value(at: t, left: left) - sum.sharpness(at: t, left: left)))
                    }))
            }
        }
        let intensityControl = HapticControlTrack(.hapticIntensityControl, pattern: result)
        let sharpnessControl = HapticControlTrack(.hapticSharpnessControl, pattern: result)
        var intensityNotches: [Double] = [], sharpnessNotches: [Double] = []
        for event in events where event.intensityEnvelope == nil && event.sharpnessEnvelope == nil {
            var compensated = event
            if event.type.isHaptic {
                let gain = intensityControl.value(at: event.time)
                let intensity = gain > 0 ? event.intensity / gain : event.intensity
                let sharpness = event.sharpness - sharpnessControl.value(at: event.time)
                let transient = event.type == .hapticTransient
                if transient && (intensity > 1 + 1e-12 || (gain <= 0 && event.intensity > 0)) {
                    intensityNotches.append(event.time)  // no value of its own compensates
                } else {
                    compensated.parameters[.hapticIntensity] = min(1, intensity)
                }
                if transient && !(-1e-12...(1 + 1e-12)).contains(sharpness) {
                    sharpnessNotches.append(event.time)
                } else {
                    compensated.parameters[.hapticSharpness] = clamp01(sharpness)
                }
            }
            result.events.append(compensated)
        }
        // What is left (transients outside the shaped events' spans, a piece shared by
        // transients closer than its ramp): the curves made here go neutral at an instant.
        let times = transients.map(\.time)
        for k in parameterCurves.count..<result.parameterCurves.count {
            let curve = result.parameterCurves[k]
            let intensity = curve.id == .hapticIntensityControl
            let notches = intensity ? intensityNotches : sharpnessNotches
            if !notches.isEmpty {
                result.parameterCurves[k] = curve.notched(at: notches, keeping: times, neutral: intensity ? 1 : 0)
            }
        }
        result.events = result.events.stableSorted { $0.time < $1.time }
        result.parameterCurves = result.parameterCurves.stableSorted { $0.time < $1.time }
        return result
    }

    /// How far the continuous track compiled from ``ahapCompatible()`` may stray from the
    /// original's (intensity, and sharpness where the intensity is not 0).
    public static let ahapCompatibleTolerance = 0.01

    /// The one sharpness σ for a plain event under `target` (its sharpness envelope, absolute
    /// times) that lets transients be compensated (σ + transient − target in 0…1): 0 when it
    /// can, else the lowest that suits them, in time order, leaving out those that conflict.
    static func commonSharpness(for transients: [HapticEvent], under target: PiecewiseLinear) -> Double {
        var low = 0.0, high = 1.0
        for t in transients {
            let need = target.value(at: t.time) - t.sharpness  // σ ≥ need and σ ≤ 1 + need
            if need > high || 1 + need < low { continue }
            low = max(low, need)
            high = min(high, 1 + need)
        }
        return low
    }

    /// One piece of a split plain event: its span, intensity and sharpness.
    struct Piece {
        var start: Double
        var end: Double
        var level: Double
        var sharpness: Double
    }

    /// The plain event over `start…end` cut into pieces: fillers (level 1, sharpness
    /// `filler`) and, for each cluster of transient `times` (closer than `attack`), a piece of
    /// the lowest `level` among them and the `sharpness` at the first, fully crossfaded in
    /// (after `attack`) at the first and lasting to the last. Between two clusters less than
    /// two ramps apart there is no filler: the piece of the quieter one holds across.
    /// (Overlapping pieces would climb back faster, but the one that ends first would leave
    /// a tail under a control made for both.)
    static func pieces(start: Double, end: Double, around times: [Double], attack: Double,
                       level: (Double) -> Double, sharpness: (Double) -> Double, filler: Double) -> [Piece] {
        var clusters: [(first: Double, last: Double, level: Double, sharpness: Double)] = []
        for t in times.sorted() {
            if let c = clusters.last, t - c.last < attack - 1e-9 {
                clusters[clusters.count - 1].last = t
                clusters[clusters.count - 1].level = min(c.level, level(t))
            } else {
                clusters.append((t, t, level(t), sharpness(t)))
            }
        }
        var pieces: [Piece] = []
        for (j, c) in clusters.enumerated() {
            let from: Double
            if j == 0 {
                from = max(start, c.first - attack)
                if from > start { pieces.append(Piece(start: start, end: from, level: 1, sharpness: filler)) }
            } else {
                let previous = clusters[j - 1]
                let k = pieces.count - 1
                if c.first - previous.last >= 2 * attack - 1e-9 {
                    pieces[k].end = previous.last
                    from = c.first - attack
                    pieces.append(Piece(start: previous.last, end: from, level: 1, sharpness: filler))
                } else if c.level >= previous.level && pieces[k].start < previous.last {
                    pieces[k].end = previous.last  // rising: crossfade right after the last one
                    from = previous.last
                } else {
                    from = c.first - attack  // falling: hold the last one's level until the ramp
                    pieces[k].end = from
                }
            }
            if c.last == start {
                clusters[j].last = min(end, start + 1e-4)  // an event needs a length
            }
            pieces.append(Piece(start: from, end: clusters[j].last, level: c.level, sharpness: c.sharpness))
        }
        if let last = pieces.indices.last {
            if pieces[last].end < end { pieces.append(Piece(start: pieces[last].end, end: end, level: 1, sharpness: filler)) }
        } else {
            pieces.append(Piece(start: start, end: end, level: 1, sharpness: filler))
        }
        return pieces.filter { $0.end > $0.start || pieces.count == 1 }
    }
}

/// What split pieces play together (absolute time), as if the first had no attack (unless
/// it is a transient's piece) and the last no release (the plain event's own edges, which
/// the original did not have either):
/// the sum of their levels, their intensity-weighted sharpness (where nothing sounds, the
/// latest started one's, as the compiler holds it), and the intensity control that makes
/// them play `gain` — given that a piece's release tail keeps the control it ended with.
struct PieceSum {
    let pieces: [HapticPattern.Piece]
    /// Each piece's level until its end, and its release tail from its end.
    let bodies: [PiecewiseLinear]
    let tails: [PiecewiseLinear]
    let gain: PiecewiseLinear
    /// The intensity control at each piece's end (left limit), which its tail keeps.
    private(set) var heldControl: [Double] = []
    let end: Double

    init(_ pieces: [HapticPattern.Piece], gain: PiecewiseLinear, attack: Double, release: Double) {
        self.pieces = pieces
        self.gain = gain
        end = pieces.last?.end ?? 0
        var bodies: [PiecewiseLinear] = [], tails: [PiecewiseLinear] = []
        for (k, piece) in pieces.enumerated() {
            // The first piece rises as the original did (at once), unless it is a
            // transient's (its control must be neutral there) or ends before its ramp would:
            // those count their real ramp.
            let span = piece.end - piece.start
            let rise = k == 0 && piece.level == 1 && span >= attack ? 0 : attack, fall = k == pieces.count - 1 ? 0 : release
            let peak = piece.level * (rise > span ? span / rise : 1)
            bodies.append(PiecewiseLinear([HapticControlPoint(time: piece.start, value: 0),
                                           HapticControlPoint(time: piece.start + min(rise, span), value: peak),
                                           HapticControlPoint(time: piece.end, value: peak)], outside: .zero))
            tails.append(PiecewiseLinear(fall > 0 ? [HapticControlPoint(time: piece.end, value: peak),
                                                     HapticControlPoint(time: piece.end + fall, value: 0)] : [], outside: .zero))
        }
        self.bodies = bodies
        self.tails = tails
        for piece in pieces { heldControl.append(control(at: piece.end, left: true)) }
    }

    func level(at t: Double, left: Bool) -> Double {
        bodies.reduce(0) { $0 + $1.value(at: t, left: left) } + tails.reduce(0) { $0 + $1.value(at: t, left: left) }
    }

    /// The intensity control that plays `gain` at `t`: (gain − the tails at their held
    /// controls) ÷ the bodies; 1 where no body sounds.
    /// Where a piece ends and the next has not risen yet, the value from before (a curve
    /// is continuous there: the ended piece's tail keeps it).
    func control(at t: Double, left: Bool) -> Double {
        var body = bodies.reduce(0) { $0 + $1.value(at: t, left: left) }
        var left = left
        if body <= 1e-9 && !left {
            left = true
            body = bodies.reduce(0) { $0 + $1.value(at: t, left: true) }
        }
        guard body > 1e-9 else { return 1 }
        var held = 0.0
        for (k, tail) in tails.enumerated() where k < heldControl.count { held += tail.value(at: t, left: left) * heldControl[k] }
        return clamp01((gain.value(at: t, left: left) - held) / min(body, 1))
    }

    func sharpness(at t: Double, left: Bool) -> Double {
        var sum = 0.0, weighted = 0.0
        for (k, piece) in pieces.enumerated() where piece.level > 0 {
            let v = bodies[k].value(at: t, left: left) + tails[k].value(at: t, left: left)
            sum += v
            weighted += v * piece.sharpness
        }
        if sum > 1e-12 { return weighted / sum }
        return pieces.last { $0.start <= t && $0.level > 0 }?.sharpness ?? pieces.first { $0.level > 0 }?.sharpness ?? 0
    }

    /// A control curve (times relative to `start`) with `value` at each of `target`'s points
    /// (steps kept), at the pieces' corners, and, where the pieces crossfade, at as many more
    /// instants as keep linear pieces of it within 2·10⁻³ of `value` (weighted by the level).
    func controlPoints(following target: PiecewiseLinear, from start: Double,
                       _ value: (Double, Bool) -> Double) -> [HapticControlPoint] {
        // A step (two points at one time) keeps its two sides.
        var points = target.points.indices.map { k in
            let t = target.points[k].time
            let step = k + 1 < target.points.count && target.points[k + 1].time == t
            return HapticControlPoint(time: t, value: value(t, step || t == end))
        }
        if pieces.count > 1 || pieces.first?.level != 1 {
            let own = Set(target.points.map(\.time))
            let first = target.points.first?.time ?? start
            let corners = (bodies + tails).flatMap { $0.points.map(\.time) }
            let knots = Set(corners).union(own).filter { $0 >= first && $0 <= end }.sorted()
            var extra = knots.filter { !own.contains($0) }
            func refine(_ a: Double, _ b: Double, depth: Int) {
                let m = (a + b) / 2
                let chord = (value(a, false) + value(b, true)) / 2
                guard depth < 16, abs(chord - value(m, false)) * max(level(at: m, left: false), 1e-3) > 2e-3 else { return }
                refine(a, m, depth: depth + 1)
                extra.append(m)
                refine(m, b, depth: depth + 1)
            }
            for (a, b) in zip(knots, knots.dropFirst()) where level(at: a, left: false) != level(at: b, left: true) {
                refine(a, b, depth: 0)
            }
            points += extra.map { HapticControlPoint(time: $0, value: value($0, $0 == end)) }
        }
        return points.stableSorted { $0.time < $1.time }.map { HapticControlPoint(time: $0.time - start, value: $0.value) }
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

    /// The curve with `neutral` at each of `times` (absolute) from its first point on, reached
    /// by a ramp from `notchSeconds` before and left by one to `notchSeconds` after (less
    /// where notches, the `others` kept as they are (absolute), or the span's ends are closer;
    /// past the last point a window still closes); elsewhere the same function.
    func notched(at times: [Double], keeping others: [Double] = [], neutral: Double) -> HapticParameterCurve {
        guard let first = controlPoints.first, let last = controlPoints.last else { return self }
        let centres = times.map { $0 - time }.filter { $0 >= first.time }.sorted()
        guard !centres.isEmpty else { return self }
        var windows: [(from: Double, centre: Double, to: Double)] = []
        let neighbours = Set(centres + others.map { $0 - time }).sorted()
        for c in centres {
            let before = neighbours.last { $0 < c }.map { (c - $0) / 2 } ?? .infinity
            let after = neighbours.first { $0 > c }.map { ($0 - c) / 2 } ?? .infinity
            let from = max(first.time, c - min(Self.notchSeconds, before))
            // Past the last point (where the event has ended) the window still closes.
            let to = c > last.time ? c + min(Self.notchSeconds, after) : min(last.time, c + min(Self.notchSeconds, after))
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
