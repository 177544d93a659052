/// What a voice plays: a registered asset or a synthesized signal.
///
/// A plain value (no references), so it can travel inside a `MixerCommand` through the
/// lock-free ring. Synthesized noises are seeded so that renders are reproducible.
///
/// Levels: every synthesized source plays at `SoundSource.synthReferenceRMS` (−15 dBFS RMS
/// per channel) so that swapping one for another keeps the mix balanced; assets play at their
/// own level times their loudness trim.
///
/// Thread: a plain value; any thread.
public enum SoundSource: Sendable, Equatable, BitwiseCopyable {
    /// A sound registered with `MixerConfig.addAsset`.
    case asset(AssetID)
    /// Uniform white noise from a seeded PRNG.
    case whiteNoise(seed: UInt64)
    /// Pink (−3 dB/octave) noise: white noise through Paul Kellet's refined pinking filter.
    case pinkNoise(seed: UInt64)
    /// Brown (−6 dB/octave) noise: leaky-integrated white noise, level-normalised.
    case brownNoise(seed: UInt64)
    /// A sine tone, the same in both channels.
    case sine(frequency: Hertz)
    /// Binaural beat: a sine at `carrier − beat/2` on the left, `carrier + beat/2` on the right.
    case binaural(carrier: Hertz, beat: Hertz)

    /// The names a session document uses after `synth:` — `white-noise`, `pink-noise`,
    /// `brown-noise`, `sine`, `binaural` — with the numbers they take (unused ones are
    /// ignored). Nil for an unknown name; `synthNames` lists the known ones for the message.
    public init?(synthName name: String, seed: UInt64 = 1, frequency: Hertz = 440,
                 carrier: Hertz = 200, beat: Hertz = 10) {
        switch name {
        case "white-noise": self = .whiteNoise(seed: seed)
        case "pink-noise": self = .pinkNoise(seed: seed)
        case "brown-noise": self = .brownNoise(seed: seed)
        case "sine": self = .sine(frequency: frequency)
        case "binaural": self = .binaural(carrier: carrier, beat: beat)
        default: return nil
        }
    }

    /// The names `init?(synthName:)` knows.
    public static let synthNames = ["white-noise", "pink-noise", "brown-noise", "sine", "binaural"]

    /// RMS level of every synthesized source, per channel.
    public static let synthReferenceRMS = Decibels(-15)

    /// Linear RMS of synthesized sources.
    static var synthRMSLinear: Double { 0.17782794100389228 }  // 10^(−15/20)
}

/// A loop region inside an asset, in frames: playback runs from 0, then repeats
/// `start ..< end` gaplessly.
///
/// Thread: a plain value; any thread.
public struct LoopPoints: Sendable, Equatable, Hashable {
    /// First frame of the loop body.
    public var start: Int
    /// One past the last frame of the loop body.
    public var end: Int

    public init(start: Int, end: Int) {
        precondition(start >= 0 && end > start, "a loop needs start >= 0 and end > start")
        self.start = start
        self.end = end
    }
}
