import CEbur128
import Glibc

extension LoudnessMeter {
    /// A measurement fed block by block (a long render need not be held whole): integrated
    /// loudness, true peak, and the highest momentary loudness (400 ms) seen at the ends
    /// of the blocks added.
    ///
    /// Thread: control thread only; one thread at a time.
    public final class Running {
        private let state: UnsafeMutablePointer<ebur128_state>
        private let channelCount: Int
        /// The highest momentary loudness (LUFS) read after an `add`, nil before any sound.
        public private(set) var maximumMomentary: Double?

        /// `truePeak` false measures no true peak (a quarter of the work: no 4× oversampling).
        /// The corresponding C function is `ebur128_init`.
        public init(channelCount: Int, sampleRate: Double, truePeak: Bool = true) throws(SystemError) {
            let mode = Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_M.rawValue | EBUR128_MODE_S.rawValue
                             | (truePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : 0))
            guard let state = ebur128_init(UInt32(channelCount), UInt(sampleRate.rounded()), mode) else {
                throw SystemError(operation: "ebur128_init (\(channelCount) channels, \(Int(sampleRate)) Hz)",
                                  code: 0, reason: "libebur128 refused the configuration")
            }
            self.state = state
            self.channelCount = channelCount
        }

        deinit {
            var owned: UnsafeMutablePointer<ebur128_state>? = state
            ebur128_destroy(&owned)
        }

        /// Adds interleaved frames; feed 100 ms or less at a time for a fine momentary
        /// maximum. The corresponding C functions are `ebur128_add_frames_float` and
        /// `ebur128_loudness_momentary`.
        public func add(_ samples: UnsafeBufferPointer<Float>) throws(SystemError) {
            let frames = samples.count / channelCount
            let status = ebur128_add_frames_float(state, samples.baseAddress, frames)
            if status != 0 { throw SystemError(operation: "ebur128_add_frames_float", code: 0, reason: "libebur128 error \(status)") }
            var m = 0.0
            if ebur128_loudness_momentary(state, &m) == 0, m.isFinite, m > -200 {
                maximumMomentary = max(maximumMomentary ?? m, m)
            }
        }

        /// The momentary loudness (LUFS, the last 400 ms) now; nil in silence. The
        /// corresponding C function is `ebur128_loudness_momentary`.
        public var momentary: Double? {
            var m = 0.0
            guard ebur128_loudness_momentary(state, &m) == 0, m.isFinite, m > -200 else { return nil }
            return m
        }

        /// The highest true peak (linear, over the channels) of the frames given to the last
        /// `add`; 0 when the meter measures no true peak. The corresponding C function is
        /// `ebur128_prev_true_peak`.
        public var lastTruePeak: Double {
            var highest = 0.0
            for channel in 0..<channelCount {
                var peak = 0.0
                if ebur128_prev_true_peak(state, UInt32(channel), &peak) == 0 { highest = max(highest, peak) }
            }
            return highest
        }

        /// The short-term loudness (LUFS, the last 3 s) now; nil in silence. The
        /// corresponding C function is `ebur128_loudness_shortterm`.
        public var shortTerm: Double? {
            var s = 0.0
            guard ebur128_loudness_shortterm(state, &s) == 0, s.isFinite, s > -200 else { return nil }
            return s
        }

        /// Integrated loudness and true peak so far (no loudness range). The corresponding C
        /// functions are `ebur128_loudness_global` and `ebur128_true_peak`.
        public var loudness: Loudness { LoudnessMeter.loudness(of: state, channels: channelCount) }
    }
}
