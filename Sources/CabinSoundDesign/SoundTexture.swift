import CabinAudio
import Glibc

/// A sound texture (after McDermott & Simoncelli, "Sound texture perception via statistics
/// of the auditory periphery", Neuron 71, 2011): not events placed one by one but noise given
/// the statistics a real recording's cochlear envelopes have, as `scripts/sound-compare`
/// measures them. `RainTexture` and the outdoor beds (wind, city, night) are each one of these:
/// a colour table (the recording's measured power in 30 cochlear bands: figures, not audio)
/// and a few layers that give the envelopes the recording's shape.
///
/// How it is made: Gaussian noise coloured band by band to `colour`; each layer takes a share
/// of the colour in the bands it covers (the plain noise keeps the rest, so the long-term
/// colour stays the recording's) and shapes it in time: drops (a Poisson shot noise of
/// impulses, as rain's drops or wind-blown grit), bursts (noise under decaying bursts, as
/// the clatter and tyre splashes of a street), a wobble (noise under a slow random gain, as
/// voices), chirps (insects: pulses grouped in chirps at a singer's own period) or dips (a
/// trill that is mostly on, with brief gaps); a layer may instead bring its own narrow band
/// (a `Tone`: an insect's carrier and its second harmonic). The whole swells under a slow gain
/// whose 3 s level swings `swellDB`. All of it is made in the frequency domain over the whole
/// loop (a power-of-two number of frames) and every gate wraps around it, so it is periodic
/// by construction: no seam.
///
/// Thread: pure functions; any thread except the render thread.
public struct SoundTexture: Sendable {
    /// The 30 cochlear bands' centres (Hz): evenly spaced on the ERB-number scale from 20 Hz
    /// to 10 kHz (sound-compare's bands).
    public static let centres: [Double] = {
        let lo = erb(20), hi = erb(10000)
        return (1...30).map { k in 24.7 * 9.265 * (exp((lo + (hi - lo) * Double(k) / 31) / 9.265) - 1) }
    }()

    static func erb(_ f: Double) -> Double { 9.265 * Glibc.log(1 + f / (24.7 * 9.265)) }

    /// Where a layer lies: a share of the colour rising (a raised cosine on the ERB scale)
    /// from none at `from` Hz to `share` at `full`, and falling again from `until` to none at
    /// `to` (the fall left out: to the top).
    public struct Bands: Sendable {
        /// Hz where the share starts rising from none.
        public var from: Double
        /// Hz where the share reaches `share`.
        public var full: Double
        /// Hz where the share starts falling again (infinity: it never falls).
        public var until: Double
        /// Hz where the share has fallen to none (infinity: it never falls).
        public var to: Double
        /// The layer's share of the colour's power between `full` and `until`, 0…1.
        public var share: Double
        /// Bands rising from `from` to `full` Hz and, when `until` and `to` are given, falling
        /// from `until` to `to` Hz.
        public init(from: Double, full: Double, until: Double = .infinity, to: Double = .infinity, share: Double) {
            self.from = from
            self.full = full
            self.until = until
            self.to = to
            self.share = share
        }

        func rise(_ e: Double, _ a: Double, _ b: Double) -> Double {
            let u = min(1, max(0, (e - erb(a)) / (erb(b) - erb(a))))
            return share * (0.5 - 0.5 * cos(Double.pi * u))
        }

        /// The share at each cochlear band (ERB numbers `c`).
        func shares(_ c: [Double]) -> [Double] {
            c.map { e in until.isFinite ? min(rise(e, from, full), share - rise(e, until, to)) : rise(e, from, full) }
        }
    }

    /// A narrow band of its own: Gaussian around `carrier` (standard deviation `width` Hz)
    /// `peakDB` in the colour's units (dB of the white noise's amplitude a bin), and the
    /// second harmonic `harmonicDB` under it (twice as wide).
    public struct Tone: Sendable {
        /// The centre frequency in Hz.
        public var carrier: Double
        /// The standard deviation of the band around `carrier`, in Hz.
        public var width: Double
        /// The peak level, in the colour's units (dB of the white noise's amplitude a bin).
        public var peakDB: Double
        /// The second harmonic's level relative to the peak, in dB.
        public var harmonicDB: Double
        /// A tone at `carrier` Hz, `width` Hz wide, at `peakDB` with its harmonic `harmonicDB` under it.
        public init(carrier: Double, width: Double, peakDB: Double, harmonicDB: Double) {
            self.carrier = carrier
            self.width = width
            self.peakDB = peakDB
            self.harmonicDB = harmonicDB
        }

        func gain(_ f: Double) -> Double {
            let a = (f - carrier) / width, b = (f - 2 * carrier) / (2 * width)
            return pow(10, peakDB / 20) * (exp(-0.5 * a * a) + pow(10, harmonicDB / 20) * exp(-0.5 * b * b))
        }
    }

    /// How a layer's noise moves in time.
    public enum Shape: Sendable {
        /// A Poisson shot noise of impulses, `rate` a second on average (the rate wandering
        /// with slow noise of `wanderHz`, the standard deviation of its log `wander`),
        /// log-normal amplitudes (`spread`: the standard deviation of their log), each panned
        /// anywhere: impulses through the layer's colour, drop by drop.
        case drops(rate: Double, spread: Double, wander: Double, wanderHz: Double)
        /// Noise under bursts: Poisson onsets (`rate` a second), log-normal heights, each
        /// decaying with time constant `decay` s.
        case bursts(rate: Double, spread: Double, decay: Double)
        /// Noise under a slow random gain: exp(`depth` × slow noise of `hz`).
        case wobble(depth: Double, hz: Double)
        /// Insects: `singers`, each chirping every `period` s (its own, within ±10 %, each chirp
        /// ±5 % late or early), a chirp `pulses` pulses at `pulseHz` under a raised sine over the
        /// chirp, the pulses `depth` deep (the chirps of crickets further off blur them), over a
        /// `floor` (the chorus further still).
        case chirps(singers: Int, pulseHz: Double, pulses: Int, period: Double, depth: Double, floor: Double)
        /// A trill mostly on, with gaps: Poisson gaps (`rate` a second) each `width` s long
        /// (raised sine), `depth` deep.
        case dips(rate: Double, width: Double, depth: Double)
    }

    /// One layer: where it lies in frequency (a share of the colour, or a tone of its own)
    /// and how it moves.
    public struct Layer: Sendable {
        /// The share of the colour it takes; nil for a layer with a tone of its own.
        public var bands: Bands?
        /// The narrow band it brings; nil for a layer that takes a share of the colour.
        public var tone: Tone?
        /// How its noise moves in time.
        public var shape: Shape
        /// A layer taking `bands` of the colour, moving as `shape`.
        public init(_ bands: Bands, _ shape: Shape) {
            self.bands = bands
            self.shape = shape
        }
        /// A layer of its own `tone`, moving as `shape`.
        public init(_ tone: Tone, _ shape: Shape) {
            self.tone = tone
            self.shape = shape
        }
    }

    /// The colour (dB per unit bandwidth at each centre, interpolated on the ERB scale in
    /// between, silent below 30 Hz and above 11 kHz).
    public var colour: [Double]
    /// The layers shaping the noise in time; empty: plain coloured noise.
    public var layers: [Layer]
    /// The whole's slow swell: how far its 3 s level swings (the standard deviation in dB of
    /// the swell's mean over 3 s windows, every 1 s, across the loop), and how fast (Hz). A
    /// loop holds only a few of its cycles, so its depth is set from the windows of the swell
    /// itself, not from its standard deviation.
    public var swellDB: Double
    /// How fast the level swells, in Hz.
    public var swellHz: Double
    /// Where the peaks are rounded: this many times the RMS (before the swell).
    public var ceiling = 4.0

    /// A texture of the given parts (see each property); `colour` must have one value per
    /// band of ``centres`` (30; a precondition).
    public init(colour: [Double], layers: [Layer], swellDB: Double, swellHz: Double, ceiling: Double = 4) {
        precondition(colour.count == SoundTexture.centres.count, "a colour for each cochlear band")
        self.colour = colour
        self.layers = layers
        self.swellDB = swellDB
        self.swellHz = swellHz
        self.ceiling = ceiling
    }

    /// The band gain (linear amplitude) at `f` Hz: `db` per band, interpolated on the ERB scale.
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

    /// The texture into `bed` (its frames a power of two), its loudest sample near `level`'s
    /// scale (the recipe's finish normalises the peak).
    public func add(to bed: inout StereoBed, level: Double, random: inout SeededRandom) {
        let n = bed.frames, sr = bed.sampleRate
        let c = SoundTexture.centres.map(SoundTexture.erb)
        let shares = layers.map { $0.bands?.shares(c) }
        var taken = [Double](repeating: 0, count: c.count)
        for s in shares.compactMap({ $0 }) { taken = zip(taken, s).map { $0 + $1 } }
        let bedDB = zip(colour, taken).map { $0 + 10 * log10(max(1 - $1, 1e-6)) }
        let inBand: (Double) -> Bool = { $0 >= 30 && $0 <= 11000 }
        let bedGain = Spectral.gains(frames: n, sampleRate: sr) { inBand($0) ? SoundTexture.gain($0, bedDB) : 0 }
        let layerGains = zip(layers, shares).map { layer, share -> [Double] in
            if let share {
                let db = zip(colour, share).map { $0 + 10 * log10(max($1, 1e-6)) }
                return Spectral.gains(frames: n, sampleRate: sr) { inBand($0) ? SoundTexture.gain($0, db) : 0 }
            }
            let tone = layer.tone!
            return Spectral.gains(frames: n, sampleRate: sr) { inBand($0) ? tone.gain($0) : 0 }
        }

        // Each layer's movement, drawn in the layers' order (drops: a stereo pair of impulse
        // trains at unit power density; the others: one gain, shared by both channels).
        var drops: [Int: (pair: [[Double]], scale: Double)] = [:]
        var gates: [Int: [Double]] = [:]
        for (k, layer) in layers.enumerated() {
            switch layer.shape {
            case let .drops(rate, spread, wander, wanderHz):
                drops[k] = SoundTexture.drops(frames: n, sampleRate: sr, rate: rate, spread: spread, wander: wander,
                                              wanderHz: wanderHz, random: &random)
            case let .bursts(rate, spread, decay):
                gates[k] = SoundTexture.bursts(frames: n, sampleRate: sr, rate: rate, spread: spread, decay: decay, random: &random)
            case let .wobble(depth, hz):
                let s = Spectral.slowNoise(frames: n, sampleRate: sr, cutoff: hz, random: &random)
                gates[k] = SoundTexture.unitPower(s.map { exp(depth * $0) })
            case let .chirps(singers, pulseHz, pulses, period, depth, floor):
                gates[k] = SoundTexture.chirps(frames: n, sampleRate: sr, singers: singers, pulseHz: pulseHz, pulses: pulses,
                                               period: period, depth: depth, floor: floor, random: &random)
            case let .dips(rate, width, depth):
                gates[k] = SoundTexture.dips(frames: n, sampleRate: sr, rate: rate, width: width, depth: depth, random: &random)
            }
        }

        var swell = Spectral.slowNoise(frames: n, sampleRate: sr, cutoff: swellHz, random: &random)
        let window = Int(3 * sr), hop = Int(sr)
        if n > window {
            var sums = [0.0]
            for v in swell { sums.append(sums[sums.count - 1] + v) }
            let means = stride(from: 0, through: n - window, by: hop).map { (sums[$0 + window] - sums[$0]) / Double(window) }
            let m = means.reduce(0, +) / Double(means.count)
            let spread = (means.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(means.count)).squareRoot()
            // ln gain whose 3 s means swing swellDB dB (20 log10 e = 8.686 dB a neper).
            let depth = spread > 0 ? swellDB / (20 / Glibc.log(10)) / spread : 0
            swell = swell.map { $0 * depth }
        }
        var channels: [[Double]] = []
        for side in 0..<2 {
            let white = (0..<n).map { _ in random.normal() }
            let w = Spectral.spectrum(white)
            var re = w.re, im = w.im
            for k in 0..<n {
                re[k] = re[k] * bedGain[k]
                im[k] = im[k] * bedGain[k]
            }
            for (j, layer) in drops.sorted(by: { $0.key < $1.key }) {
                let d = Spectral.spectrum(layer.pair[side]), g = layerGains[j], scale = layer.scale
                for k in 0..<n {
                    re[k] += d.re[k] * g[k] * scale
                    im[k] += d.im[k] * g[k] * scale
                }
            }
            var x = Spectral.signal(re, im)
            for (j, gate) in gates.sorted(by: { $0.key < $1.key }) {
                let v = Spectral.spectrum((0..<n).map { _ in random.normal() }), g = layerGains[j]
                let own = Spectral.signal(zip(v.re, g).map { $0 * $1 }, zip(v.im, g).map { $0 * $1 })
                for i in 0..<n { x[i] += own[i] * gate[i] }
            }
            // The loudest peaks rounded (tanh) from `ceiling` times the RMS: real recordings'
            // peaks stand far over their loudness, too far for a bed under a −1 dBTP preset.
            let knee = ceiling * (x.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
            channels.append((0..<n).map { level * knee * tanh(x[$0] / knee) * exp(swell[$0]) })
        }
        bed.add(left: channels[0], right: channels[1])
    }

    /// Scaled to a mean square of 1.
    static func unitPower(_ g: [Double]) -> [Double] {
        let power = g.reduce(0) { $0 + $1 * $1 } / Double(g.count)
        return power > 0 ? g.map { $0 / power.squareRoot() } : g
    }

    /// Impulses at a wandering Poisson rate, log-normal, each panned: a stereo pair, and the
    /// scale that brings it to unit power density (as white noise of variance 1 has).
    static func drops(frames n: Int, sampleRate sr: Double, rate: Double, spread: Double, wander spreadOfRate: Double,
                      wanderHz: Double, random: inout SeededRandom) -> (pair: [[Double]], scale: Double) {
        let wander = Spectral.slowNoise(frames: n, sampleRate: sr, cutoff: wanderHz, random: &random)
        var dropL = [Double](repeating: 0, count: n), dropR = dropL
        var power = 0.0, count = 0
        for i in 0..<n {
            let r = rate * exp(spreadOfRate * wander[i] - spreadOfRate * spreadOfRate / 2)
            guard random.unit() < r / sr else { continue }
            let a = exp(spread * random.normal())
            let angle = (random.uniform(-0.9...0.9) + 1) * Double.pi / 4
            dropL[i] = a * cos(angle) * 2.0.squareRoot()
            dropR[i] = a * sin(angle) * 2.0.squareRoot()
            power += a * a
            count += 1
        }
        let scale = count > 0 ? 1 / (power / Double(count) * rate / sr).squareRoot() : 0
        return ([dropL, dropR], scale)
    }

    /// Poisson onsets of log-normal height, each decaying exponentially, wrapped around the
    /// loop; unit mean square.
    static func bursts(frames n: Int, sampleRate sr: Double, rate: Double, spread: Double, decay: Double,
                       random: inout SeededRandom) -> [Double] {
        var onsets = [Double](repeating: 0, count: n)
        for i in 0..<n where random.unit() < rate / sr { onsets[i] = exp(spread * random.normal()) }
        // A one-pole decay run twice round the loop: the second lap is the periodic steady state.
        let a = exp(-1 / (decay * sr))
        var y = 0.0, g = onsets
        for lap in 0..<2 {
            for i in 0..<n {
                y = a * y + onsets[i]
                if lap == 1 { g[i] = y }
            }
        }
        return unitPower(g)
    }

    static func chirps(frames n: Int, sampleRate sr: Double, singers: Int, pulseHz: Double, pulses: Int, period: Double,
                       depth: Double, floor: Double, random: inout SeededRandom) -> [Double] {
        var g = [Double](repeating: floor, count: n)
        let seconds = Double(n) / sr, length = Int(Double(pulses) / pulseHz * sr)
        let chirp = (0..<length).map { i -> Double in
            let s = sin(Double.pi * Double(i) / Double(length)), c = cos(Double.pi * pulseHz * Double(i) / sr)
            return s * s * (1 - depth * c * c)
        }
        for _ in 0..<singers {
            let own = period * random.uniform(0.9...1.1), gain = random.uniform(0.4...1)
            var start = random.uniform(0...own)
            while start < seconds {
                let at = Int(start * sr)
                for i in 0..<length { g[(at + i) % n] += gain * chirp[i] }
                start += own * random.uniform(0.95...1.05)
            }
        }
        return unitPower(g)
    }

    static func dips(frames n: Int, sampleRate sr: Double, rate: Double, width: Double, depth: Double,
                     random: inout SeededRandom) -> [Double] {
        var d = [Double](repeating: 0, count: n)
        let length = Int(width * sr)
        let bump = (0..<length).map { i -> Double in
            let s = sin(Double.pi * Double(i) / Double(length))
            return s * s
        }
        for i in 0..<n where random.unit() < rate / sr {
            for j in 0..<length { d[(i + j) % n] += bump[j] }
        }
        return unitPower(d.map { max(0.02, 1 - depth * min($0, 1)) })
    }
}
