import Glibc

/// Renders a compiled haptic pattern as sound, for previews and for voice-coil actuators
/// driven as audio (DualSense).
///
/// - Continuous track: one phase-continuous sine. Its frequency follows sharpness on the
///   log map of ``HapticAudioOptions/frequencyRange``; its amplitude follows intensity
///   linearly (so −6.02 dB per halving), through a one-pole smoother
///   (``HapticAudioOptions/smoothingTime``) so edges ramp instead of clicking.
/// - Transients: a burst of ``HapticAudioOptions/transientDuration`` at the frequency its
///   sharpness maps to, amplitude = intensity, envelope `e^(−5x)·(1 − x)` over x = 0…1, so
///   it starts on the transient's exact frame (round(time × rate)) and ends at zero.
/// - Level: full intensity is scaled to the ceiling (−1 dBFS). Where overlaps sum above
///   it, the whole render is normalised by one gain so its peak is exactly the ceiling —
///   offline, a single gain keeps every shape intact (no limiter distortion); the gain is
///   reported in ``HapticAudio/normalizationGain``.
///
/// Frames run from 0 to the pattern's end time plus five smoothing time constants.
///
/// Thread: pure; any thread except the render thread (allocates; this is an offline render).
public enum HapticAudioRenderer {
    /// How many frames `render` gives (without rendering them).
    public static func frameCount(_ compiled: CompiledHaptics, options: HapticAudioOptions = .init()) -> Int {
        let hasContent = !compiled.breakpoints.isEmpty || !compiled.transients.isEmpty
        return hasContent ? Int(((compiled.endTime + 5 * options.smoothingTime) * options.sampleRate).rounded(.up)) + 1 : 0
    }

    /// Renders `compiled` with `options`. `maxFrames` renders only the first frames (a
    /// pattern cut short by the session's end: only what is heard is made); the level is
    /// still the whole pattern's (its peak is found by a streaming pass that stores nothing).
    public static func synthesize(_ compiled: CompiledHaptics, options: HapticAudioOptions = .init(),
                                  maxFrames: Int? = nil) -> HapticAudio {
        let total = frameCount(compiled, options: options)
        let frames = min(total, max(0, maxFrames ?? total))
        var stream = Stream(compiled, options: options)
        var mono = [Float](repeating: 0, count: frames)
        _ = mono.withUnsafeMutableBufferPointer { stream.process(into: $0) }
        let peak = frames == total ? Double(mono.lazy.map { abs($0) }.max() ?? 0) : Self.peak(compiled, options: options)
        let gain = Self.gain(peak: peak, options: options)
        if gain != 1 {
            for n in mono.indices { mono[n] = Float(Double(mono[n]) * gain) }
        }
        let samples: [Float]
        switch options.layout {
        case .mono:
            samples = mono
        case .dualSense:
            samples = [Float](unsafeUninitializedCapacity: frames * 4) { buffer, count in
                for n in 0..<frames { options.layout.spread(mono[n], into: buffer.baseAddress! + 4 * n) }
                count = frames * 4
            }
        }
        return HapticAudio(sampleRate: options.sampleRate, channelCount: options.layout.channelCount, samples: samples,
                           frequencyRange: options.frequencyRange, normalizationGain: gain)
    }

    /// The largest |sample| of the whole render before normalisation, found block by block
    /// (memory: one block, whatever the pattern's length).
    public static func peak(_ compiled: CompiledHaptics, options: HapticAudioOptions = .init()) -> Double {
        var stream = Stream(compiled, options: options)
        var block = [Float](repeating: 0, count: Stream.blockFrames)
        var peak: Float = 0
        while !stream.isFinished {
            let n = block.withUnsafeMutableBufferPointer { stream.process(into: $0) }
            for i in 0..<n { peak = max(peak, abs(block[i])) }
        }
        return Double(peak)
    }

    /// An upper bound of the raw peak (before normalisation) found without rendering, for a
    /// preview that must start at once (`haptics watch`). Outside the transients' bursts the
    /// raw render is the continuous sine alone, whose amplitude never exceeds its intensity
    /// (clamped to 1, scaled by the strength; the smoother only follows its input), so only
    /// the bursts can pass the ceiling. Over each stretch where the same transients sound
    /// (from one transient's start to the next start or the end of the bursts), the bound is
    /// the bursts' part plus the track's:
    /// - the bursts: a transient sounding alone, its exact peak (intensity × the largest
    ///   |envelope × sine| of its burst); several, the sum of each one's intensity × its
    ///   envelope at the stretch's start (the envelopes only fall);
    /// - the track: its largest intensity over the stretch and the five smoothing time
    ///   constants before it (each sounding event's envelope at its largest there, summed, times
    ///   the largest intensity control there, clamped to 1 and scaled), plus e^(−5) of the full
    ///   strength for what the smoother still holds from earlier; where no event sounds in
    ///   that time, what it holds from the last one's end, decayed (e^(−t/smoothingTime)).
    /// Patterns whose bursts sound apart from their track, or over a quiet one, get the gain
    /// `synthesize` gives; where a burst sounds over a strong track the bound is above the
    /// true peak (the sine's and the burst's signs are not known without rendering), so a
    /// stream normalised by it plays quieter than the exactly normalised render.
    public static func peakBound(_ compiled: CompiledHaptics, options: HapticAudioOptions = .init()) -> Double {
        let model = compiled.model
        let scale = model.intensityScale
        let hasTrack = !compiled.breakpoints.isEmpty
        // Where the track's events sound, from their start to the end of their release.
        let extents = model.sources.map {
            (start: min($0.start, $0.intensity.points.first?.time ?? $0.start), end: max($0.tail, $0.intensity.points.last?.time ?? $0.end))
        }
        let rate = options.sampleRate
        let burst = max(1, Int((options.transientDuration * rate).rounded()))
        func envelope(_ m: Int) -> Double {
            let x = Double(m) / Double(burst)
            return m < burst ? exp(-5 * x) * (1 - x) : 0
        }
        let starts = compiled.transients.map { t -> (frame: Int, intensity: Double, step: Double) in
            (Int((t.time * rate).rounded()), t.intensity, 2 * Double.pi * options.frequency(forSharpness: t.sharpness) / rate)
        }.sorted { $0.frame < $1.frame }
        /// The largest |envelope × sine| of one burst (the envelope falls: stop once it is below the best).
        func alonePeak(_ step: Double) -> Double {
            var best = 0.0
            for m in 0..<burst {
                let e = envelope(m)
                if e <= best { break }
                best = max(best, e * abs(sin(step * Double(m + 1))))
            }
            return best
        }
        let controlKnots = model.intensityControl.knotTimes
        /// The track's largest intensity from `a` to `b` seconds, bounded as above.
        func trackBound(_ a: Double, _ b: Double) -> Double {
            var levels = 0.0
            var control = 0.0
            var sounding = false
            for (i, source) in model.sources.enumerated() where extents[i].start <= b && extents[i].end >= a {
                sounding = true
                var level = max(source.intensity.value(at: a), source.intensity.value(at: b, left: true))
                for p in source.intensity.points where p.time >= a && p.time <= b { level = max(level, p.value) }
                levels += level
                control = max(control, source.tailControl ?? model.intensityControl.value(at: source.tail, left: true))
            }
            guard sounding else { return 0 }
            let track = model.intensityControl
            control = max(control, track.value(at: a), track.value(at: b, left: true))
            for t in controlKnots where t >= a && t <= b { control = max(control, track.value(at: t), track.value(at: t, left: true)) }
            return min(1, levels * control) * scale
        }
        var bound = hasTrack ? scale : 0
        var first = 0
        for i in starts.indices {
            while starts[first].frame + burst <= starts[i].frame { first += 1 }
            let bursts = first == i
                ? starts[i].intensity * alonePeak(starts[i].step)
                : starts[first...i].reduce(0) { $0 + $1.intensity * envelope(starts[i].frame - $1.frame) }
            var track = 0.0
            if hasTrack {
                let to = Double(i + 1 < starts.count ? min(starts[i + 1].frame, starts[first].frame + burst) : starts[first].frame + burst) / rate
                let from = Double(starts[i].frame) / rate, before = from - 5 * options.smoothingTime
                if extents.contains(where: { $0.start <= to && $0.end >= before }) {
                    track = trackBound(before, to) + scale * exp(-5)
                } else if let ended = extents.lazy.filter({ $0.end < before }).map(\.end).max() {
                    track = scale * exp(-(from - ended - 1 / rate) / options.smoothingTime)
                }
            }
            // A millionth over: an isolated burst's peak is exact, and the render rounds to Float.
            bound = max(bound, (bursts + track) * (1 + 1e-6))
        }
        return bound * options.peakCeiling
    }

    /// The render as a stream that starts at once: the frames `synthesize` makes, in the
    /// options' layout, with the gain of ``peakBound(_:options:)`` instead of the whole
    /// render's peak (so identical to `synthesize` whenever the bound needs no gain).
    /// Memory: one block.
    public struct Streamed {
        /// Frames the whole render has (``HapticAudioRenderer/frameCount(_:options:)``).
        public let frameCount: Int
        /// Channels a frame has, the options' layout's (1 or 4).
        public let channelCount: Int
        /// The normalisation gain, from the bound.
        public let gain: Double
        private var stream: Stream
        private var mono: [Float]
        private let layout: HapticAudioOptions.Layout

        /// A stream of `compiled` rendered with `options`, at its first frame; finds the
        /// gain from the bound without rendering. Allocates.
        public init(_ compiled: CompiledHaptics, options: HapticAudioOptions = .init()) {
            stream = Stream(compiled, options: options)
            frameCount = stream.frameCount
            channelCount = options.layout.channelCount
            layout = options.layout
            gain = HapticAudioRenderer.gain(peak: HapticAudioRenderer.peakBound(compiled, options: options), options: options)
            mono = [Float](repeating: 0, count: 4096)
        }

        /// Whether every frame has been written (``render(into:)`` then returns 0).
        public var isFinished: Bool { stream.isFinished }

        /// Writes the next frames, interleaved, over the start of `output` (at most
        /// `output.count / channelCount`); returns how many (0 at the end).
        public mutating func render(into output: UnsafeMutableBufferPointer<Float>) -> Int {
            let want = min(output.count / channelCount, mono.count)
            guard want > 0, let out = output.baseAddress else { return 0 }
            let n = mono.withUnsafeMutableBufferPointer { stream.process(into: UnsafeMutableBufferPointer(rebasing: $0[0..<want])) }
            for i in 0..<n {
                let v = gain != 1 ? Float(Double(mono[i]) * gain) : mono[i]
                layout.spread(v, into: out + channelCount * i)
            }
            return n
        }
    }

    /// The one gain that puts a render whose raw peak is `peak` at most at the ceiling.
    public static func gain(peak: Double, options: HapticAudioOptions) -> Double {
        peak > options.peakCeiling ? options.peakCeiling / peak : 1
    }

    /// The render made block by block, before normalisation: mono frames from frame 0 on,
    /// the same samples `synthesize` makes (its continuous sine, then each transient's
    /// burst added in the pattern's order). Stretches with neither (silence) cost nothing
    /// but the zeros.
    public struct Stream {
        /// The block length, in frames, of the peak pass (``HapticAudioRenderer/peak(_:options:)``):
        /// its memory whatever the pattern's length.
        public static let blockFrames = 65_536
        /// Frames the whole render has (``HapticAudioRenderer/frameCount(_:options:)``).
        public let frameCount: Int
        /// The next frame ``process(into:)`` writes, from 0.
        public private(set) var position = 0
        private let options: HapticAudioOptions
        private let hasContinuous: Bool
        private var sweep: HapticSignalModel.Sweeper
        private let k: Double
        private var amplitude = 0.0
        private var phase = 0.0
        private let transients: [HapticTransientEvent]
        /// Transient indices by start frame (ties in the pattern's order).
        private let order: [Int]
        private let starts: [Int]
        private var nextInOrder = 0
        /// Transients that may still sound, in the pattern's order.
        private var active: [Int] = []
        private let burstLength: Int

        /// A stream of `compiled` rendered with `options`, at frame 0. Allocates.
        public init(_ compiled: CompiledHaptics, options: HapticAudioOptions) {
            self.options = options
            frameCount = HapticAudioRenderer.frameCount(compiled, options: options)
            hasContinuous = !compiled.breakpoints.isEmpty
            sweep = compiled.model.sweeper()
            k = 1 - exp(-1 / (options.smoothingTime * options.sampleRate))
            transients = compiled.transients
            let starts = compiled.transients.map { Int(($0.time * options.sampleRate).rounded()) }
            self.starts = starts
            order = starts.indices.sorted { (starts[$0], $0) < (starts[$1], $1) }
            burstLength = max(1, Int((options.transientDuration * options.sampleRate).rounded()))
        }

        /// Whether every frame has been written (``position`` has reached ``frameCount``).
        public var isFinished: Bool { position >= frameCount }

        /// Overwrites the start of `output` with the next frames; returns how many (0 at the end).
        @discardableResult
        public mutating func process(into output: UnsafeMutableBufferPointer<Float>) -> Int {
            let n = min(output.count, frameCount - position)
            guard n > 0, let out = output.baseAddress else { return 0 }
            let rate = options.sampleRate
            let ceiling = options.peakCeiling
            if hasContinuous {
                for i in 0..<n {
                    let v = sweep.evaluate(Double(position + i) / rate)
                    amplitude += k * (v.intensity * ceiling - amplitude)
                    phase += 2 * Double.pi * options.frequency(forSharpness: v.sharpness) / rate
                    if phase > 2 * Double.pi { phase -= 2 * Double.pi }
                    out[i] = Float(amplitude * sin(phase))
                }
            } else {
                out.update(repeating: 0, count: n)
            }
            let end = position + n
            while nextInOrder < order.count && starts[order[nextInOrder]] < end {
                active.append(order[nextInOrder])
                nextInOrder += 1
            }
            if !active.isEmpty {
                active.sort()
                for t in active {
                    let transient = transients[t]
                    let step = 2 * Double.pi * options.frequency(forSharpness: transient.sharpness) / rate
                    let amplitude = transient.intensity * ceiling
                    let first = max(0, position - starts[t]), last = min(burstLength, end - starts[t])
                    guard first < last else { continue }
                    for m in first..<last {
                        let x = Double(m) / Double(burstLength)
                        out[starts[t] + m - position] += Float(amplitude * exp(-5 * x) * (1 - x) * sin(step * Double(m + 1)))
                    }
                }
                active.removeAll { starts[$0] + burstLength <= end }
            }
            position = end
            return n
        }
    }
}
