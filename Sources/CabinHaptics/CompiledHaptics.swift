/// Intensity and sharpness at `time`: a point of the continuous track
/// (``HapticBreakpoint``: linear between breakpoints; two at the same time are a step) or a
/// transient after controls (``HapticTransientEvent``: a tap with its own intensity and
/// sharpness).
///
/// Thread: a value type; any thread.
public struct HapticPoint: Sendable, Hashable {
    public var time: Double
    public var intensity: Double
    public var sharpness: Double

    public init(time: Double, intensity: Double, sharpness: Double) {
        self.time = time
        self.intensity = intensity
        self.sharpness = sharpness
    }
}

/// One point of the continuous track.
public typealias HapticBreakpoint = HapticPoint
/// A transient after controls.
public typealias HapticTransientEvent = HapticPoint

/// A compiled pattern: the continuous track as time-sorted breakpoints plus time-sorted
/// transients, everything inside 0…``endTime``.
///
/// Breakpoints are exact at every knot (event envelope corners, curve points, steps).
/// Between knots the product of an envelope ramp and a control ramp is not linear, so the
/// breakpoints approximate it linearly; ``value(at:)`` and ``sampled(rate:)`` evaluate the
/// exact model.
///
/// Thread: a value type; any thread.
public struct CompiledHaptics: Sendable {
    public var breakpoints: [HapticBreakpoint]
    public var transients: [HapticTransientEvent]
    /// The latest haptic event end (continuous end, or transient time), in seconds.
    public var duration: Double
    /// `duration` plus the tail: the last release or transient, whichever ends later.
    public var endTime: Double
    let model: HapticSignalModel

    /// Intensity and sharpness of the continuous track at `t` (exact; steps take the new value).
    public func value(at t: Double) -> (intensity: Double, sharpness: Double) {
        var sweep = model.sweeper()
        return sweep.evaluate(t)
    }

    /// The same streams at a fixed rate (default 1 kHz): sample k is time k / rate, for
    /// k = 0…⌊endTime × rate⌋; transients land on frame round(time × rate).
    public func sampled(rate: Double = 1000) -> SampledHaptics {
        let count = endTime > 0 || !transients.isEmpty ? Int((endTime * rate + 1e-9).rounded(.down)) + 1 : 0
        var intensity = [Float](repeating: 0, count: count)
        var sharpness = [Float](repeating: 0, count: count)
        var sweep = model.sweeper()
        for k in 0..<count {
            let v = sweep.evaluate(Double(k) / rate)
            intensity[k] = Float(v.intensity)
            sharpness[k] = Float(v.sharpness)
        }
        let sampledTransients = transients.map {
            SampledHaptics.Transient(frame: Int(($0.time * rate).rounded()), intensity: Float($0.intensity),
                                     sharpness: Float($0.sharpness))
        }
        return SampledHaptics(sampleRate: rate, intensity: intensity, sharpness: sharpness,
                              transients: sampledTransients)
    }
}

/// A compiled pattern sampled at a fixed rate, for devices.
///
/// Thread: a value type; any thread.
public struct SampledHaptics: Sendable, Hashable {
    /// A transient on a frame of the sampled stream.
    public struct Transient: Sendable, Hashable {
        public var frame: Int
        public var intensity: Float
        public var sharpness: Float

        public init(frame: Int, intensity: Float, sharpness: Float) {
            self.frame = frame
            self.intensity = intensity
            self.sharpness = sharpness
        }
    }

    /// Streams made elsewhere (a session's combined haptic signal, in pieces).
    public init(sampleRate: Double, intensity: [Float], sharpness: [Float], transients: [Transient]) {
        self.sampleRate = sampleRate
        self.intensity = intensity
        self.sharpness = sharpness
        self.transients = transients
    }

    public var sampleRate: Double
    /// Continuous-track intensity per frame, 0…1.
    public var intensity: [Float]
    /// Continuous-track sharpness per frame, 0…1.
    public var sharpness: [Float]
    /// Transients, sorted by frame.
    public var transients: [Transient]

    public var frameCount: Int { intensity.count }
}
