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

    /// The one gain that puts a render whose raw peak is `peak` at most at the ceiling.
    public static func gain(peak: Double, options: HapticAudioOptions) -> Double {
        peak > options.peakCeiling ? options.peakCeiling / peak : 1
    }

    /// The render made block by block, before normalisation: mono frames from frame 0 on,
    /// the same samples `synthesize` makes (its continuous sine, then each transient's
    /// burst added in the pattern's order). Stretches with neither (silence) cost nothing
    /// but the zeros.
    public struct Stream {
        public static let blockFrames = 65_536
        public let frameCount: Int
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
