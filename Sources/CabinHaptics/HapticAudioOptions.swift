import Glibc

/// How ``HapticAudioRenderer`` turns haptics into sound.
///
/// Thread: a value type; any thread.
public struct HapticAudioOptions: Sendable, Hashable {
    /// Channel layouts the renderer writes.
    public enum Layout: Sendable, Hashable {
        /// One channel.
        case mono
        /// Four interleaved channels with the haptics on channels 3 and 4 (1 and 2 silent),
        /// as DualSense voice-coil haptics are driven over USB audio.
        case dualSense

        /// Channels a frame of this layout has: 1 for mono, 4 for DualSense.
        public var channelCount: Int { self == .mono ? 1 : 4 }

        /// Writes one mono sample as a frame of this layout (DualSense: channels 3 and 4,
        /// 1 and 2 silent).
        @inline(__always)
        public func spread(_ sample: Float, into frame: UnsafeMutablePointer<Float>) {
            switch self {
            case .mono: frame[0] = sample
            case .dualSense:
                frame[0] = 0
                frame[1] = 0
                frame[2] = sample
                frame[3] = sample
            }
        }
    }

    /// Frames a second of the rendered audio (default 48 000).
    public var sampleRate: Double
    /// Sharpness 0 maps to the lower bound, 1 to the upper, logarithmically in between
    /// (default 60…300 Hz).
    public var frequencyRange: ClosedRange<Double>
    /// The channels the renderer writes (default mono).
    public var layout: Layout
    /// Length of a transient's decaying burst in seconds (default 20 ms; 10–30 ms sensible).
    public var transientDuration: Double
    /// Time constant of the one-pole smoother on the continuous amplitude (default 6 ms);
    /// it keeps edges from clicking: the amplitude never moves faster per sample than a
    /// 60 Hz sine does.
    public var smoothingTime: Double
    /// The highest peak allowed, in dBFS (default −1).
    public var peakCeilingDecibels: Double

    /// Options with the given values (each property says its unit and default).
    public init(
        sampleRate: Double = 48_000, frequencyRange: ClosedRange<Double> = 60...300, layout: Layout = .mono,
        transientDuration: Double = 0.02, smoothingTime: Double = 0.006, peakCeilingDecibels: Double = -1
    ) {
        self.sampleRate = sampleRate
        self.frequencyRange = frequencyRange
        self.layout = layout
        self.transientDuration = transientDuration
        self.smoothingTime = smoothingTime
        self.peakCeilingDecibels = peakCeilingDecibels
    }

    /// The frequency a sharpness maps to: `low × (high / low)^sharpness`.
    public func frequency(forSharpness sharpness: Double) -> Double {
        frequencyRange.lowerBound
            * pow(frequencyRange.upperBound / frequencyRange.lowerBound, min(max(sharpness, 0), 1))
    }

    /// The linear ceiling, `10^(dB / 20)` (≈ 0.891 for −1 dBFS).
    public var peakCeiling: Double { pow(10, peakCeilingDecibels / 20) }
}

/// Haptics rendered as audio: interleaved Float samples plus what was used to make them.
///
/// Thread: a value type; any thread.
public struct HapticAudio: Sendable, Hashable {
    /// Frames a second.
    public var sampleRate: Double
    /// Channels a frame has (the layout's: 1 or 4).
    public var channelCount: Int
    /// Interleaved samples, `frameCount × channelCount`.
    public var samples: [Float]
    /// The sharpness → frequency range used (recorded so a file can say how it was made).
    public var frequencyRange: ClosedRange<Double>
    /// The gain the final normalisation applied (1 when the mix was already under the ceiling).
    public var normalizationGain: Double

    /// Frames in ``samples`` (0 when ``channelCount`` is 0).
    public var frameCount: Int { channelCount == 0 ? 0 : samples.count / channelCount }

    /// The samples of one channel (0-based).
    public func channel(_ index: Int) -> [Float] {
        stride(from: index, to: samples.count, by: channelCount).map { samples[$0] }
    }
}
