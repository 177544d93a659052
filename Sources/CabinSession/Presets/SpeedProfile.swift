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

/// A small seeded PRNG so a preset with the same options gives the same document.
struct PresetRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E3779B97F4A7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range`.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
    }
}
