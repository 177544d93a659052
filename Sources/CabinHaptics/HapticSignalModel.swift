/// A continuous event ready to evaluate: its intensity envelope (already × intensity, 0
/// outside) and its sharpness (held at the ends), in absolute time.
struct HapticContinuousSource: Sendable {
    var start: Double
    var end: Double
    /// Where the event's release tail begins (its `time + duration`); `end` when it has none.
    /// In the tail the intensity control keeps its value from just before this instant.
    var tail: Double
    var intensity: PiecewiseLinear
    var sharpness: PiecewiseLinear
    /// The control the tail keeps when it is not the one at `tail` (a loop's wrapped tail:
    /// the control where the event really ended).
    var tailControl: Double? = nil
}

/// The exact continuous-track model: sources summed, then the pattern-wide controls.
struct HapticSignalModel: Sendable {
    let sources: [HapticContinuousSource]  // sorted by start
    let intensityControl: HapticControlTrack
    let sharpnessControl: HapticControlTrack
    /// The user's strength (``HapticStrength/intensityScale``), applied last.
    var intensityScale: Double = 1

    func sweeper() -> Sweeper { Sweeper(model: self) }

    /// Breakpoints at every knot in 0…endTime; a step gives two breakpoints at one time.
    func breakpoints(until endTime: Double) -> [HapticBreakpoint] {
        guard !sources.isEmpty else { return [] }
        var times = [0, endTime]
        times.reserveCapacity(2 + sources.reduce(0) { $0 + $1.intensity.points.count + $1.sharpness.points.count })
        for s in sources {
            for p in s.intensity.points { times.append(p.time) }
            for p in s.sharpness.points { times.append(p.time) }
        }
        times += intensityControl.knotTimes + sharpnessControl.knotTimes
        times.sort()
        var result: [HapticBreakpoint] = []
        result.reserveCapacity(times.count + times.count / 4)
        var sweep = sweeper()
        var previous = -Double.infinity
        for t in times where t >= 0 && t <= endTime && t != previous {
            previous = t
            let right = sweep.evaluate(t)
            if t > 0 {
                let left = sweep.evaluate(t, left: true)
                if abs(left.intensity - right.intensity) > 1e-12 || abs(left.sharpness - right.sharpness) > 1e-12 {
                    result.append(HapticBreakpoint(time: t, intensity: left.intensity, sharpness: left.sharpness))
                }
            }
            result.append(HapticBreakpoint(time: t, intensity: right.intensity, sharpness: right.sharpness))
        }
        return result
    }

    /// Evaluates the model at non-decreasing times, keeping only the sounding sources.
    struct Sweeper {
        let model: HapticSignalModel
        var next = 0
        var active: [Int] = []
        var lastTime = -Double.infinity

        init(model: HapticSignalModel) { self.model = model }

        mutating func evaluate(_ t: Double, left: Bool = false) -> (intensity: Double, sharpness: Double) {
            let sources = model.sources
            if t < lastTime {  // time went back: start the sweep again
                next = 0
                active = []
            }
            lastTime = t
            while next < sources.count, sources[next].start <= t {
                active.append(next)
                next += 1
            }
            active.removeAll { sources[$0].end < t }
            var sum = 0.0
            var weighted = 0.0
            var body = 0.0
            var tails = 0.0  // already × the control held from each tail's start
            for i in active {
                let level = sources[i].intensity.value(at: t, left: left)
                sum += level
                weighted += level * sources[i].sharpness.value(at: t, left: left)
                let tail = sources[i].tail
                if level > 0 && (left ? t > tail : t >= tail) && tail < sources[i].end {
                    tails += level * (sources[i].tailControl ?? model.intensityControl.value(at: tail, left: true))
                } else {
                    body += level
                }
            }
            let baseSharpness: Double
            if sum > 0 {
                baseSharpness = weighted / sum
            } else if next > 0 {
                baseSharpness = sources[next - 1].sharpness.value(at: t, left: left)
            } else {
                baseSharpness = sources.first?.sharpness.value(at: t, left: left) ?? 0
            }
            return (clamp01(min(body, 1) * model.intensityControl.value(at: t, left: left) + tails) * model.intensityScale,
                    clamp01(baseSharpness + model.sharpnessControl.value(at: t, left: left)))
        }
    }
}
