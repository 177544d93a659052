import Synchronization

/// The samples of one sound, held once: the loader writes them, the mixer plays them, and
/// nothing copies them in between.
///
/// A storage can be filled while it plays: its length, channels and rate are fixed when it
/// is made (from the file's header), the loader appends decoded frames from its own thread,
/// and `readyFrames` says how far the renderer may read (frames past it play as silence).
/// That lets playback start after the first second of each sound is decoded instead of all
/// of it.
///
/// Samples are kept as 16-bit integers (`.int16`, half the memory) or as floats
/// (`.float32`). 16 bits hold 16-bit sources exactly and lossy ones (Opus, Vorbis, MP3)
/// below their own noise floor; 24-bit and float sources keep floats.
///
/// Thread: one writer (`append`, `finish`, `fail`), any number of readers; the render
/// thread reads only `readyFrames` (an atomic) and the samples below it.
public final class SampleStorage: @unchecked Sendable {
    // @unchecked Sendable: the memory is allocated in init and freed in deinit; samples are
    // written once, by one writer, before `ready` publishes them (release/acquire).

    /// How the samples are kept in memory.
    public enum Format: Sendable, Equatable {
        /// 16-bit integers: half the memory; exact for 16-bit sources.
        case int16
        /// 32-bit floats: for 24-bit and float sources.
        case float32

        var bytesPerSample: Int { self == .int16 ? 2 : 4 }
    }

    /// The sound's length in frames, fixed when the storage is made (frames not yet
    /// appended play as silence).
    public let frameCount: Int
    /// Channels a frame has.
    public let channelCount: Int
    /// Frames a second of the samples.
    public let sampleRate: Double
    /// How the samples are kept.
    public let format: Format
    let raw: UnsafeMutableRawPointer
    /// Frames written and published (release); the render thread loads it (acquire).
    let ready: UnsafeMutablePointer<Atomic<Int>>
    private var written = 0
    /// Set by `fail`: the storage plays as silence from then on.
    public private(set) var failure: String?

    /// An empty storage for `frameCount` frames, filled later with `append`.
    public init(frameCount: Int, channelCount: Int, sampleRate: Double, format: Format) {
        precondition(channelCount == 1 || channelCount == 2, "sounds are mono or stereo")
        precondition(frameCount >= 0)
        self.frameCount = frameCount
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.format = format
        raw = .allocate(byteCount: max(1, frameCount * channelCount * format.bytesPerSample), alignment: 16)
        ready = .allocate(capacity: 1)
        ready.initialize(to: Atomic(0))
    }

    /// A complete storage holding `buffer`'s samples (as floats unless `format` says).
    public convenience init(_ buffer: AudioBuffer, format: Format = .float32) {
        self.init(frameCount: buffer.frameCount, channelCount: buffer.channelCount,
                  sampleRate: buffer.sampleRate, format: format)
        buffer.samples.withUnsafeBufferPointer { append($0) }
    }

    deinit {
        ready.deinitialize(count: 1)
        ready.deallocate()
        raw.deallocate()
    }

    /// Frames the renderer may read.
    public var readyFrames: Int { ready.pointee.load(ordering: .acquiring) }

    /// Whether every frame is written.
    public var isComplete: Bool { readyFrames == frameCount }

    /// Appends interleaved frames (converted to the storage's format) and publishes them.
    /// Frames past `frameCount` are dropped. Writer thread only.
    public func append(_ samples: UnsafeBufferPointer<Float>) {
        guard failure == nil else { return }
        let frames = min(samples.count / channelCount, frameCount - written)
        guard frames > 0 else { return }
        let start = written * channelCount, count = frames * channelCount
        switch format {
        case .float32:
            let out = raw.assumingMemoryBound(to: Float.self) + start
            for i in 0..<count { out[i] = samples[i] }
        case .int16:
            let out = raw.assumingMemoryBound(to: Int16.self) + start
            for i in 0..<count { out[i] = SampleStorage.int16(samples[i]) }
        }
        written += frames
        ready.pointee.store(written, ordering: .releasing)
    }

    /// Ends writing; frames never written (a source shorter than its header said) stay
    /// silent.
    public func finish() {
        guard failure == nil, written < frameCount else { return }
        let start = written * channelCount, count = (frameCount - written) * channelCount
        (raw + start * format.bytesPerSample).initializeMemory(as: UInt8.self, repeating: 0,
                                                               count: count * format.bytesPerSample)
        written = frameCount
        ready.pointee.store(written, ordering: .releasing)
    }

    /// Marks the sound as unplayable (a decode error after playback started): from the
    /// next block on it plays as silence, like a sound that never loaded.
    public func fail(_ why: String) {
        failure = why
        ready.pointee.store(0, ordering: .releasing)
    }

    /// The samples written so far, as floats (a copy; for tests and analysis).
    public func floatSamples() -> [Float] {
        let count = readyFrames * channelCount
        switch format {
        case .float32:
            return Array(UnsafeBufferPointer(start: raw.assumingMemoryBound(to: Float.self), count: count))
        case .int16:
            let p = raw.assumingMemoryBound(to: Int16.self)
            return (0..<count).map { Float(p[$0]) * SampleStorage.int16Scale }
        }
    }

    /// The samples written so far as a buffer (a copy).
    public var audioBuffer: AudioBuffer {
        AudioBuffer(samples: floatSamples(), channelCount: channelCount, sampleRate: sampleRate)
    }

    /// Bytes of sample memory.
    public var byteCount: Int { frameCount * channelCount * format.bytesPerSample }

    /// 1/32768: a 16-bit sample's value as a float, as libsndfile reads 16-bit PCM, so a
    /// 16-bit file round-trips exactly.
    static let int16Scale: Float = 1.0 / 32768

    @inline(__always)
    static func int16(_ x: Float) -> Int16 {
        let scaled = (x * 32768).rounded()
        return Int16(max(-32768, min(32767, scaled.isNaN ? 0 : scaled)))
    }
}
