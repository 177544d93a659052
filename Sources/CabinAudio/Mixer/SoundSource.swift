/// What a voice plays: a registered asset, a synthesized signal, or a live stream.
///
/// A plain value (no references), so it can travel inside a `MixerCommand` through the
/// lock-free ring. Synthesized noises are seeded so that renders are reproducible.
///
/// Levels: every synthesized source plays at `SoundSource.synthReferenceRMS` (−15 dBFS RMS
/// per channel) so that swapping one for another keeps the mix balanced; assets play at their
/// own level times their loudness trim; streams play the samples their producer wrote.
///
/// Thread: a plain value; any thread.
public enum SoundSource: Sendable, Equatable, BitwiseCopyable {
    /// A sound registered with `MixerConfig.addAsset`.
    case asset(AssetID)
    /// A synthesized signal: one of the kinds in `Synth.kinds` with its settings
    /// (`.synth(.pinkNoise(seed: 3))`, `.synth(.sine(frequency: 220))`).
    case synth(Synth)
    /// Frames a producer thread delivers while they play, registered with
    /// `MixerConfig.addStream` (see `AudioStream`): infinite, at rate 1.
    case stream(StreamID)
    /// One-shots from a set, at random times with random gain, pan and pitch, registered
    /// with `MixerConfig.addScatter` (see `ScatterConfig`): infinite, seeded.
    case scatter(ScatterID)

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

    /// The loop `start ..< end`, in frames (0 ≤ `start` < `end`: a precondition).
    public init(start: Int, end: Int) {
        precondition(start >= 0 && end > start, "a loop needs start >= 0 and end > start")
        self.start = start
        self.end = end
    }
}
