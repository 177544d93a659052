import Glibc

/// A scatter: one-shots drawn at random from a set of assets, at random (Poisson) times,
/// each with its own gain, pan and pitch drawn from ranges — passing cars, horns, thunder,
/// birds, an engine's sputters — so a bed never repeats. Played as a layer's source
/// (`.scatter(id)`), it sounds until stopped, follows the layer's gain, fades and ducking,
/// and is seeded: the same seed gives the same events to the sample at any block size.
///
/// Events: the gap to the next is drawn at a rate drawn for each gap from `eventsPerMinute`:
/// exponential (a Poisson process: events that cluster and leave holes, as traffic or birds
/// do) with `.random` spacing, or uniform from 0 to twice the mean gap with `.even` (as many
/// events, a third of the variance and no hole over twice the mean: a bed of overlapping
/// pieces of a loop keeps its level as a recording does, where Poisson-spaced pieces left it
/// dips of 10 LU); each event picks a sound (never the one just played when
/// there are several), a gain in dB, a pan (−1 left … 1 right, equal-power) and a pitch in
/// semitones (the sound plays faster or slower, cubic-Hermite read). At most
/// `ScatterConfig.maximumOverlap` sounds overlap; an event that finds them all busy is
/// skipped (its randomness still drawn, so the rest of the sequence stays the same). Each
/// sound fades in and out over 10 ms at its ends, so a piece cut from a loop plays without
/// a step.
///
/// Thread: a value; control thread (register with `MixerConfig.addScatter`).
public struct ScatterConfig: Sendable, Equatable {
    /// Sounds overlapping at most (a preallocated grain per slot).
    public static let maximumOverlap = 8

    /// How the gaps between events are drawn.
    public enum Spacing: String, Sendable, Equatable, CaseIterable {
        /// Exponential gaps (a Poisson process): events cluster and leave holes.
        case random
        /// Gaps uniform from 0 to twice the mean: a steadier density of events.
        case even
    }

    /// The assets an event picks from (not empty).
    public var sounds: [AssetID]
    /// The range each gap's rate is drawn from, in events a minute (lower bound > 0).
    public var eventsPerMinute: ClosedRange<Double>
    /// The range each event's gain is drawn from, in dB (default 0…0).
    public var gain: ClosedRange<Double>
    /// The range each event's pan is drawn from, −1 left … 1 right (default 0…0, centred;
    /// clamped to −1…1).
    public var pan: ClosedRange<Double>
    /// The range each event's pitch is drawn from, in semitones (default 0…0).
    public var pitch: ClosedRange<Double>
    /// How the gaps are drawn (default `.random`).
    public var spacing: Spacing
    /// The seed of the draws: the same seed gives the same events.
    public var seed: UInt64

    /// A scatter of `sounds` with the given ranges (see each property); `sounds` must not be
    /// empty and the rate's lower bound must be above 0 (preconditions).
    public init(sounds: [AssetID], eventsPerMinute: ClosedRange<Double>, gain: ClosedRange<Double> = 0...0,
                pan: ClosedRange<Double> = 0...0, pitch: ClosedRange<Double> = 0...0, spacing: Spacing = .random,
                seed: UInt64 = 1) {
        precondition(!sounds.isEmpty && eventsPerMinute.lowerBound > 0, "a scatter needs sounds and a positive rate")
        self.sounds = sounds
        self.eventsPerMinute = eventsPerMinute
        self.gain = gain
        self.pan = max(-1, pan.lowerBound)...min(1, pan.upperBound)
        self.pitch = pitch
        self.spacing = spacing
        self.seed = seed
    }
}

/// A small, fast, seeded generator (SplitMix64): the scatter's randomness on the render
/// thread (no allocation, no state beyond one word).
struct ScatterRandom: BitwiseCopyable {
    var state: UInt64

    @inline(__always) mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    @inline(__always) mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    @inline(__always) mutating func uniform(_ r: Span) -> Double {
        r.low + (r.high - r.low) * unit()
    }

    /// A range as the render thread keeps it (`ClosedRange` is not bitwise-copyable).
    struct Span: BitwiseCopyable {
        var low: Double
        var high: Double
        init(_ r: ClosedRange<Double>) {
            low = r.lowerBound
            high = r.upperBound
        }
    }
}

/// The mixer's scatters: each one's settings and running state (random generator, frames to
/// the next event, the sounds playing), preallocated when the mixer is made.
///
/// Thread: built on the control thread; afterwards the slots belong to the render thread.
final class ScatterTable: @unchecked Sendable {
    // @unchecked Sendable: written in `init`, then only by the render thread that owns the
    // mixer; freed in `deinit`, when no thread holds it.

    /// One sound of a scatter while it plays.
    struct Grain: BitwiseCopyable {
        var asset: Int32 = -1
        var position: Double = 0
        var step: Double = 1
        var gainLeft: Float = 0
        var gainRight: Float = 0
    }

    struct Slot: BitwiseCopyable {
        var sounds: UnsafeMutablePointer<Int32>
        var soundCount: Int
        var rate: ScatterRandom.Span
        var gain: ScatterRandom.Span
        var pan: ScatterRandom.Span
        var pitch: ScatterRandom.Span
        var isEven: Bool
        var seed: UInt64
        var random = ScatterRandom(state: 0)
        /// Frames until the next event.
        var countdown: Int = 0
        var last: Int = -1
        var grains: UnsafeMutablePointer<Grain>
        /// The serial of the voice playing the scatter: the last one started on it (a voice
        /// started again while the last still fades out takes it over; the old one ends).
        var owner: Int64 = -1
    }

    let slots: UnsafeMutableBufferPointer<Slot>
    let count: Int
    let sampleRate: Double

    init(scatters: [ScatterConfig], sampleRate: Double) {
        count = scatters.count
        self.sampleRate = sampleRate
        slots = .allocate(capacity: max(1, scatters.count))
        for (i, s) in scatters.enumerated() {
            let sounds = UnsafeMutablePointer<Int32>.allocate(capacity: s.sounds.count)
            for (k, id) in s.sounds.enumerated() { (sounds + k).initialize(to: id.index) }
            let grains = UnsafeMutablePointer<Grain>.allocate(capacity: ScatterConfig.maximumOverlap)
            grains.initialize(repeating: Grain(), count: ScatterConfig.maximumOverlap)
            slots.baseAddress!.advanced(by: i).initialize(to: Slot(
                sounds: sounds, soundCount: s.sounds.count, rate: .init(s.eventsPerMinute), gain: .init(s.gain),
                pan: .init(s.pan), pitch: .init(s.pitch), isEven: s.spacing == .even, seed: s.seed, grains: grains))
        }
    }

    deinit {
        for i in 0..<count {
            slots[i].sounds.deallocate()
            slots[i].grains.deallocate()
        }
        slots.deallocate()
    }
}

extension ScatterTable.Slot {
    /// Starts the scatter afresh for a voice started with serial `serial`: the sequence is
    /// the seed's, and differs for each start of the layer. Render thread: safe.
    @inline(__always)
    mutating func processRestart(serial: Int64, sampleRate: Double) {
        random = ScatterRandom(state: seed ^ (UInt64(bitPattern: serial) &* 0x2545_F491_4F6C_DD1D))
        owner = serial
        last = -1
        for g in 0..<ScatterConfig.maximumOverlap { grains[g].asset = -1 }
        countdown = processGap(sampleRate: sampleRate)
    }

    /// Frames to the next event at a rate drawn from the range: exponential, or uniform from
    /// 0 to twice the mean when even. Render thread: safe.
    @inline(__always)
    mutating func processGap(sampleRate: Double) -> Int {
        let perMinute = random.uniform(rate)
        let draw = random.unit()
        let seconds = (isEven ? 2 * draw : -MixerMath.log(1 - draw)) * 60 / perMinute
        return max(1, Int(min(seconds, 86_400) * sampleRate))
    }
}
