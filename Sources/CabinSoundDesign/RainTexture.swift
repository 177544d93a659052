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
/// Hz, its 3 s level swinging 1.5 dB), the rare loudest drops rounded off: a `SoundTexture`
/// with one layer of drops.
public enum RainTexture {
    /// The colour (dB per unit bandwidth at each cochlear band's centre): the recording's
    /// power in each cochlear band less the band's width, with the two lowest bands 1.3 and
    /// 1.2 dB down and the third 0.3 dB (the textured signal's compressed envelope means,
    /// matched to the recording's).
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
        /// The frequency in Hz below which the drops carry no power (default 2500).
        public var dropsFrom = 2500.0
        /// The frequency in Hz from which the drops carry `dropShare` (default 8000).
        public var dropsFull = 8000.0
        /// The spread of the drops' amplitudes (the standard deviation of their log).
        public var amplitudeSpread = 1.0
        /// The rate's wander: the standard deviation of its log, and how fast (Hz).
        public var rateWander = 0.7
        /// How fast the rate wanders, in Hz (default 3).
        public var rateWanderHz = 3.0
        /// The whole's slow swell (the recording's short-term level swings 1.53 dB, the drops'
        /// own wander adds almost nothing), and how fast (Hz).
        public var swellDB = 1.5
        /// How fast the level swells, in Hz (default 0.08).
        public var swellHz = 0.08
        /// Where the peaks are rounded: this many times the RMS (before the swell).
        public var ceiling = 4.0
        /// The recording's figures (each property's default).
        public init() {}

        /// The texture these figures make.
        public var texture: SoundTexture {
            let drops = SoundTexture.Layer(SoundTexture.Bands(from: dropsFrom, full: dropsFull, share: dropShare),
                                           .drops(rate: rate, spread: amplitudeSpread, wander: rateWander, wanderHz: rateWanderHz))
            return SoundTexture(colour: RainTexture.colour, layers: [drops], swellDB: swellDB, swellHz: swellHz, ceiling: ceiling)
        }
    }

    /// Rain into `bed` (its frames a power of two), its loudest sample near `level`'s scale
    /// (the recipe's finish normalises the peak).
    public static func add(_ bed: inout StereoBed, level: Double, parameters p: Parameters = Parameters(),
                           random: inout SeededRandom) {
        p.texture.add(to: &bed, level: level, random: &random)
    }
}
