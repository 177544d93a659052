/// The speed of a drive over time, as the `set speed` ramps that make it, so the miles
/// driven (speed × time) can be known in advance and the announcements agree.
///
/// A ramp moves from the speed at its start (wherever an earlier ramp had got to) to its
/// target, linearly, as the mixer's `set` does.
struct SpeedProfile {
    /// Ramps in time order: at `time`, move linearly to `to` (mph) over `over` seconds.
    private(set) var ramps: [(time: Double, to: Double, over: Double)] = []

    mutating func ramp(at time: Double, to: Double, over: Double) {
        ramps.append((time, to, over))
        ramps.sort { $0.time < $1.time }
    }

    /// Speed (mph) at `t`.
    func speed(at t: Double) -> Double {
        var from = 0.0
        var current: (time: Double, to: Double, over: Double)?
        for r in ramps where r.time <= t {
            if let c = current { from = Self.value(c, from: from, at: r.time) }
            current = r
        }
        return current.map { Self.value($0, from: from, at: t) } ?? 0
    }

    private static func value(_ r: (time: Double, to: Double, over: Double), from: Double, at t: Double) -> Double {
        r.over <= 0 || t >= r.time + r.over ? r.to : from + (r.to - from) * (t - r.time) / r.over
    }

    /// Speeds at every whole second up to `limit`, and the miles driven by each (trapezoids
    /// of 1 s): one pass over the ramps, for the announcements' many questions.
    func track(until limit: Double) -> Track {
        let seconds = Int(limit.rounded(.up))
        var speeds = [Double](repeating: 0, count: seconds + 1)
        var next = 0, from = 0.0
        var current: (time: Double, to: Double, over: Double)?
        for s in 0...seconds {
            let t = Double(s)
            while next < ramps.count && ramps[next].time <= t {
                if let c = current { from = Self.value(c, from: from, at: ramps[next].time) }
                current = ramps[next]
                next += 1
            }
            speeds[s] = current.map { Self.value($0, from: from, at: t) } ?? 0
        }
        var miles = [0.0]
        for s in 1...max(1, seconds) where s < speeds.count { miles.append(miles[s - 1] + (speeds[s - 1] + speeds[s]) / 2 / 3600) }
        return Track(profile: self, speeds: speeds, miles: miles)
    }

    /// A profile sampled at whole seconds.
    struct Track {
        let profile: SpeedProfile
        let speeds: [Double]
        /// Miles driven by each whole second.
        let miles: [Double]

        /// Miles driven from 0 to `t`.
        func miles(until t: Double) -> Double {
            let whole = min(Int(t), miles.count - 1)
            let rest = t - Double(whole)
            guard rest > 0 else { return miles[whole] }
            return miles[whole] + (speeds[whole] + profile.speed(at: t)) / 2 * rest / 3600
        }

        /// The first whole second at which `target` miles have been driven, if before `limit`.
        func time(atMiles target: Double, limit: Double) -> Double? {
            var s = 1
            while Double(s - 1) < limit && s < miles.count {
                if miles[s] >= target { return Double(s) }
                s += 1
            }
            return nil
        }
    }
}

import CabinAudio

/// Presets draw from a seeded generator, so the same options give the same document.
typealias PresetRandom = SeededRandom
