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
