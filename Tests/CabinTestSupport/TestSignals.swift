import CabinAudio
import Foundation

/// Signals made in memory for tests.
public enum TestSignals {
    /// A sine of `frequency` at `amplitude`, the same on every channel.
    public static func sine(frequency: Double, amplitude: Double, seconds: Double,
                            sampleRate: Double = 48000, channelCount: Int = 1) -> AudioBuffer {
        let frames = Int((seconds * sampleRate).rounded())
        var samples = [Float](repeating: 0, count: frames * channelCount)
        for f in 0..<frames {
            let v = Float(amplitude * sin(2 * .pi * frequency * Double(f) / sampleRate))
            for c in 0..<channelCount { samples[f * channelCount + c] = v }
        }
        return AudioBuffer(samples: samples, channelCount: channelCount, sampleRate: sampleRate)
    }

    /// Deterministic noise quantized to multiples of `1/scale` (exact in every PCM format
    /// whose step divides it), in −1…1.
    public static func quantizedNoise(frames: Int, channelCount: Int, scale: Double, seed: UInt64 = 1) -> AudioBuffer {
        var state = seed
        var samples = [Float](repeating: 0, count: frames * channelCount)
        for i in samples.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let r = Double(Int64(bitPattern: state) >> 11) / Double(1 << 52) // −1…1
            samples[i] = Float((r * (scale - 1)).rounded() / scale)
        }
        return AudioBuffer(samples: samples, channelCount: channelCount, sampleRate: 48000)
    }
}
