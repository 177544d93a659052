import CabinAudio
import CabinIO

/// Plays a finished buffer through ALSA from start to end, blocking: for previews (`cabin
/// haptics play --audio`), not for sessions (those go through the mixer).
///
/// Mono buffers are sent as stereo (the same samples on both channels), because many
/// hardware devices refuse one channel; other channel counts go as they are (a 4-channel
/// DualSense render goes to a 4-channel device).
///
/// Thread: control thread only (blocks for the length of the buffer).
public enum BufferPlayer {
    /// How a preview ended.
    public enum Outcome: Sendable, Equatable {
        /// Every frame was played and drained.
        case finished
        /// `isCancelled` returned true; playback stopped at once.
        case cancelled
    }

    /// Plays `buffer` on `device`, in chunks of one period, polling `isCancelled` between
    /// chunks; `started` is called once the first chunk is written (the sound has begun). The
    /// corresponding C functions are those of ``PCMOutput`` (`snd_pcm_open`, `snd_pcm_writei`,
    /// `snd_pcm_drain`, `snd_pcm_close`).
    public static func play(_ buffer: AudioBuffer, device: String = "default", periodFrames: Int = 1024,
                            isCancelled: () -> Bool = { false }, started: () -> Void = {}) throws(AudioDeviceError) -> Outcome {
        let channels = buffer.channelCount == 1 ? 2 : buffer.channelCount
        let output = try PCMOutput(device: device, configuration: PCMConfiguration(
            sampleRate: Int(buffer.sampleRate.rounded()), channelCount: channels, periodFrames: periodFrames,
            periodCount: 4))
        defer { output.close() }
        var samples = buffer.samples
        if buffer.channelCount == 1 {
            samples = [Float](repeating: 0, count: 2 * buffer.samples.count)
            for (i, v) in buffer.samples.enumerated() {
                samples[2 * i] = v
                samples[2 * i + 1] = v
            }
        }
        let chunk = periodFrames * channels
        var offset = 0
        while offset < samples.count {
            if isCancelled() { return .cancelled }
            let end = min(samples.count, offset + chunk)
            try samples.withUnsafeBufferPointer { (p) throws(AudioDeviceError) in
                try output.write(UnsafeBufferPointer(rebasing: p[offset..<end]))
            }
            if offset == 0 { started() }
            offset = end
        }
        try output.drain()
        return .finished
    }
}
