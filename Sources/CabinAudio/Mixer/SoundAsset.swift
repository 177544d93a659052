/// A sound registered for playback: samples (mono or stereo), loudness trim, loop points.
/// Resample it to the mixer's rate at load time (CabinIO/soxr); another rate still plays,
/// through the Hermite reader, but that is meant for pitch, not for rate conversion.
///
/// The samples are a shared `SampleStorage`: registering a sound (even twice, with two
/// trims) never copies it, and a storage still being decoded plays as far as it is ready.
///
/// Thread: a plain value; register it on the control thread with `MixerConfig.addAsset`.
public struct SoundAsset: Sendable, Equatable {
    /// The samples, shared (never copied by registering).
    public let samples: SampleStorage
    /// The loudness trim applied to the samples when played (0 dB: as recorded).
    public var trim: Decibels
    /// Loop points as played (after any seam crossfade was baked in).
    public var loop: LoopPoints?

    /// An asset over samples already held in a storage.
    public init(samples: SampleStorage, trim: Decibels = 0, loop: LoopPoints? = nil) {
        if let loop { precondition(loop.end <= samples.frameCount, "loop end past the sound") }
        self.samples = samples
        self.trim = trim
        self.loop = loop
    }

    /// An asset holding a copy of `buffer` as floats. `seamCrossfadeFrames` bakes a linear
    /// crossfade across the loop seam into that copy, for loops whose ends do not match.
    public init(buffer: AudioBuffer, trim: Decibels = 0, loop: LoopPoints? = nil,
                seamCrossfadeFrames: Int = 0) {
        precondition(buffer.channelCount == 1 || buffer.channelCount == 2,
                     "assets are mono or stereo")
        if let loop { precondition(loop.end <= buffer.frameCount, "loop end past the sound") }
        var copy = buffer
        var played = loop
        if buffer.frameCount > 0, seamCrossfadeFrames > 0 {
            played = SoundAsset.bakeSeam(&copy.samples, channelCount: buffer.channelCount,
                                         loop: loop ?? LoopPoints(start: 0, end: buffer.frameCount),
                                         frames: seamCrossfadeFrames)
        }
        self.init(samples: SampleStorage(copy), trim: trim, loop: played)
    }

    /// Frames in the sound.
    public var frameCount: Int { samples.frameCount }

    /// Whether the two play the same storage (the same object) with the same trim and loop.
    public static func == (a: SoundAsset, b: SoundAsset) -> Bool {
        a.samples === b.samples && a.trim == b.trim && a.loop == b.loop
    }

    /// Bakes a linear crossfade across the loop seam into `samples` and returns the loop
    /// points to use. With material before the loop start, the loop's last frames fade into
    /// the frames that precede the start; otherwise the loop's first frames fade from the
    /// frames before its end, and the loop is shortened by the crossfade length.
    static func bakeSeam(_ samples: inout [Float], channelCount: Int, loop: LoopPoints,
                         frames: Int) -> LoopPoints {
        let n = min(frames, (loop.end - loop.start) / 2)
        guard n > 0 else { return loop }
        let original = samples
        let c = channelCount
        if loop.start >= n {
            for k in 0..<n {
                let w = Float(k + 1) / Float(n + 1)
                for ch in 0..<c {
                    let dst = (loop.end - n + k) * c + ch, src = (loop.start - n + k) * c + ch
                    samples[dst] = original[dst] * (1 - w) + original[src] * w
                }
            }
            return loop
        }
        for k in 0..<n {
            let w = Float(k + 1) / Float(n + 1)
            for ch in 0..<c {
                let dst = (loop.start + k) * c + ch, src = (loop.end - n + k) * c + ch
                samples[dst] = original[dst] * w + original[src] * (1 - w)
            }
        }
        return LoopPoints(start: loop.start, end: loop.end - n)
    }
}
