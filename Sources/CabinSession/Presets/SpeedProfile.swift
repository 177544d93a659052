/// The speed of a drive over time, as the `set speed` ramps that make it, so the miles
/// driven (speed × time) can be known in advance and the announcements agree.
struct SpeedProfile {
    /// Ramps in time order: at `time`, move linearly to `to` (mph) over `over` seconds.
    private(set) var ramps: [(time: Double, to: Double, over: Double)] = []

    mutating func ramp(at time: Double, to: Double, over: Double) {
        ramps.append((time, to, over))
        ramps.sort { $0.time < $1.time }
    }

    /// Speed (mph) at `t`.
    func speed(at t: Double) -> Double {
        var v = 0.0
        for r in ramps where r.time <= t {
            let start = v
            if r.over <= 0 || t >= r.time + r.over { v = r.to } else {
                v = start + (r.to - start) * (t - r.time) / r.over
            }
        }
        return v
    }

    /// Miles driven from 0 to `t` (trapezoidal integration at 1 s).
    func miles(until t: Double) -> Double {
        var total = 0.0
        var s = 0.0
        while s < t {
            let step = min(1, t - s)
            total += (speed(at: s) + speed(at: s + step)) / 2 * step / 3600
            s += step
        }
        return total
    }

    /// The first time (to the second) at which `miles` have been driven, if before `limit`.
    func time(atMiles target: Double, limit: Double) -> Double? {
        var total = 0.0
        var s = 0.0
        while s < limit {
            total += (speed(at: s) + speed(at: s + 1)) / 2 / 3600
            s += 1
            if total >= target { return s }
        }
        return nil
    }
}

import CabinAudio

/// Presets draw from a seeded generator, so the same options give the same document.
typealias PresetRandom = SeededRandom
