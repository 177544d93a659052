import Glibc

/// One note of the lo-fi radio (piano, bass or melody), played frame by frame from
/// recurrences instead of a `sin` and an `exp` per term and frame.
///
/// The formulas are the generator's closed forms in the note's own time `t = i / sr`
/// (frame `i` of a note `length` frames long):
///
/// - piano (two-operator FM): `v · e^(−t/1.1) · attack(4 ms) · release · (1 + 0.08 sin 2π4.5t)
///   · sin(w + (0.3 + 1.6 v b e^(−t/0.12)) sin w)`
/// - bass: `e^(−t/decay) · attack(6 ms) · release · (sin w + tone · sin 2w)`
/// - lead (mallet): `v · e^(−t/0.9) · attack(5 ms) · release · (sin(w (1 + vib)) + 0.25 e^(−t/0.12)
///   sin 4w)`, `vib = 0.004 sin(2π5t) · min(1, t/0.4)`
///
/// with `w = 2πf/sr · i` and `release = raisedCosine((length − i)/sr/0.15)`.
///
/// How: every phase that advances steadily is a phasor (cos, sin) rotated by its per-frame
/// step; every decay is multiplied by its per-frame factor; the release ramp is a phasor
/// too. Every `anchorFrames` frames of the note's own time (i = 0, 256, 512, …) each phasor
/// and decay is set afresh from `sin`, `cos` and `exp` of its exact argument, so rounding
/// never builds up past 256 steps (≈ 1e-13) and a frame's value depends only on the note
/// and `i`: the same samples whatever blocks the frames are asked in. The phase that is
/// not steady (the piano's modulator, the lead's vibrato) goes through Taylor polynomials
/// (`sincosWithinTwo` for the piano's modulator, `sincos` with a reduction by π/2 for the
/// vibrato), errors below 1e-15. The ramps (attack, vibrato depth) use the closed
/// forms as they are: only a few hundred frames.
///
/// Against the closed forms, the samples differ by less than 1e-12 of full scale (measured
/// 6e-13; `LofiNoteTests` holds them within 1e-11 of the closed forms, `LofiReference`) —
/// far below a Float's resolution.
///
/// Thread: a value; allocation-free (`render` only reads and writes its own fields).
public struct LofiNote: Sendable {
    /// What the note plays.
    public enum Sound: Sendable {
        /// A two-operator FM electric piano at `hertz`: `velocity` scales its level and, with
        /// `brightness`, the modulation index (see the type's formula); decays with a 1.1 s time constant.
        case piano(hertz: Double, velocity: Double, brightness: Double)
        /// A sine bass at `hertz` plus `tone` times its octave, decaying with time constant
        /// `decay` seconds.
        case bass(hertz: Double, tone: Double, decay: Double)
        /// A mallet melody note at `hertz` with a slow vibrato, its level `velocity`; decays
        /// with a 0.9 s time constant.
        case lead(hertz: Double, velocity: Double)
    }

    /// What the note plays.
    public let sound: Sound
    /// The note's length in frames, its 150 ms release included.
    public let length: Int
    /// Frames a second.
    public let sampleRate: Double
    /// The next frame of the note's own time.
    public private(set) var frame = 0

    static let anchorFrames = 256

    // Steps, fixed for the note.
    private let dw: Double, lfoStep: Double, releaseStep: Double
    private let steps: Steps<Double>
    private let tauA: Double, tauB: Double
    private let releaseStart: Int
    private let attackSeconds: Double
    private let attackEnd: Int

    /// The phasors and decays at `frame`.
    private var state = State<Double>(c: 1, s: 0, lc: 1, ls: 0, rc: 1, rs: 0, a: 1, b: 1)

    /// A note of `sound`, `length` frames long at `sampleRate` frames a second, at its
    /// first frame.
    public init(_ sound: Sound, length: Int, sampleRate sr: Double) {
        self.sound = sound
        self.length = length
        sampleRate = sr
        let f: Double, lfo: Double
        switch sound {
        case .piano(let hertz, _, _):
            f = hertz; lfo = 4.5; tauA = 1.1; tauB = 0.12; attackSeconds = 0.004
        case .bass(let hertz, _, let decay):
            f = hertz; lfo = 0; tauA = decay; tauB = 1; attackSeconds = 0.006
        case .lead(let hertz, _):
            f = hertz; lfo = 5; tauA = 0.9; tauB = 0.12; attackSeconds = 0.005
        }
        dw = 2 * Double.pi * f / sr
        lfoStep = 2 * Double.pi * lfo / sr
        releaseStep = Double.pi / sr / 0.15
        steps = Steps(cos: cos(dw), sin: sin(dw), lfoCos: cos(lfoStep), lfoSin: sin(lfoStep),
                      releaseCos: cos(releaseStep), releaseSin: sin(releaseStep),
                      decayA: exp(-1 / sr / tauA), decayB: exp(-1 / sr / tauB))
        // The first frame whose release argument is below 1 (raisedCosine is 1 before it).
        var r = max(0, length - Int(0.15 * sr) - 2)
        while r < length && Double(length - r) / sr / 0.15 >= 1 { r += 1 }
        releaseStart = r
        var e = 0
        while Double(e) / sr / attackSeconds < 1 { e += 1 }
        attackEnd = e
    }

    /// Sets every phasor and decay from its exact value at `frame`.
    @inline(__always)
    private mutating func anchor() {
        let i = Double(frame), sr = sampleRate
        let t = i / sr
        let w = dw * i
        let l = lfoStep * i
        let x = Double.pi * (Double(length - frame) / sr / 0.15)
        state = State(c: cos(w), s: sin(w), lc: cos(l), ls: sin(l), rc: cos(x), rs: sin(x),
                      a: exp(-t / tauA), b: exp(-t / tauB))
    }

    /// Advances every phasor and decay by one frame.
    @inline(__always)
    private mutating func step() {
        state.step(steps)
        frame += 1
    }

    /// Envelope ends shared by every sound: the attack ramp times the release ramp.
    @inline(__always)
    private func ramps() -> Double { ramps(at: frame, rc: state.rc) }

    /// `ramps` at frame `i`, with `rc` the release phasor's cosine there.
    @inline(__always)
    private func ramps(at i: Int, rc: Double) -> Double {
        var g = 1.0
        if i < attackEnd { g = min(1, Double(i) / sampleRate / attackSeconds) }
        if i >= releaseStart { g *= 0.5 - 0.5 * rc }
        return g
    }

    /// Adds the next `count` frames, times `left` and `right`, into `l` and `r`.
    public mutating func render(count: Int, left gl: Double, right gr: Double,
                                into l: UnsafeMutablePointer<Double>, _ r: UnsafeMutablePointer<Double>) {
        switch sound {
        case .piano(_, let velocity, let brightness):
            let depth = 1.6 * velocity * brightness
            // The modulator's phase stays within ±(0.3 + depth): within ±2 (every note the
            // composer plans), the polynomials need no reduction and no branch.
            let small = rendersInPairs
            for k in 0..<count {
                if frame % Self.anchorFrames == 0 { anchor() }
                let x = state.modulatorPhase(depth: depth)
                let (mc, ms) = small ? LofiNote.sincosWithinTwo(x) : LofiNote.sincos(x)
                let v = state.piano(velocity: velocity, ramps: ramps(), mc, ms)
                l[k] += v * gl
                r[k] += v * gr
                step()
            }
        case .bass(_, let tone, _):
            for k in 0..<count {
                if frame % Self.anchorFrames == 0 { anchor() }
                let (a, s, c) = (state.a, state.s, state.c)
                let v = a * ramps() * (s + tone * (2 * s * c))
                l[k] += v * gl
                r[k] += v * gr
                step()
            }
        case .lead(_, let velocity):
            let rampEnd = Int(0.4 * sampleRate) + 2
            for k in 0..<count {
                if frame % Self.anchorFrames == 0 { anchor() }
                let depth = frame < rampEnd ? min(1, Double(frame) / sampleRate / 0.4) : 1
                let (a, b, s, c) = (state.a, state.b, state.s, state.c)
                let vibrato = 0.004 * state.ls * depth
                // sin(w(1 + vib)) = sin w cos(w·vib) + cos w sin(w·vib); sin 4w from sin w, cos w.
                let (vc, vs) = LofiNote.sincos(dw * Double(frame) * vibrato)
                let s2 = 2 * s * c, c2 = c * c - s * s
                let v = velocity * a * ramps() * ((s * vc + c * vs) + 0.25 * b * (2 * s2 * c2))
                l[k] += v * gl
                r[k] += v * gr
                step()
            }
        }
    }

    /// Whether the note is a piano whose modulator phase stays within ±(0.3 + depth) ≤ 2
    /// (every one the composer plans; depth = 1.6 · velocity · brightness): two such notes
    /// can be rendered together (`render(_:_:…)`).
    public var rendersInPairs: Bool {
        if case .piano(_, let velocity, let brightness) = sound { return 0.3 + 1.6 * velocity * brightness <= 2 }
        return false
    }

    /// Adds the next `count` frames of two pianos that `rendersInPairs`, `x` with gains `gx`
    /// (left, right) and then `y` with `gy`, into `l` and `r`: the samples and sums of
    /// `x.render` then `y.render` over the same frames, to the bit. Each frame is worked out
    /// for both notes at once, one in each lane of a two-double vector (the same operations
    /// in the same order as one note alone), and added note by note.
    public static func render(_ x: inout LofiNote, _ y: inout LofiNote, count: Int,
                              gains gx: (left: Double, right: Double), _ gy: (left: Double, right: Double),
                              into l: UnsafeMutablePointer<Double>, _ r: UnsafeMutablePointer<Double>) {
        guard case .piano(_, let vx, let bx) = x.sound, case .piano(_, let vy, let by) = y.sound,
              x.rendersInPairs && y.rendersInPairs else {
            x.render(count: count, left: gx.left, right: gx.right, into: l, r)
            y.render(count: count, left: gy.left, right: gy.right, into: l, r)
            return
        }
        let velocity = SIMD2(vx, vy), depth = SIMD2(1.6 * vx * bx, 1.6 * vy * by)
        let steps = Steps(x.steps, y.steps)
        let gainX = SIMD2(gx.left, gx.right), gainY = SIMD2(gy.left, gy.right)
        var done = 0
        while done < count {
            // Frames up to the next anchor of either note run with no check.
            if x.frame % anchorFrames == 0 { x.anchor() }
            if y.frame % anchorFrames == 0 { y.anchor() }
            let n = min(count - done, anchorFrames - x.frame % anchorFrames, anchorFrames - y.frame % anchorFrames)
            var state = State(x.state, y.state)
            for k in done..<(done + n) {
                let i = x.frame + k - done, j = y.frame + k - done
                var g = SIMD2<Double>(repeating: 1)  // `ramps` between the attack and the release
                if i < x.attackEnd || i >= x.releaseStart || j < y.attackEnd || j >= y.releaseStart {
                    g = SIMD2(x.ramps(at: i, rc: state.rc[0]), y.ramps(at: j, rc: state.rc[1]))
                }
                let (mc, ms) = LofiNote.sincosWithinTwo(state.modulatorPhase(depth: depth))
                let v = state.piano(velocity: velocity, ramps: g, mc, ms)
                // Left and right side by side, x's sample added before y's (each lane the
                // sum one note after the other makes); the samples stay vectors until here.
                var out = SIMD2(l[k], r[k])
                out = out + SIMD2(repeating: v[0]) * gainX
                out = out + SIMD2(repeating: v[1]) * gainY
                l[k] = out[0]
                r[k] = out[1]
                state.step(steps)
            }
            x.state = state.lane(0)
            y.state = state.lane(1)
            x.frame += n
            y.frame += n
            done += n
        }
    }

    /// cos x and sin x for |x| ≤ 2: the Taylor polynomials to x²² (error below 1e-15),
    /// evaluated in Estrin's scheme (pairs, then pairs of pairs) rather than Horner's, so the
    /// chain of dependent operations is 4 deep instead of 11 and frames overlap.
    @inline(__always)
    static func sincosWithinTwo<V: LofiLanes>(_ x: V) -> (cos: V, sin: V) {
        let z = x * x, z2 = z * z
        let z4 = z2 * z2, z8 = z4 * z4
        // sin x = x + x·z·P(z), P = −1/3! + z/5! − z²/7! + … + z⁹/21!
        let s0 = -1.0 / 6 + z * (1.0 / 120), s1 = -1.0 / 5040 + z * (1.0 / 362_880)
        let s2 = -1.0 / 39_916_800 + z * (1.0 / 6_227_020_800)
        let s3 = -1.0 / 1_307_674_368_000 + z * (1.0 / 355_687_428_096_000)
        let s4 = -1.0 / 121_645_100_408_832_000 + z * (1 / 5.109094217170944e19)
        let sp = ((s0 + z2 * s1) + z4 * (s2 + z2 * s3)) + z8 * s4
        // cos x = 1 − z·Q(z), Q = 1/2! − z/4! + z²/6! − … + z¹⁰/22!
        let c0 = 0.5 - z * (1.0 / 24), c1 = 1.0 / 720 - z * (1.0 / 40320)
        let c2 = 1.0 / 3_628_800 - z * (1.0 / 479_001_600)
        let c3 = 1.0 / 87_178_291_200 - z * (1.0 / 20_922_789_888_000)
        let c4pair = 1.0 / 6_402_373_705_728_000 - z * (1.0 / 2_432_902_008_176_640_000)
        let c4 = c4pair + z2 * (1 / 1.1240007277776077e21)
        let cp = ((c0 + z2 * c1) + z4 * (c2 + z2 * c3)) + z8 * c4
        return (1 - z * cp, x + x * z * sp)
    }

    /// cos x and sin x (any |x| < 2^20): x less the nearest multiple of π/2 (π/2 in two parts,
    /// the product with the first exact), then the Taylor polynomials on [−π/4, π/4] (error
    /// below 1e-16), swapped and signed by the quadrant.
    @inline(__always)
    static func sincos(_ x: Double) -> (cos: Double, sin: Double) {
        let q = (x * (2 / Double.pi)).rounded()
        // π/2 in two parts (fdlibm's): the first of 33 bits, so q·part is exact.
        let r = (x - q * 1.57079632673412561417e+00) - q * 6.07710050650619224932e-11
        let z = r * r
        let sp = r + r * z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362_880
            + z * (-1.0 / 39_916_800 + z * (1.0 / 6_227_020_800 + z * (-1.0 / 1_307_674_368_000)))))))
        let cp = 1 + z * (-0.5 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3_628_800
            + z * (1.0 / 479_001_600 + z * (-1.0 / 87_178_291_200 + z * (1.0 / 20_922_789_888_000))))))))
        switch Int(q) & 3 {
        case 0: return (cp, sp)
        case 1: return (-sp, cp)
        case 2: return (-cp, -sp)
        default: return (sp, -cp)
        }
    }
}

extension LofiNote {
    /// The per-frame steps of the phasors (cos, sin of each step) and the decays' factors.
    struct Steps<V: LofiLanes>: Sendable {
        var cos: V, sin: V, lfoCos: V, lfoSin: V, releaseCos: V, releaseSin: V, decayA: V, decayB: V
    }

    /// Every phasor and decay at one frame: of one note (`Double`), or of two notes side by
    /// side (`SIMD2<Double>`, one note a lane).
    struct State<V: LofiLanes>: Sendable {
        var c: V, s: V  // cos w, sin w
        var lc: V, ls: V  // the tremolo's or the vibrato's phasor
        var rc: V, rs: V  // cos, sin of π·(length − i)/sr/0.15 (in the release)
        var a: V, b: V  // e^(−t/tauA), e^(−t/tauB)

        /// One frame on: each phasor rotated by its step, each decay multiplied.
        @inline(__always)
        mutating func step(_ k: Steps<V>) {
            let c1 = c * k.cos - s * k.sin, s1 = s * k.cos + c * k.sin
            c = c1; s = s1
            let l1 = lc * k.lfoCos - ls * k.lfoSin, m1 = ls * k.lfoCos + lc * k.lfoSin
            lc = l1; ls = m1
            // The release angle falls: rotate by −releaseStep.
            let r1 = rc * k.releaseCos + rs * k.releaseSin, q1 = rs * k.releaseCos - rc * k.releaseSin
            rc = r1; rs = q1
            a = a * k.decayA; b = b * k.decayB
        }

        /// The piano's modulator phase, (0.3 + depth·e^(−t/0.12)) sin w.
        @inline(__always)
        func modulatorPhase(depth: V) -> V { (0.3 + depth * b) * s }

        /// The piano's sample, from the modulator's cos and sin and the envelope ends.
        @inline(__always)
        func piano(velocity: V, ramps g: V, _ mc: V, _ ms: V) -> V {
            velocity * a * g * (1 + 0.08 * ls) * (s * mc + c * ms)
        }
    }
}

extension LofiNote.Steps where V == SIMD2<Double> {
    init(_ x: LofiNote.Steps<Double>, _ y: LofiNote.Steps<Double>) {
        self.init(cos: SIMD2(x.cos, y.cos), sin: SIMD2(x.sin, y.sin), lfoCos: SIMD2(x.lfoCos, y.lfoCos),
                  lfoSin: SIMD2(x.lfoSin, y.lfoSin), releaseCos: SIMD2(x.releaseCos, y.releaseCos),
                  releaseSin: SIMD2(x.releaseSin, y.releaseSin), decayA: SIMD2(x.decayA, y.decayA),
                  decayB: SIMD2(x.decayB, y.decayB))
    }
}

extension LofiNote.State where V == SIMD2<Double> {
    init(_ x: LofiNote.State<Double>, _ y: LofiNote.State<Double>) {
        self.init(c: SIMD2(x.c, y.c), s: SIMD2(x.s, y.s), lc: SIMD2(x.lc, y.lc), ls: SIMD2(x.ls, y.ls),
                  rc: SIMD2(x.rc, y.rc), rs: SIMD2(x.rs, y.rs), a: SIMD2(x.a, y.a), b: SIMD2(x.b, y.b))
    }

    /// One note's state: lane 0 or 1.
    func lane(_ k: Int) -> LofiNote.State<Double> {
        .init(c: c[k], s: s[k], lc: lc[k], ls: ls[k], rc: rc[k], rs: rs[k], a: a[k], b: b[k])
    }
}

/// A double or a vector of doubles, with the arithmetic a note's frame uses (vectors lane
/// by lane, a double constant applied to every lane).
protocol LofiLanes: Sendable {
    static func + (a: Self, b: Self) -> Self
    static func - (a: Self, b: Self) -> Self
    static func * (a: Self, b: Self) -> Self
    static func + (a: Double, b: Self) -> Self
    static func - (a: Double, b: Self) -> Self
    static func * (a: Double, b: Self) -> Self
    static func * (a: Self, b: Double) -> Self
}

extension Double: LofiLanes {}
extension SIMD2: LofiLanes where Scalar == Double {}
