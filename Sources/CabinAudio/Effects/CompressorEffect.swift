/// A bus compressor: feed-forward, stereo-linked peak detection, a soft knee, attack and
/// release, and make-up gain — what evens out spoken prompts so that a quiet syllable is not
/// lost under the bed while the loud ones do not drive the limiter.
///
/// - Detector: the louder channel's absolute sample (both channels get the same gain, so the
///   stereo image stays put), in dBFS.
/// - Gain computer (Giannoulis, Massberg & Reiss, "Digital Dynamic Range Compressor Design",
///   JAES 2012, eq. 4): below `threshold − knee/2` no reduction; above `threshold + knee/2`
///   the level over the threshold is divided by `ratio`; in between a quadratic joins them.
///   A steady signal whose peak is at L dBFS is turned down by `staticReduction(level: L)`.
/// - Ballistics, on the reduction in dB: a peak hold that decays with the release time
///   constant, followed by a smoother that rises with the attack time constant and falls at
///   once — so a step up reaches 1 − 1/e (63 %) of its reduction after `attack`, and a step
///   down gives back 63 % of it after `release`, each exactly one-pole.
/// - Make-up gain after the reduction, in dB.
/// - Transparent when idle: while nothing reaches the knee, nothing is held and make-up is
///   0 dB, the samples pass untouched, bit for bit.
///
/// Parameters (`declaration`): 0 threshold (dBFS, main), 1 ratio, 2 attack (s), 3 release
/// (s), 4 knee (dB), 5 make-up (dB). A cue moves any of them linearly over its frames;
/// derived coefficients are recomputed per sample while one moves (through `MixerMath`).
///
/// Thread: see `BusEffect` — made on the control thread, then render thread only.
public final class CompressorEffect: BusEffect {
    /// The parameter index of the threshold (dBFS), the main parameter.
    public static let thresholdParameter = 0
    /// The parameter index of the ratio (dB in over the threshold per dB out).
    public static let ratioParameter = 1
    /// The parameter index of the attack (seconds for 63 % of a reduction).
    public static let attackParameter = 2
    /// The parameter index of the release (seconds to give 63 % of a reduction back).
    public static let releaseParameter = 3
    /// The parameter index of the knee's width (dB).
    public static let kneeParameter = 4
    /// The parameter index of the make-up gain (dB).
    public static let makeupParameter = 5

    /// What documents call it: `compressor`, threshold its main parameter.
    public static let declaration = BusEffectDeclaration(
        key: "compressor",
        meaning: "a compressor: feed-forward, stereo-linked peak detector, soft knee; evens out a bus's level (spoken prompts)",
        parameters: [
            EffectParameter("threshold", unit: .decibels, range: -60...0, default: -18,
                            meaning: "peak level (dBFS, before the bus gain) above which it turns down"),
            EffectParameter("ratio", unit: .ratio, range: 1...20, default: 3,
                            meaning: "dB in over the threshold per dB out (3: 3:1; 1: no compression)"),
            EffectParameter("attack", unit: .seconds, range: 0.0001...0.5, default: 0.005,
                            meaning: "time for 63 % of a reduction"),
            EffectParameter("release", unit: .seconds, range: 0.005...5, default: 0.12,
                            meaning: "time to give 63 % of a reduction back"),
            EffectParameter("knee", unit: .decibels, range: 0...24, default: 6,
                            meaning: "width of the soft knee around the threshold"),
            EffectParameter("makeup", unit: .decibels, range: 0...24, default: 0,
                            meaning: "gain after the reduction"),
        ]
    ) { Description(parameters: $0) }

    /// A compressor's settings, by parameter index (see `declaration`).
    ///
    /// Thread: a plain value; control thread.
    public struct Description: BusEffectDescription {
        public var parameters: [Double]

        /// Values by index; missing ones take their defaults, each clamped to its range.
        public init(parameters: [Double]) {
            let declared = CompressorEffect.declaration.parameters
            self.parameters = declared.indices.map { i in
                declared[i].clamped(i < parameters.count ? parameters[i] : declared[i].defaultValue)
            }
        }

        /// Settings by name, in the parameters' units (dBFS, ratio, seconds, seconds, dB,
        /// dB), each clamped to its range as ``init(parameters:)`` does.
        public init(threshold: Double = -18, ratio: Double = 3, attack: Double = 0.005, release: Double = 0.12,
                    knee: Double = 6, makeup: Double = 0) {
            self.init(parameters: [threshold, ratio, attack, release, knee, makeup])
        }

        public func makeEffect() -> any BusEffect { CompressorEffect(parameters: parameters) }
    }

    /// The reduction in dB (≥ 0) of the static curve for a level of `level` dBFS.
    ///
    /// Render thread: safe.
    @inline(__always)
    public static func staticReduction(level: Double, threshold: Double, ratio: Double, knee: Double) -> Double {
        kneeReduction(over: level - threshold, slope: 1 - 1 / ratio, knee: knee)
    }

    private var threshold: Ramp, ratio: Ramp, attack: Ramp, release: Ramp, knee: Ramp, makeup: Ramp
    /// Each parameter's declared range, by index (read from `declaration` when made, so a cue
    /// is clamped on the render thread without touching the declaration's arrays).
    private let lowest: SIMD8<Double>, highest: SIMD8<Double>
    private var sampleRate = 48_000.0
    // Derived from the parameters (`derive()`).
    private var slope = 0.0, kneeStart = 0.0, attackCoefficient = 0.0, releaseCoefficient = 0.0, makeupGain = 1.0
    /// The held reduction (dB), decaying with the release.
    private var held = 0.0
    /// The applied reduction (dB): `held`, reached with the attack.
    private var applied = 0.0

    /// A compressor with `parameters` by index, each clamped to its declared range.
    public init(parameters: [Double]) {
        let p = Description(parameters: parameters).parameters
        threshold = Ramp(p[0]); ratio = Ramp(p[1]); attack = Ramp(p[2])
        release = Ramp(p[3]); knee = Ramp(p[4]); makeup = Ramp(p[5])
        var lowest = SIMD8<Double>(), highest = SIMD8<Double>()
        for (i, parameter) in CompressorEffect.declaration.parameters.enumerated() {
            lowest[i] = parameter.range.lowerBound
            highest[i] = parameter.range.upperBound
        }
        (self.lowest, self.highest) = (lowest, highest)
    }

    /// The reduction being applied now, in dB (≥ 0).
    public var reduction: Double { applied }

    public func prepare(sampleRate: Double, maximumBlockFrames: Int) {
        self.sampleRate = sampleRate
        derive()
    }

    public var hasTail: Bool {
        #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
        @_noAllocation @_noLocks
        #endif
        get {
            // (No `&&`/`||` on properties: their autoclosures would retain `self`.)
            if held != 0 { return true }
            if applied != 0 { return true }
            return isMoving
        }
    }

    private var isMoving: Bool {
        @inline(__always) get {
            if threshold.isActive { return true }
            if ratio.isActive { return true }
            if attack.isActive { return true }
            if release.isActive { return true }
            if knee.isActive { return true }
            return makeup.isActive
        }
    }

    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public func setParameter(_ index: Int, to value: Double, overFrames frames: Int64) {
        guard !value.isNaN, index >= 0, index < 6 else { return }
        let clamped = min(max(value, lowest[index]), highest[index])
        switch index {
        case 0: threshold.start(to: clamped, frames: frames)
        case 1: ratio.start(to: clamped, frames: frames)
        case 2: attack.start(to: clamped, frames: frames)
        case 3: release.start(to: clamped, frames: frames)
        case 4: knee.start(to: clamped, frames: frames)
        default: makeup.start(to: clamped, frames: frames)
        }
        derive()
    }

    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    public func process(_ samples: UnsafeMutablePointer<Float>, frameCount n: Int) {
        for i in 0..<n {
            if isMoving {
                _ = threshold.next(); _ = ratio.next(); _ = attack.next()
                _ = release.next(); _ = knee.next(); _ = makeup.next()
                derive()
            }
            let xl = samples[2 * i], xr = samples[2 * i + 1]
            let peak = Double(max(abs(xl), abs(xr)))
            var target = 0.0
            if peak > kneeStart {
                let level = MixerMath.log(peak) * decibelsPerNeper
                target = kneeReduction(over: level - threshold.value, slope: slope, knee: knee.value)
            }
            let decayed = releaseCoefficient * held + (1 - releaseCoefficient) * target
            held = target > decayed ? target : decayed
            if held < settledReduction { held = 0 }
            if held > applied {
                applied = attackCoefficient * applied + (1 - attackCoefficient) * held
            } else {
                applied = held
            }
            if applied == 0 {
                if makeupGain == 1 { continue }
                samples[2 * i] = Float(Double(xl) * makeupGain)
                samples[2 * i + 1] = Float(Double(xr) * makeupGain)
            } else {
                let g = MixerMath.gain(decibels: makeup.value - applied)
                samples[2 * i] = Float(Double(xl) * g)
                samples[2 * i + 1] = Float(Double(xr) * g)
            }
        }
    }

    /// Coefficients from the parameters' current values. A coefficient for time constant τ
    /// is e^(−1/(τ·rate)): a one-pole step response reaches 1 − 1/e after τ.
    @inline(__always)
    private func derive() {
        slope = 1 - 1 / ratio.value
        // Below this peak (linear) the knee has not started: no reduction, no logarithm.
        kneeStart = MixerMath.gain(decibels: threshold.value - knee.value / 2)
        attackCoefficient = MixerMath.exp(-1 / (attack.value * sampleRate))
        releaseCoefficient = MixerMath.exp(-1 / (release.value * sampleRate))
        makeupGain = makeup.value == 0 ? 1 : MixerMath.gain(decibels: makeup.value)
    }
}

// Constants and the curve for the render path as globals: naming the class's statics there
// would trip the compiler's metadata and lazy-initialization checks.
/// 20 / ln 10: ln(x) × this = 20 log₁₀(x).
private var decibelsPerNeper: Double { 8.685889638065035 }
/// A held reduction below this (dB) has ended: a gain of 1 − 1.2e-8, which leaves every
/// Float sample as it was, so the compressor is transparent again once it has released.
private var settledReduction: Double { 1e-7 }

/// The soft-knee gain computer's reduction (dB, ≥ 0) for a level `over` dB above the
/// threshold; `slope` = 1 − 1/ratio.
@inline(__always)
private func kneeReduction(over: Double, slope: Double, knee: Double) -> Double {
    if 2 * over <= -knee { return 0 }
    if 2 * over < knee {
        let x = over + knee / 2
        return slope * x * x / (2 * knee)
    }
    return slope * over
}
