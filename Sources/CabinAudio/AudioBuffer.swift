/// A block of audio held in memory: interleaved 32-bit float samples, nominally in −1…1.
///
/// This is the currency between the sound-file edge (`CabinIO` decodes into it and writes
/// from it) and the pure mixer (which reads assets from it). Interleaved because that is
/// what libsndfile, soxr and ALSA all speak, so no copy is needed at the edge.
///
/// Thread: a value type; build and mutate it on the control thread, then hand it to the
/// audio thread only as an immutable asset.
public struct AudioBuffer: Sendable, Equatable {
    /// Interleaved samples: frame `f`, channel `c` is at `samples[f * channelCount + c]`.
    public var samples: [Float]
    /// Number of channels per frame (1 = mono, 2 = stereo …).
    public var channelCount: Int
    /// Frames per second.
    public var sampleRate: Double

    /// Creates a buffer from interleaved samples. `samples.count` must be a multiple of
    /// `channelCount`.
    public init(samples: [Float], channelCount: Int, sampleRate: Double) {
        precondition(channelCount > 0, "an AudioBuffer needs at least one channel")
        precondition(samples.count % channelCount == 0, "samples must hold whole frames")
        self.samples = samples
        self.channelCount = channelCount
        self.sampleRate = sampleRate
    }

    /// A silent buffer of `frameCount` frames.
    public init(frameCount: Int, channelCount: Int, sampleRate: Double) {
        self.init(
            samples: [Float](repeating: 0, count: frameCount * channelCount),
            channelCount: channelCount, sampleRate: sampleRate)
    }

    /// Number of frames (samples per channel).
    public var frameCount: Int { samples.count / channelCount }

    /// Length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frameCount) / sampleRate : 0 }

    /// The sample at `frame`, `channel`.
    @inlinable public subscript(frame: Int, channel: Int) -> Float {
        get { samples[frame * channelCount + channel] }
        set { samples[frame * channelCount + channel] = newValue }
    }

    /// One channel copied out as its own array (for analysis; not for the render path).
    public func channel(_ index: Int) -> [Float] {
        precondition(index >= 0 && index < channelCount)
        return stride(from: index, to: samples.count, by: channelCount).map { samples[$0] }
    }
}

extension AudioBuffer: CustomStringConvertible, CustomDebugStringConvertible {
    /// A summary, never the samples: `AudioBuffer(2 ch, 48000 Hz, 96000 frames)`.
    public var description: String {
        "AudioBuffer(\(channelCount) ch, \(Int(sampleRate)) Hz, \(frameCount) frames)"
    }
    /// The same summary as ``description``.
    public var debugDescription: String { description }
}
