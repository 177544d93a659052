import CSoxr
import CabinAudio

/// Sample-rate conversion with soxr, used once per asset at load time (never on the
/// render thread).
///
/// Measured on this kind of machine (AUDIO.md): soxr HQ converts 44.1 → 48 kHz at
/// ~500–700× real time with ~135 dB THD+N.
///
/// Thread: control thread only (allocates).
public enum Resampler {
    /// soxr's quality recipes.
    public enum Quality: Sendable {
        /// `SOXR_HQ`: 20-bit, the default for assets.
        case high
        /// `SOXR_VHQ`: 28-bit.
        case veryHigh
        /// `SOXR_QQ`: quick cubic, for previews only.
        case quick

        var recipe: UInt {
            switch self {
            case .high: UInt(SOXR_HQ)
            case .veryHigh: UInt(SOXR_VHQ)
            case .quick: UInt(SOXR_QQ)
            }
        }
    }

    /// Returns `buffer` converted to `sampleRate` (same channels). A buffer already at that
    /// rate comes back unchanged. The corresponding C function is `soxr_oneshot`.
    public static func resample(_ buffer: AudioBuffer, to sampleRate: Double,
                                quality: Quality = .high) throws(SystemError) -> AudioBuffer {
        if buffer.sampleRate == sampleRate || buffer.frameCount == 0 {
            return AudioBuffer(samples: buffer.samples, channelCount: buffer.channelCount, sampleRate: sampleRate)
        }
        let channels = buffer.channelCount
        let inFrames = buffer.frameCount
        let outCapacity = Int((Double(inFrames) * sampleRate / buffer.sampleRate).rounded(.up)) + 16
        var out = [Float](repeating: 0, count: outCapacity * channels)
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var q = soxr_quality_spec(quality.recipe, 0)
        var done = 0
        let error: soxr_error_t? = buffer.samples.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                soxr_oneshot(buffer.sampleRate, sampleRate, UInt32(channels),
                             input.baseAddress, inFrames, nil,
                             output.baseAddress, outCapacity, &done,
                             &io, &q, nil)
            }
        }
        if let error {
            throw SystemError(operation: "soxr_oneshot \(buffer.sampleRate) → \(sampleRate) Hz", code: 0,
                              reason: String(cString: error))
        }
        out.removeSubrange((done * channels)...)
        return AudioBuffer(samples: out, channelCount: channels, sampleRate: sampleRate)
    }
}

/// soxr fed in pieces: converts a sound chunk by chunk as it is decoded, so a long file
/// is never held at its source rate. The output is exactly `outputFrames(for:)` frames
/// long (soxr's own count can differ by a frame; the tail is trimmed or left silent).
///
/// The corresponding C functions are `soxr_create`, `soxr_process` and `soxr_delete`.
///
/// Thread: one thread at a time (not the render thread: it allocates).
public final class StreamingResampler {
    private let handle: soxr_t
    private let channels: Int
    private let ratio: Double
    private var output: [Float]

    /// A resampler from `inputRate` to `outputRate` (Hz) for interleaved float samples in
    /// `channels` channels, at `quality`. Throws when soxr refuses the rates. The corresponding
    /// C function is `soxr_create`.
    public init(from inputRate: Double, to outputRate: Double, channels: Int,
         quality: Resampler.Quality = .high) throws(SystemError) {
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var q = soxr_quality_spec(quality.recipe, 0)
        var error: soxr_error_t?
        guard let handle = soxr_create(inputRate, outputRate, UInt32(channels), &error, &io, &q, nil), error == nil else {
            throw SystemError(operation: "soxr_create \(inputRate) → \(outputRate) Hz", code: 0,
                              reason: error.map { String(cString: $0) } ?? "failed")
        }
        self.handle = handle
        self.channels = channels
        ratio = outputRate / inputRate
        output = []
    }

    deinit { soxr_delete(handle) }

    /// Output frames for `inputFrames` input frames.
    public static func outputFrames(for inputFrames: Int, from inputRate: Double, to outputRate: Double) -> Int {
        Int((Double(inputFrames) * outputRate / inputRate).rounded())
    }

    /// Converts `frames` interleaved input frames (nil: flush the end) and hands what
    /// comes out to `body`.
    public func process(_ input: UnsafePointer<Float>?, frames: Int,
                 _ body: (UnsafeBufferPointer<Float>) -> Void) throws(SystemError) {
        let capacity = Int((Double(max(frames, 4096)) * ratio).rounded(.up)) + 64
        if output.count < capacity * channels { output = [Float](repeating: 0, count: capacity * channels) }
        var consumed = 0
        repeat {
            var used = 0, produced = 0
            let remaining = frames - consumed
            let error: soxr_error_t? = output.withUnsafeMutableBufferPointer { out in
                soxr_process(handle, input.map { $0 + consumed * channels }, input == nil ? 0 : remaining, &used,
                             out.baseAddress, capacity, &produced)
            }
            if let error {
                throw SystemError(operation: "soxr_process", code: 0, reason: String(cString: error))
            }
            consumed += used
            if produced > 0 { output.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<(produced * channels)])) } }
            // Flushing: repeat until soxr has nothing left.
            if input == nil { if produced == 0 { return } } else if used == 0 && produced == 0 { return }
        } while input == nil || consumed < frames
    }
}
