/// A snapshot of the mixer's counters, read on the control side.
///
/// Thread: a plain value; any thread.
public struct MixerCounters: Sendable, Equatable {
    /// Commands refused by `MixerHandle.send` because the ring was full.
    public var rejectedCommands: Int
    /// Commands that arrived after their frame had passed (they acted at once).
    public var lateCommands: Int
    /// Commands naming an unknown bus, layer, parameter or asset (ignored).
    public var invalidCommands: Int
    /// Times the audio thread left commands in the ring because its pending queue was full.
    public var deferredCommands: Int
    /// Voices stolen (faded out quickly) to respect a bus's polyphony.
    public var stolenVoices: Int
    /// Voices that could not start because the bus had no slot at all.
    public var droppedVoices: Int
    /// Voices sounding at the end of the last block.
    public var activeVoices: Int
    /// Frames rendered so far: the engine clock.
    public var renderedFrames: FrameTime
    /// Lowest limiter gain reached so far (1 = never limited).
    public var limiterMinimumGain: Double
}
