import CabinJSON

/// A compiled pattern as Android's `VibrationEffect.createWaveform(timings, amplitudes, repeat)`.
///
/// Android's waveform has one amplitude channel (0…255, 0 = off) and no sharpness, so
/// sharpness is dropped. The pattern is cut into steps of ``stepMilliseconds`` (default
/// 10 ms); a step's level is the larger of its mean continuous intensity and the largest
/// transient sounding in it (a transient sounds for ``transientMilliseconds``, default 20 ms,
/// so motors spin up); amplitude = round(level × 255). Equal neighbouring steps merge.
///
/// Thread: a value type; pure functions; any thread except the render thread.
public struct AndroidWaveform: Sendable, Hashable {
    /// Segment lengths in milliseconds.
    public var timings: [Int]
    /// Segment amplitudes, 0…255.
    public var amplitudes: [Int]

    public init(timings: [Int], amplitudes: [Int]) {
        self.timings = timings
        self.amplitudes = amplitudes
    }

    /// Converts `compiled`.
    public init(_ compiled: CompiledHaptics, stepMilliseconds: Int = 10, transientMilliseconds: Int = 20) {
        let sampled = compiled.sampled(rate: 1000)
        let levels = sampled.intensity.map(Double.init)
        var transientLevels = [Double](repeating: 0, count: levels.count)
        for t in sampled.transients {
            for k in t.frame..<min(levels.count, t.frame + transientMilliseconds) {
                transientLevels[k] = max(transientLevels[k], Double(t.intensity))
            }
        }
        var timings: [Int] = []
        var amplitudes: [Int] = []
        let step = max(1, stepMilliseconds)
        var start = 0
        while start < levels.count {
            let end = min(levels.count, start + step)
            let mean = levels[start..<end].reduce(0, +) / Double(end - start)
            let level = max(mean, transientLevels[start..<end].max() ?? 0)
            let amplitude = Int((min(max(level, 0), 1) * 255).rounded())
            if amplitudes.last == amplitude {
                timings[timings.count - 1] += end - start
            } else {
                timings.append(end - start)
                amplitudes.append(amplitude)
            }
            start = end
        }
        self.init(timings: timings, amplitudes: amplitudes)
    }

    /// Total length in milliseconds.
    public var totalMilliseconds: Int { timings.reduce(0, +) }

    /// `{"timings": [...], "amplitudes": [...], "repeat": -1}` (compact JSON).
    public var json: String {
        JSONValue.object([
            ("timings", .array(timings.map { .number($0) })),
            ("amplitudes", .array(amplitudes.map { .number($0) })),
            ("repeat", .number(-1)),
        ]).serialized(pretty: false)
    }
}
