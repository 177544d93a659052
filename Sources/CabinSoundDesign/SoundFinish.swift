import CabinAudio
import Glibc

/// The last steps of every recipe: gentle fades for one-shots, peak normalisation with
/// headroom for the codec and true-peak overshoot, and conversion to an `AudioBuffer`.
///
/// Thread: pure functions; any thread except the render thread.
public enum SoundFinish {
    /// Channels (each the same length) → interleaved Float buffer whose sample peak is
    /// `peakDB` dBFS. One-shots get a raised-cosine `fadeIn`/`fadeOut` (seconds) so no
    /// sound starts or ends with a step.
    public static func buffer(_ channels: [[Double]], sampleRate: Double, peakDB: Double = -4,
                              fadeIn: Double = 0, fadeOut: Double = 0) -> AudioBuffer {
        precondition(!channels.isEmpty)
        let frames = channels[0].count
        var chans = channels
        let inFrames = min(frames, Int(fadeIn * sampleRate)), outFrames = min(frames, Int(fadeOut * sampleRate))
        for c in chans.indices {
            for i in 0..<inFrames { chans[c][i] *= raisedCosine(Double(i) / Double(inFrames)) }
            for i in 0..<outFrames { chans[c][frames - 1 - i] *= raisedCosine(Double(i) / Double(outFrames)) }
        }
        let peak = chans.map(\.peakMagnitude).max() ?? 0
        let gain = peak > 0 ? pow(10, peakDB / 20) / peak : 1
        var samples = [Float](repeating: 0, count: frames * chans.count)
        for c in chans.indices {
            for i in 0..<frames { samples[i * chans.count + c] = Float(chans[c][i] * gain) }
        }
        return AudioBuffer(samples: samples, channelCount: chans.count, sampleRate: sampleRate)
    }

    /// 0 → 0, 1 → 1, smooth at both ends.
    @inline(__always) public static func raisedCosine(_ t: Double) -> Double {
        // At the ends the cosine is exactly ∓1 (cos(0) = 1, cos(Double.pi) = −1 in glibc):
        // the same values without calling it (most frames of a note are past its ramp).
        if t >= 1 { return 1 }
        if t <= 0 { return 0 }
        return 0.5 - 0.5 * cos(Double.pi * t)
    }

    /// A soft saturator: linear for small signals, rounding peaks (warmth, never hard clipping).
    @inline(__always) public static func saturate(_ x: Double, drive: Double) -> Double {
        drive <= 0 ? x : tanh(x * drive) / drive
    }

    /// Exponential decay envelope value at `t` seconds with time constant `tau`.
    @inline(__always) public static func decay(_ t: Double, _ tau: Double) -> Double { t < 0 ? 0 : exp(-t / tau) }
}
