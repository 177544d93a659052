/// A sound registered for playback: samples (mono or stereo), loudness trim, loop points.
/// Resample it to the mixer's rate at load time (CabinIO/soxr); another rate still plays,
/// through the Hermite reader, but that is meant for pitch, not for rate conversion.
///
/// Thread: a plain value; register it on the control thread with `MixerConfig.addAsset`.
public struct SoundAsset: Sendable, Equatable {
    public var buffer: AudioBuffer
    public var trim: Decibels
    public var loop: LoopPoints?
    public var seamCrossfadeFrames: Int

    public init(buffer: AudioBuffer, trim: Decibels = 0, loop: LoopPoints? = nil,
                seamCrossfadeFrames: Int = 0) {
        precondition(buffer.channelCount == 1 || buffer.channelCount == 2,
                     "assets are mono or stereo")
        if let loop { precondition(loop.end <= buffer.frameCount, "loop end past the sound") }
        self.buffer = buffer
        self.trim = trim
        self.loop = loop
        self.seamCrossfadeFrames = seamCrossfadeFrames
    }
}
