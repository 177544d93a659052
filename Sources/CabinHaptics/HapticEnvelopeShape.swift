import Glibc

/// The shape Cabin gives a continuous event: how `AttackTime`, `DecayTime`, `ReleaseTime`
/// and `Sustained` become a piecewise-linear intensity envelope.
///
/// Core Haptics documents the parameters (0…1, "higher values increase the time
/// exponentially", `Sustained` keeps full strength between attack and the event's end) but
/// publishes no seconds. Cabin's choice, documented here and nowhere else:
///
/// - a time parameter v (after adding its `Haptic…TimeControl` value at the event's start,
///   clamped to 0…1) lasts `shortest × (longest / shortest)^v` seconds; defaults 2 ms at
///   v = 0 and 2 s at v = 1 (so the default 0 still ramps, in 2 ms, instead of stepping);
/// - **sustained** (default): linear 0 → I over the attack, hold I until the event's end,
///   then linear I → 0 over the release, *after* the end (the release is the tail);
///   an attack longer than the event stops rising at the end (peak I·duration/attack);
/// - **not sustained**: linear 0 → I over the attack, then linear I → 0 over the decay,
///   all inside the event; if the event ends first, release from the level reached;
/// - transients have no envelope: they are point events (``HapticCompileOptions/transientDuration``
///   long for tails and audio).
///
/// Thread: a value type; any thread.
public struct HapticEnvelopeShape: Sendable, Hashable {
    /// Seconds for a time parameter of 0.
    public var shortest: Double
    /// Seconds for a time parameter of 1.
    public var longest: Double

    /// A shape whose time parameters span `shortest` (at 0) to `longest` (at 1) seconds.
    public init(shortest: Double = 0.002, longest: Double = 2.0) {
        self.shortest = shortest
        self.longest = longest
    }

    /// Cabin's shape: 2 ms at 0, 2 s at 1.
    public static let `default` = HapticEnvelopeShape()

    /// Seconds for a time parameter `v` (clamped to 0…1).
    public func seconds(_ v: Double) -> Double {
        shortest * pow(longest / shortest, min(max(v, 0), 1))
    }

    /// The intensity envelope of a continuous event, as absolute-time knots (0 outside).
    func knots(time t0: Double, duration: Double, intensity: Double, sustained: Bool,
               attack a: Double, decay d: Double, release r: Double) -> [HapticControlPoint] {
        guard duration > 0 else { return [] }
        let t1 = t0 + duration
        var points = [HapticControlPoint(time: t0, value: 0)]
        func release(from level: Double) {
            points.append(HapticControlPoint(time: t1, value: level))
            points.append(HapticControlPoint(time: t1 + r, value: 0))
        }
        if a >= duration {
            release(from: intensity * duration / a)
            return points
        }
        points.append(HapticControlPoint(time: t0 + a, value: intensity))
        if sustained {
            release(from: intensity)
        } else if t0 + a + d <= t1 {
            points.append(HapticControlPoint(time: t0 + a + d, value: 0))
        } else {
            release(from: intensity * (1 - (t1 - t0 - a) / d))
        }
        return points
    }
}

