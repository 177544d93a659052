import Glibc

/// A bus low-pass: 12 dB/octave (one 2-pole Butterworth section, Q = 1/√2, per channel, on
/// `Biquad`), whose cutoff moves without zipper noise.
///
/// - Cutoff: 20 Hz … 20 kHz (`openCutoff`), clamped to 0.45 × the sample rate when filtering.
///   Moves are linear in log-frequency (a constant number of octaves per second) over the
///   frames given, and the coefficients are recomputed on every sample while it moves
///   (through `MixerMath`, so the render path stays free of C calls), so a sweep has no
///   steps.
/// - Open: at 20 kHz or above the effect is bypassed and leaves the samples untouched, bit
///   for bit (a bus with `LowPassEffect(cutoff: 20_000)` renders exactly as one without).
///   Leaving and entering the open state crossfades between the dry and the filtered signal
///   over `crossfadeDuration` (5 ms), so opening or closing never clicks.
/// - Tail: after the input falls silent the filter rings out; a state below 1e-15 (−300 dB)
///   is set to zero, so the tail ends and the bus goes idle.
///
/// Parameter 0 (`cutoffParameter`): the cutoff in Hz.
///
/// Thread: see `BusEffect` — made on the control thread, then render thread only.
public final class LowPassEffect: BusEffect {
    /// The parameter index of the cutoff (Hz).
    public static let cutoffParameter = 0
    /// The lowest cutoff, in Hz.
    public static let lowestCutoff = 20.0
    /// At or above this cutoff (Hz) the filter is open: bypassed, bit-transparent.
    public static let openCutoff = 20_000.0
    /// The Butterworth Q, 1/√2: flat pass band, −3 dB at the cutoff.
    public static var q: Double { butterworthQ }
    /// The dry/filtered crossfade when the filter opens or closes, in seconds.
    public static let crossfadeDuration = 0.005

    /// What documents call it: `lowpass`, one parameter, `cutoff` (Hz), open by default.
    public static let declaration = BusEffectDeclaration(
        key: "lowpass",
        meaning: "a low-pass filter: 12 dB/octave (Butterworth); its cutoff glides evenly in octaves; open (20000) leaves the sound untouched",
        parameters: [EffectParameter("cutoff", unit: .hertz, range: lowestCutoff...openCutoff, default: openCutoff,
                                     meaning: "the cutoff (−3 dB)")]
    ) { Description(cutoff: $0[cutoffParameter]) }

    /// A low-pass at `cutoff` Hz (`openCutoff` or above: open).
    ///
    /// Thread: a plain value; control thread.
    public struct Description: BusEffectDescription {
        /// The cutoff in Hz (clamped to 20 Hz … 20 kHz when the effect is made; 20 kHz or
        /// above: open).
        public var cutoff: Double
        /// A low-pass at `cutoff` Hz.
        public init(cutoff: Double) { self.cutoff = cutoff }

        public var parameters: [Double] {
            get { [cutoff] }
            set { if let c = newValue.first { cutoff = c } }
        }

        public func makeEffect() -> any BusEffect { LowPassEffect(cutoff: cutoff) }

        /// Cutoff moves are geometric (linear in log-frequency).
        public func interpolate(parameter index: Int, from: Double, to: Double, progress: Double) -> Double {
            let a = LowPassEffect.clamped(from), b = LowPassEffect.clamped(to)
            if progress <= 0 { return a }
            if progress >= 1 { return b }
            return Glibc.exp(Glibc.log(a) + (Glibc.log(b) - Glibc.log(a)) * progress)
        }
    }

    private var left = Biquad(), right = Biquad()
    /// ln(cutoff in Hz).
    private var logCutoff: Ramp
    /// 0: dry (open) … 1: filtered.
    private var wet: Ramp
    private var isOpen: Bool
    private var sampleRate = 48_000.0
    private var crossfadeFrames: Int64 = 240
    private let logOpen = MixerMath.log(20_000)

    /// A low-pass at `cutoff` Hz, clamped to 20 Hz … 20 kHz (20 kHz: open).
    public init(cutoff: Double) {
        let c = LowPassEffect.clamped(cutoff)
        logCutoff = Ramp(MixerMath.log(c))
        isOpen = c >= LowPassEffect.openCutoff
        wet = Ramp(isOpen ? 0 : 1)
    }

    static func clamped(_ cutoff: Double) -> Double { clampedCutoff(cutoff) }

    /// The cutoff in Hz now (the moving value while it moves).
    public var cutoff: Double { MixerMath.exp(logCutoff.value) }

    public func prepare(sampleRate: Double, maximumBlockFrames: Int) {
        self.sampleRate = sampleRate
        crossfadeFrames = max(1, Int64((LowPassEffect.crossfadeDuration * sampleRate).rounded()))
        followCutoff()
    }

    public var hasTail: Bool {
        #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
        @_noAllocation @_noLocks
        #endif
        get {
            // (No `&&`/`||` on properties: their autoclosures would retain `self`.)
            if isOpen { return false }
            if logCutoff.isActive { return true }
            if wet.isActive { return true }
            if left.hasState { return true }
            return right.hasState
        }
    }

    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public func setParameter(_ index: Int, to value: Double, overFrames frames: Int64) {
        guard index == 0, !value.isNaN else { return }
        logCutoff.start(to: MixerMath.log(clampedCutoff(value)), frames: frames)
        isOpen = false  // `process` opens it again if it stays open
        if !logCutoff.isActive { followCutoff() }
    }

    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public func process(_ samples: UnsafeMutablePointer<Float>, frameCount n: Int) {
        if isOpen { return }
        for i in 0..<n {
            if logCutoff.isActive {
                _ = logCutoff.next()
                followCutoff()
            }
            let xl = Double(samples[2 * i]), xr = Double(samples[2 * i + 1])
            var yl = left.process(xl), yr = right.process(xr)
            left.flush(below: flushThreshold)
            right.flush(below: flushThreshold)
            let w = wet.isActive ? wet.next() : wet.value
            if w == 0 {
                (yl, yr) = (xl, xr)
            } else if w != 1 {
                yl = xl + (yl - xl) * w
                yr = xr + (yr - xr) * w
            }
            samples[2 * i] = Float(yl)
            samples[2 * i + 1] = Float(yr)
        }
        if wet.value == 0, !wet.isActive, !logCutoff.isActive {
            left.reset()
            right.reset()
            isOpen = true
        }
    }

    /// New coefficients for the current cutoff, and the crossfade's direction: filtered
    /// below `openCutoff`, dry at it.
    @inline(__always)
    private func followCutoff() {
        let hz = MixerMath.exp(logCutoff.value)
        left.setLowPass(frequency: hz, q: butterworthQ, sampleRate: sampleRate)
        right.takeResponse(of: left)
        let target: Double = logCutoff.value < logOpen ? 1 : 0
        if wet.target != target { wet.start(to: target, frames: crossfadeFrames) }
    }
}

// Constants for the render path as computed globals: naming the class's statics there would
// trip the compiler's metadata and lazy-initialization checks.
/// 1/√2.
private var butterworthQ: Double { 0.7071067811865476 }
/// State magnitudes below this (−300 dB) are set to zero: the tail has ended.
private var flushThreshold: Double { 1e-15 }

/// A cutoff within 20 Hz … 20 kHz (NaN: open).
private func clampedCutoff(_ hz: Double) -> Double { hz.isNaN ? 20_000 : min(max(hz, 20), 20_000) }
