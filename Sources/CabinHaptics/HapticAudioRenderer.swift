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

    /// Renders `compiled` with `options`.
    public static func synthesize(_ compiled: CompiledHaptics, options: HapticAudioOptions = .init()) -> HapticAudio {
        let rate = options.sampleRate
        let ceiling = options.peakCeiling
        let frameCount = HapticAudioRenderer.frameCount(compiled, options: options)
        var mono = [Float](repeating: 0, count: frameCount)

        if !compiled.breakpoints.isEmpty {
            let k = 1 - exp(-1 / (options.smoothingTime * rate))
            var sweep = compiled.model.sweeper()
            var amplitude = 0.0
            var phase = 0.0
            for n in 0..<frameCount {
                let v = sweep.evaluate(Double(n) / rate)
                amplitude += k * (v.intensity * ceiling - amplitude)
                phase += 2 * Double.pi * options.frequency(forSharpness: v.sharpness) / rate
                if phase > 2 * Double.pi { phase -= 2 * Double.pi }
                mono[n] = Float(amplitude * sin(phase))
            }
        }

        let burstLength = max(1, Int((options.transientDuration * rate).rounded()))
        for transient in compiled.transients {
            let start = Int((transient.time * rate).rounded())
            let step = 2 * Double.pi * options.frequency(forSharpness: transient.sharpness) / rate
            let amplitude = transient.intensity * ceiling
            for m in 0..<burstLength where start + m < frameCount {
                let x = Double(m) / Double(burstLength)
                mono[start + m] += Float(amplitude * exp(-5 * x) * (1 - x) * sin(step * Double(m + 1)))
            }
        }

        let peak = Double(mono.lazy.map { abs($0) }.max() ?? 0)
        var gain = 1.0
        if peak > ceiling {
            gain = ceiling / peak
            for n in mono.indices { mono[n] = Float(Double(mono[n]) * gain) }
        }

        let samples: [Float]
        switch options.layout {
        case .mono:
            samples = mono
        case .dualSense:
            var interleaved = [Float](repeating: 0, count: frameCount * 4)
            for n in 0..<frameCount {
                interleaved[4 * n + 2] = mono[n]
                interleaved[4 * n + 3] = mono[n]
            }
            samples = interleaved
        }
        return HapticAudio(sampleRate: rate, channelCount: options.layout.channelCount, samples: samples,
                           frequencyRange: options.frequencyRange, normalizationGain: gain)
    }
}
