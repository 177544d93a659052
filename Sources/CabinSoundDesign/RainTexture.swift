import CabinAudio
import Glibc

/// Rain heard out of doors, made as a sound texture (after McDermott & Simoncelli, "Sound
/// texture perception via statistics of the auditory periphery", Neuron 71, 2011): not
/// drops placed one by one but noise given the statistics a real recording's cochlear
/// envelopes have, as `scripts/sound-compare` measures them.
///
/// What real rain's statistics say (a two-minute recording of steady rain; the figures are
/// its measured statistics, not its audio): below 2 kHz it is Gaussian noise of its colour
/// (each band's envelope skewness, kurtosis and cross-band correlation are noise's); above
/// 3 kHz the drops show (the envelopes skewed, +0.2…+0.4, kurtosis 3.5…3.9 against noise's
/// 3.0, neighbouring bands' envelopes correlated 0.2…0.4 as each drop's click spans several);
/// the drops' rate wanders a few times a second, and the level swells slowly (its 3 s
/// short-term level swings 1.5 dB).
///
/// So: (1) Gaussian noise coloured band by band, (2) a dense shot noise of drops (impulses
/// at a Poisson rate around 1,000 a second, log-normal amplitudes, each panned anywhere)
/// carrying a share of the power that rises from none at 2.5 kHz to 30 % at 8 kHz, the
/// rate modulated by slow noise (~3 Hz), (3) the whole swelling under a slower gain (~0.08
/// Hz, its 3 s level swinging 1.5 dB), the rare loudest drops rounded off. All of it is made in the frequency domain over the whole loop (a power-of-two
/// number of frames), so it is periodic by construction: no seam.
public enum RainTexture {
    /// The 30 cochlear bands' centres (Hz): evenly spaced on the ERB-number scale from 20 Hz
    /// to 10 kHz (sound-compare's bands).
    public static let centres: [Double] = {
        func erb(_ f: Double) -> Double { 9.265 * Glibc.log(1 + f / (24.7 * 9.265)) }
        let lo = erb(20), hi = erb(10000)
        return (1...30).map { k in 24.7 * 9.265 * (exp((lo + (hi - lo) * Double(k) / 31) / 9.265) - 1) }
    }()

    static func erb(_ f: Double) -> Double { 9.265 * Glibc.log(1 + f / (24.7 * 9.265)) }

    /// The colour (dB per unit bandwidth at each centre, interpolated on the ERB scale in
    /// between): the recording's power in each cochlear band less the band's width, with
    /// the two lowest bands 1.3 and 1.2 dB down and the third 0.3 dB (the textured signal's
    /// compressed envelope means, matched to the recording's).
    static let colour: [Double] = [
        -1.30, -2.35, -2.52, -3.33, -4.58, -5.24, -5.75, -6.08, -5.87, -6.24, -6.10, -6.86, -7.15, -7.44, -8.46,
        -9.26, -10.04, -10.92, -11.74, -12.35, -13.20, -13.97, -14.63, -15.34, -15.65, -15.81, -15.45, -15.04, -14.52, -14.21,
    ]

    /// The figures of the texture; the defaults are the recording's.
    public struct Parameters: Sendable {
        /// Drops a second, on average.
        public var rate = 1000.0
        /// The drops' share of the power: none below `dropsFrom` Hz, rising (a raised cosine on
        /// the ERB scale) to `dropShare` at `dropsFull` Hz and above.
        public var dropShare = 0.3
        public var dropsFrom = 2500.0
        public var dropsFull = 8000.0
        /// The spread of the drops' amplitudes (the standard deviation of their log).
        public var amplitudeSpread = 1.0
        /// The rate's wander: the standard deviation of its log, and how fast (Hz).
        public var rateWander = 0.7
        public var rateWanderHz = 3.0
        /// The whole's slow swell: how far its 3 s level swings (the standard deviation in dB
        /// of the swell's mean over 3 s windows, every 1 s, across the loop: the recording's
        /// short-term level swings 1.53 dB, the drops' own wander adds almost nothing), and how
        /// fast (Hz). A loop holds only a few of its cycles, so its depth is set from the
        /// windows of the swell itself, not from its standard deviation.
        public var swellDB = 1.5
        public var swellHz = 0.08
        /// Where the peaks are rounded: this many times the RMS (before the swell).
        public var ceiling = 4.0
        public init() {}
    }

    /// The band gain (linear amplitude) at `f` Hz: the colour in dB, plus `extra` dB per band.
    static func gain(_ f: Double, _ db: [Double]) -> Double {
        let e = erb(max(f, 1))
        let c = centres.map(erb)
        let v: Double
        if e <= c[0] { v = db[0] } else if e >= c[c.count - 1] { v = db[db.count - 1] } else {
            var k = 0
            while c[k + 1] < e { k += 1 }
            let t = (e - c[k]) / (c[k + 1] - c[k])
            v = db[k] + (db[k + 1] - db[k]) * t
        }
        return pow(10, v / 20)
    }

    /// Rain into `bed` (its frames a power of two), its loudest sample near `level`'s scale
    /// (the recipe's finish normalises the peak).
    public static func add(_ bed: inout StereoBed, level: Double, parameters p: Parameters = Parameters(),
                           random: inout SeededRandom) {
        let n = bed.frames, sr = bed.sampleRate
        let c = centres.map(erb)
        let share = c.map { e -> Double in
            let u = min(1, max(0, (e - erb(p.dropsFrom)) / (erb(p.dropsFull) - erb(p.dropsFrom))))
            return p.dropShare * (0.5 - 0.5 * cos(Double.pi * u))
        }
        let bedDB = zip(colour, share).map { $0 + 10 * log10(max(1 - $1, 1e-6)) }
        let dropDB = zip(colour, share).map { $0 + 10 * log10(max($1, 1e-6)) }
        let inBand: (Double) -> Bool = { $0 >= 30 && $0 <= 11000 }
        let bedGain = Spectral.gains(frames: n, sampleRate: sr) { inBand($0) ? gain($0, bedDB) : 0 }
        let dropGain = Spectral.gains(frames: n, sampleRate: sr) { inBand($0) ? gain($0, dropDB) : 0 }

        // The drops: one process (a wandering Poisson rate), each drop panned.
        let wander = Spectral.slowNoise(frames: n, sampleRate: sr, cutoff: p.rateWanderHz, random: &random)
        var dropL = [Double](repeating: 0, count: n), dropR = dropL
        var power = 0.0, count = 0
        for i in 0..<n {
            let rate = p.rate * exp(p.rateWander * wander[i] - p.rateWander * p.rateWander / 2)
            guard random.unit() < rate / sr else { continue }
            let a = exp(p.amplitudeSpread * random.normal())
            let angle = (random.uniform(-0.9...0.9) + 1) * Double.pi / 4
            dropL[i] = a * cos(angle) * 2.0.squareRoot()
            dropR[i] = a * sin(angle) * 2.0.squareRoot()
            power += a * a
            count += 1
        }
        // Unit power density, as the bed's white noise has.
        let dropScale = count > 0 ? 1 / (power / Double(count) * p.rate / sr).squareRoot() : 0

        var swell = Spectral.slowNoise(frames: n, sampleRate: sr, cutoff: p.swellHz, random: &random)
        let window = Int(3 * sr), hop = Int(sr)
        if n > window {
            var sums = [0.0]
            for v in swell { sums.append(sums[sums.count - 1] + v) }
            let means = stride(from: 0, through: n - window, by: hop).map { (sums[$0 + window] - sums[$0]) / Double(window) }
            let m = means.reduce(0, +) / Double(means.count)
            let spread = (means.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(means.count)).squareRoot()
            // ln gain whose 3 s means swing swellDB dB (20 log10 e = 8.686 dB a neper).
            let depth = spread > 0 ? p.swellDB / (20 / Glibc.log(10)) / spread : 0
            swell = swell.map { $0 * depth }
        }
        var channels: [[Double]] = []
        for drops in [dropL, dropR] {
            let white = (0..<n).map { _ in random.normal() }
            let w = Spectral.spectrum(white), d = Spectral.spectrum(drops)
            var re = w.re, im = w.im
            for k in 0..<n {
                re[k] = re[k] * bedGain[k] + d.re[k] * dropGain[k] * dropScale
                im[k] = im[k] * bedGain[k] + d.im[k] * dropGain[k] * dropScale
            }
            let x = Spectral.signal(re, im)
            // The loudest drops rounded (tanh) from `ceiling` times the RMS: real rain's peaks
            // stand 22 dB over its loudness, too many for a bed under a −1 dBTP preset.
            let knee = p.ceiling * (x.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
            channels.append((0..<n).map { level * knee * tanh(x[$0] / knee) * exp(swell[$0]) })
        }
        bed.add(left: channels[0], right: channels[1])
    }
}
