/// Intensity and sharpness at `time`: a point of the continuous track
/// (``HapticBreakpoint``: linear between breakpoints; two at the same time are a step) or a
/// transient after controls (``HapticTransientEvent``: a tap with its own intensity and
/// sharpness).
///
/// Thread: a value type; any thread.
public struct HapticPoint: Sendable, Hashable {
    /// Seconds from the pattern's start.
    public var time: Double
    /// Intensity, 0…1.
    public var intensity: Double
    /// Sharpness, 0…1 (0 dull, 1 crisp).
    public var sharpness: Double

    /// A point at `time` seconds with `intensity` and `sharpness` (each 0…1).
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
    /// The continuous track's breakpoints, sorted by time; empty when the pattern has no
    /// continuous event.
    public var breakpoints: [HapticBreakpoint]
    /// The transients after controls, sorted by time; empty when the pattern has none.
    public var transients: [HapticTransientEvent]
    /// The latest haptic event end (continuous end, or transient time), in seconds.
    public var duration: Double
    /// `duration` plus the tail: the last release or transient, whichever ends later.
    public var endTime: Double
    let model: HapticSignalModel
    /// The single pass this loop was made from (``looped()``), or nil: see ``once``.
    var singlePass: SinglePass? = nil

    /// A compile kept by a loop (a class: a struct cannot hold its own type).
    final class SinglePass: Sendable {
        let compiled: CompiledHaptics
        init(_ compiled: CompiledHaptics) { self.compiled = compiled }
    }

    /// The pattern played once from silence: for a loop (``looped()``, and so a pattern
    /// marked `"Loop": "true"` as ``HapticCompiler`` compiles it), the single pass it was
    /// made from — its attack from 0 at its start, its release tail past its period, its
    /// `endTime` past `duration` — and otherwise the pattern itself. What plays a pattern once
    /// from silence and never repeats it takes this: the Android exports (``AndroidWaveform``,
    /// `repeat` -1, and ``AndroidComposition``, which has no repeat), where one period of a
    /// loop would start at its seam's level with no rise and end without its fall.
    public var once: CompiledHaptics { singlePass?.compiled ?? self }

    /// The pattern as one period of a loop (`duration` long): what sounds past `duration` —
    /// the release tails that cross the end, with the control they ended with — is played
    /// over the period's start instead, where the next repeat begins; `endTime` is
    /// `duration`. A release and the attack it overlaps then sum to a seam without a dip
    /// (a loopable texture's 2 ms ramps: 0 → level at its start, level → 0 after its end).
    /// Transients keep their times (a loopable pattern ends none within its tail). A pattern
    /// with nothing past its period (one already looped) is itself.
    public func looped() -> CompiledHaptics {
        let period = duration
        guard period > 0, endTime > period else { return self }
        var sources = model.sources
        for s in model.sources where s.end > period {
            func shifted(_ f: PiecewiseLinear) -> PiecewiseLinear {
                PiecewiseLinear(f.points.map { HapticControlPoint(time: $0.time - period, value: $0.value) }, outside: f.outside)
            }
            sources.append(HapticContinuousSource(
                start: s.start - period, end: s.end - period, tail: s.tail - period,
                intensity: shifted(s.intensity), sharpness: shifted(s.sharpness),
                tailControl: s.tailControl ?? model.intensityControl.value(at: s.tail, left: true)))
        }
        let wrapped = HapticSignalModel(sources: sources.stableSorted { $0.start < $1.start },
                                        intensityControl: model.intensityControl, sharpnessControl: model.sharpnessControl,
                                        intensityScale: model.intensityScale)
        return CompiledHaptics(breakpoints: wrapped.breakpoints(until: period), transients: transients.filter { $0.time < period },
                               duration: period, endTime: period, model: wrapped, singlePass: SinglePass(once))
    }

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
        /// The frame it starts on, from the stream's start (at ``SampledHaptics/sampleRate``).
        public var frame: Int
        /// Its intensity, 0…1.
        public var intensity: Float
        /// Its sharpness, 0…1.
        public var sharpness: Float

        /// A transient on `frame` with `intensity` and `sharpness` (each 0…1).
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

    /// Frames a second of the streams.
    public var sampleRate: Double
    /// Continuous-track intensity per frame, 0…1.
    public var intensity: [Float]
    /// Continuous-track sharpness per frame, 0…1.
    public var sharpness: [Float]
    /// Transients, sorted by frame.
    public var transients: [Transient]

    /// The streams' length in frames (the count of ``intensity``).
    public var frameCount: Int { intensity.count }
}
