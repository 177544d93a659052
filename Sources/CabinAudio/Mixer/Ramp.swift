/// A value moving from `from` to `to` over `length` frames, evaluated from its integer
/// frame count — never by accumulating steps — so it lands on its endpoint on the exact
/// frame and gives the same samples however the blocks are cut.
///
/// Convention: a ramp started at frame N with length L yields, at frame N + k, the value at
/// progress (k + 1) / L; it reaches `to` at frame N + L − 1. Length 0 or 1 is a step.
///
/// Thread: a plain value inside the renderer's state. Render thread: safe.
struct Ramp: BitwiseCopyable {
    enum Shape: UInt8, BitwiseCopyable {
        /// from + (to − from)·t
        case linear
        /// from + (to − from)·sin(t·π/2): the rising half of an equal-power crossfade.
        case equalPowerIn
        /// from + (to − from)·(1 − cos(t·π/2)): the falling half (from·cos(t·π/2) towards
        /// 0). With the rising half, the squared gains sum to 1: −3 dB each at the midpoint.
        case equalPowerOut
    }

    private(set) var value: Double
    private var from: Double
    private(set) var target: Double
    private var length: Int64 = 0
    private var elapsed: Int64 = 0
    private var shape: Shape = .linear

    init(_ value: Double) {
        self.value = value
        from = value
        target = value
    }

    /// True while the ramp has frames left.
    @inline(__always) var isActive: Bool { elapsed < length }

    /// Starts moving from the current value to `target` over `frames` frames.
    mutating func start(to target: Double, frames: Int64, shape: Shape = .linear) {
        from = value
        self.target = target
        self.shape = shape
        elapsed = 0
        length = frames
        if frames <= 1 {
            value = target
            length = 0
        }
    }

    /// Jumps to `value` with no ramp.
    mutating func set(_ value: Double) {
        self.value = value
        from = value
        target = value
        length = 0
        elapsed = 0
    }

    /// The value for the next frame (advancing the ramp).
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func next() -> Double {
        if elapsed >= length { return value }
        elapsed += 1
        evaluate()
        return value
    }

    /// Skips `frames` frames: the same state as calling `next()` that many times.
    mutating func advance(by frames: Int) {
        if elapsed >= length { return }
        elapsed = min(length, elapsed + Int64(frames))
        evaluate()
    }

    /// Sets `value` from `elapsed` (a pure function of the frame count).
    @inline(__always)
    private mutating func evaluate() {
        if elapsed == length {
            value = target
        } else {
            let t = Double(elapsed) / Double(length)
            let shaped: Double
            switch shape {
            case .linear: shaped = t
            case .equalPowerIn: shaped = MixerMath.sine(t * (Double.pi / 2))
            case .equalPowerOut: shaped = 1 - MixerMath.sine((1 - t) * (Double.pi / 2))
            }
            value = from + (target - from) * shaped
        }
    }
}

/// A gain ramped linearly in dB, with its linear factor recomputed only while it moves.
///
/// Silence: dB values are floored at `DecibelRamp.floor` (−120 dB), which means gain 0, so
/// a fade to `Decibels.silence` (−∞) is a real ramp that ends in true silence rather than a
/// jump.
///
/// Thread: a plain value inside the renderer's state. Render thread: safe.
struct DecibelRamp: BitwiseCopyable {
    private var ramp: Ramp
    /// The current linear gain.
    private(set) var gain: Double

    /// Levels at or below this are silence (gain 0).
    static var floor: Double { -120 }

    init(_ decibels: Double) {
        let d = max(decibels, DecibelRamp.floor)
        ramp = Ramp(d)
        gain = DecibelRamp.linear(d)
    }

    @inline(__always) var isActive: Bool { ramp.isActive }
    var decibels: Double { ramp.value }
    /// Where the ramp is going (the value itself when it is not moving).
    var targetDecibels: Double { ramp.target }

    mutating func start(to decibels: Double, frames: Int64) {
        ramp.start(to: max(decibels, DecibelRamp.floor), frames: frames)
        if !ramp.isActive { gain = DecibelRamp.linear(ramp.value) }
    }

    /// The linear gain for the next frame.
    @inline(__always)
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func next() -> Double {
        if !ramp.isActive { return gain }
        gain = DecibelRamp.linear(ramp.next())
        return gain
    }

    /// Skips `frames` frames: the same state as calling `next()` that many times.
    mutating func advance(by frames: Int) {
        if !ramp.isActive { return }
        ramp.advance(by: frames)
        gain = DecibelRamp.linear(ramp.value)
    }

    /// 10^(dB/20), and 0 at or below the floor.
    @inline(__always)
    static func linear(_ decibels: Double) -> Double {
        decibels <= DecibelRamp.floor ? 0 : MixerMath.gain(decibels: decibels)
    }
}
