import CabinAudio
import CEbur128
import Glibc

/// EBU R128 loudness of a sound, measured with libebur128.
public struct Loudness: Sendable, Equatable, Codable {
    /// Integrated loudness in LUFS (−∞ for silence, reported as `nil`).
    public var integrated: Double?
    /// Highest true peak over all channels in dBTP (4× oversampled below 96 kHz).
    public var truePeak: Double?
    /// Loudness range in LU.
    public var range: Double?
}

/// Measures loudness (integrated LUFS, true peak, loudness range) with libebur128.
///
/// Mono is measured as dual mono (the way Cabin plays it: the same signal on both
/// speakers), so a mono file and the stereo file with that signal on both channels read
/// the same.
///
/// Thread: control thread only (allocates).
public enum LoudnessMeter {
    /// Measures a whole buffer. The corresponding C functions are `ebur128_init`,
    /// `ebur128_add_frames_float`, `ebur128_loudness_global`, `ebur128_true_peak`,
    /// `ebur128_loudness_range` and `ebur128_destroy`.
    public static func measure(_ buffer: AudioBuffer) throws(SystemError) -> Loudness {
        let channels = buffer.channelCount
        let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue)
        guard let state = ebur128_init(UInt32(channels), UInt(buffer.sampleRate.rounded()), mode) else {
            throw SystemError(operation: "ebur128_init (\(channels) channels, \(Int(buffer.sampleRate)) Hz)",
                              code: 0, reason: "libebur128 refused the configuration")
        }
        defer {
            var owned: UnsafeMutablePointer<ebur128_state>? = state
            ebur128_destroy(&owned)
        }
        if channels == 1 { ebur128_set_channel(state, 0, Int32(EBUR128_DUAL_MONO.rawValue)) }
        let status = buffer.samples.withUnsafeBufferPointer {
            ebur128_add_frames_float(state, $0.baseAddress, buffer.frameCount)
        }
        try check(status, "ebur128_add_frames_float")
        var result = loudness(of: state, channels: channels)
        var value = 0.0
        if ebur128_loudness_range(state, &value) == 0, value.isFinite { result.range = value }
        return result
    }

    /// Integrated loudness and true peak of what `state` has measured (no range). The
    /// corresponding C functions are `ebur128_loudness_global` and `ebur128_true_peak`.
    static func loudness(of state: UnsafeMutablePointer<ebur128_state>, channels: Int) -> Loudness {
        var result = Loudness()
        var value = 0.0
        if ebur128_loudness_global(state, &value) == 0, value.isFinite { result.integrated = value }
        var peak = 0.0
        for c in 0..<channels {
            var p = 0.0
            if ebur128_true_peak(state, UInt32(c), &p) == 0 { peak = max(peak, p) }
        }
        if peak > 0 { result.truePeak = 20 * log10(peak) }
        return result
    }

    private static func check(_ status: Int32, _ operation: String) throws(SystemError) {
        if status != 0 { throw SystemError(operation: operation, code: 0, reason: "libebur128 error \(status)") }
    }
}
