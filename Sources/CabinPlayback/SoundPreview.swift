import CabinAudio
import CabinIO
import CabinOutput
import CabinSession
import FoundationEssentials
import Glibc

/// Hearing one library sound on its own: decoded, at its loudness trim (so every sound
/// plays at the library's reference loudness), optionally looped, rendered to a file or
/// played on a device.
///
/// Thread: control thread only (file and device I/O).
public enum SoundPreview {
    /// The sound as stereo at `sampleRate`, trimmed, played `loops` times through its loop
    /// (one-shots play once).
    public static func buffer(_ entry: SoundManifest.Entry, in library: SoundLibrary, sampleRate: Double = 48000,
                              loops: Int = 1) throws -> AudioBuffer {
        let decoded = try SoundFile.read(library.url(for: entry).path)
        let source = try Resampler.resample(decoded, to: sampleRate)
        let gain = Float(pow(10, entry.trim / 20))
        // Play as the mixer does: from the start to the loop's end, then the loop again.
        var frames: [Int] = []
        if let start = entry.loopStart, let end = entry.loopEnd {
            let ratio = sampleRate / decoded.sampleRate
            let s = min(source.frameCount - 1, Int((Double(start) * ratio).rounded()))
            let e = min(source.frameCount, Int((Double(end) * ratio).rounded()))
            frames = Array(0..<e)
            for _ in 1..<max(1, loops) { frames += Array(s..<e) }
        } else {
            frames = Array(0..<source.frameCount)
        }
        var out = [Float](repeating: 0, count: frames.count * 2)
        for (j, i) in frames.enumerated() {
            out[j * 2] = source[i, 0] * gain
            out[j * 2 + 1] = source[i, source.channelCount - 1] * gain
        }
        return AudioBuffer(samples: out, channelCount: 2, sampleRate: sampleRate)
    }

    /// Plays `buffer` (stereo) on `device` (a `-D` name) and waits until it has been heard.
    public static func play(_ buffer: AudioBuffer, device: String) throws(AudioDeviceError) {
        _ = try BufferPlayer.play(buffer, device: device)
    }
}
