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
/// With a ``LiveHapticState`` (a track that follows the running session) the layers' maps
/// read the live parameters, transients are mapped when they are felt, and live cues play
/// beside the timeline's.
///
/// Thread: `render` on one thread at a time, allocation-free.
final class HapticSignalSynth: @unchecked Sendable {
    let signal: SessionHapticSignal
    let options: HapticAudioOptions
    let sampleRate: Double
    let live: LiveHapticState?
    /// With `live`: every transient before its maps, sorted by time.
    private let unmapped: [(time: Double, segment: Int, intensity: Double, sharpness: Double)]
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

    init(signal: SessionHapticSignal, options: HapticAudioOptions, sampleRate: Double, live: LiveHapticState? = nil) {
        self.signal = signal
        self.options = options
        self.sampleRate = sampleRate
        self.live = live
        unmapped = live == nil ? [] : signal.unmappedTransients()
        window = .allocate(capacity: max(1, signal.segmentCount))
    }

    deinit { window.deallocate() }

    private func point(_ k: Int, held: Double) -> (intensity: Double, sharpness: Double) {
        let second = k >= 0 ? k / 1000 : (k - 999) / 1000
        if second != windowStart {
            windowStart = second
            windowCount = signal.overlapping(from: Double(second), to: Double(second) + 1.002, into: window)
        }
        let t = Double(k) / SessionHapticSignal.controlRate
        let among = UnsafeBufferPointer(rebasing: window[0..<windowCount])
        guard let live else { return signal.value(at: t, heldSharpness: held, among: among) }
        var sum = 0.0, weighted = 0.0
        signal.accumulate(at: t, among: among, parameter: { liveParameter($0, at: t) }, sum: &sum, weighted: &weighted)
        for i in 0..<live.instanceCount {
            signal.accumulate(pattern: live.triggers[live.kinds[i]].index, origin: Double(live.origins[i]) / sampleRate, at: t,
                              sum: &sum, weighted: &weighted)
        }
        return sum > 0 ? (min(sum, 1), weighted / sum) : (0, held)
    }

    /// Parameter `p` at `t` with `live`: the live value, or the timeline's for one not carried.
    @inline(__always)
    private func liveParameter(_ p: Int, at t: Double) -> Double {
        live!.parameter(p, at: t) { SessionHapticSignal.value(signal.parameters[$0], at: t) }
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
        if live != nil, start == nextFrame, tick != Int.min {
            // What lies past the last period was worked out with the parameters held there:
            // again, with the ones this period brought.
            following = point(tick + 1, held: now.sharpness)
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
        let end = start + FrameTime(count)
        let earliest = Double(start - FrameTime(burst)) / sampleRate
        func add(_ tr: SessionHapticSignal.Transient) {
            let first = FrameTime((tr.time * sampleRate).rounded())
            let step = 2 * Double.pi * options.frequency(forSharpness: tr.sharpness) / sampleRate
            var frame = max(first, start)
            while frame < min(end, first + FrameTime(burst)) {
                let m = Int(frame - first)
                let x = Double(m) / Double(burst)
                base[Int(frame - start)] += Float(tr.intensity * ceiling * exp(-5 * x) * (1 - x) * sin(step * Double(m + 1)))
                frame += 1
            }
        }
        if let live {
            // Mapped with the parameters as they are when each is felt.
            var i = Self.first(in: unmapped, from: earliest) { $0.time }
            while i < unmapped.count {
                let tr = unmapped[i]
                if FrameTime((tr.time * sampleRate).rounded()) >= end { break }
                i += 1
                let segment = signal.segments[tr.segment]
                let (scale, offset) = SessionHapticSignal.maps(segment) { liveParameter($0, at: tr.time) }
                let level = tr.intensity * scale
                guard level > 0 else { continue }
                add(.init(time: tr.time, intensity: min(level, 1), sharpness: min(max(tr.sharpness + offset, 0), 1)))
            }
            for n in 0..<live.instanceCount {
                let origin = Double(live.origins[n]) / sampleRate
                let pattern = signal.patterns[live.triggers[live.kinds[n]].index]
                for tr in pattern.transients {
                    let t = origin + Double(tr.frame) / SessionHapticSignal.controlRate
                    guard t >= earliest, FrameTime((t * sampleRate).rounded()) < end, tr.intensity > 0 else { continue }
                    add(.init(time: t, intensity: min(Double(tr.intensity), 1), sharpness: min(max(Double(tr.sharpness), 0), 1)))
                }
            }
        } else {
            let transients = signal.transients
            var i = Self.first(in: transients, from: earliest) { $0.time }
            while i < transients.count {
                let tr = transients[i]
                if FrameTime((tr.time * sampleRate).rounded()) >= end { break }
                i += 1
                add(tr)
            }
        }
        let top = Float(ceiling)
        for n in 0..<count { base[n] = min(max(base[n], -top), top) }
    }

    /// The index of the first element of `list` (sorted by `time`) at or after `earliest`.
    @inline(__always)
    private static func first<T>(in list: [T], from earliest: Double, time: (T) -> Double) -> Int {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if time(list[mid]) < earliest { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
