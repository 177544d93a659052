import CabinAudio
import CabinHaptics
import Glibc

/// A session's combined haptic signal (``SessionHapticSignal``) rendered as audio, block by
/// block, as ``HapticAudioRenderer`` renders one pattern: a phase-continuous sine whose
/// frequency follows sharpness on the options' log map and whose amplitude follows
/// intensity (interpolated linearly between the 1 kHz grid points) through the one-pole
/// smoother, and a decaying burst per transient; full intensity is the ceiling (−1 dBFS),
/// and where a burst lands on a full continuous level the sum is clipped at the ceiling
/// (a session-long track cannot be normalised up front).
///
/// Rendering frames in order gives the same samples at any block size; a render that does
/// not follow the previous one starts afresh (phase 0, the amplitude at its target, no
/// sharpness held from before), so rendering again from the start gives the same samples.
///
/// Thread: `render` on one thread at a time, allocation-free.
final class HapticSignalSynth: @unchecked Sendable {
    let signal: SessionHapticSignal
    let options: HapticAudioOptions
    let sampleRate: Double
    private var nextFrame: FrameTime = -1
    private var amplitude = 0.0
    private var phase = 0.0
    private var tick = Int.min
    private var now = (intensity: 0.0, sharpness: 0.0)
    private var following = (intensity: 0.0, sharpness: 0.0)
    /// The segments that may sound in the current one-second window, and the window.
    private let window: UnsafeMutableBufferPointer<Int>
    private var windowCount = 0
    private var windowStart = Int.min

    init(signal: SessionHapticSignal, options: HapticAudioOptions, sampleRate: Double) {
        self.signal = signal
        self.options = options
        self.sampleRate = sampleRate
        window = .allocate(capacity: max(1, signal.segmentCount))
    }

    deinit { window.deallocate() }

    private func point(_ k: Int, held: Double) -> (intensity: Double, sharpness: Double) {
        let second = k >= 0 ? k / 1000 : (k - 999) / 1000
        if second != windowStart {
            windowStart = second
            windowCount = signal.overlapping(from: Double(second), to: Double(second) + 1.002, into: window)
        }
        return signal.value(at: Double(k) / SessionHapticSignal.controlRate, heldSharpness: held,
                            among: UnsafeBufferPointer(rebasing: window[0..<windowCount]))
    }

    private func values(at frame: FrameTime) -> (intensity: Double, sharpness: Double) {
        let x = Double(frame) / sampleRate * SessionHapticSignal.controlRate
        let k = Int(x.rounded(.down))
        if k != tick {
            if k == tick + 1 {
                now = following
            } else {
                now = point(k, held: now.sharpness)
            }
            following = point(k + 1, held: now.sharpness)
            tick = k
        }
        let f = x - Double(k)
        return (now.intensity + (following.intensity - now.intensity) * f,
                now.sharpness + (following.sharpness - now.sharpness) * f)
    }

    func render(into base: UnsafeMutablePointer<Float>, from start: FrameTime, count: Int) {
        let ceiling = options.peakCeiling
        if start != nextFrame {
            tick = Int.min
            now = (0, 0)
            following = (0, 0)
            amplitude = values(at: start).intensity * ceiling
            phase = 0
        }
        let k = 1 - exp(-1 / (options.smoothingTime * sampleRate))
        for n in 0..<count {
            let v = values(at: start + FrameTime(n))
            amplitude += k * (v.intensity * ceiling - amplitude)
            phase += 2 * Double.pi * options.frequency(forSharpness: v.sharpness) / sampleRate
            if phase > 2 * Double.pi { phase -= 2 * Double.pi }
            base[n] += Float(amplitude * sin(phase))
        }
        nextFrame = start + FrameTime(count)

        let burst = max(1, Int((options.transientDuration * sampleRate).rounded()))
        let transients = signal.transients
        let end = start + FrameTime(count)
        var lo = 0, hi = transients.count
        let earliest = Double(start - FrameTime(burst)) / sampleRate
        while lo < hi {
            let mid = (lo + hi) / 2
            if transients[mid].time < earliest { lo = mid + 1 } else { hi = mid }
        }
        var i = lo
        while i < transients.count {
            let tr = transients[i]
            let first = FrameTime((tr.time * sampleRate).rounded())
            if first >= end { break }
            i += 1
            let step = 2 * Double.pi * options.frequency(forSharpness: tr.sharpness) / sampleRate
            var frame = max(first, start)
            while frame < min(end, first + FrameTime(burst)) {
                let m = Int(frame - first)
                let x = Double(m) / Double(burst)
                base[Int(frame - start)] += Float(tr.intensity * ceiling * exp(-5 * x) * (1 - x) * sin(step * Double(m + 1)))
                frame += 1
            }
        }
        let top = Float(ceiling)
        for n in 0..<count { base[n] = min(max(base[n], -top), top) }
    }
}
