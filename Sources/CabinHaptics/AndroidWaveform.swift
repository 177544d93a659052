import CabinJSON

/// A compiled pattern as Android's `VibrationEffect.createWaveform(timings, amplitudes, repeat)`.
///
/// Android's waveform has one amplitude channel (0…255, 0 = off) and no sharpness, so
/// sharpness is dropped. The pattern is cut into steps of `stepMilliseconds` (default
/// 10 ms), and also where each transient starts and stops (a transient sounds for
/// `transientMilliseconds`, default 20 ms, so motors spin up, from its own millisecond);
/// a step's level is the larger of its mean continuous intensity and the largest transient
/// sounding in it; amplitude = round(level × 255). Equal neighbouring steps merge.
/// `createWaveform(long[], int[], int)` with amplitudes needs API level 26 (``minimumAPILevel``),
/// and a device with amplitude control (`Vibrator.hasAmplitudeControl()`; without it any
/// amplitude above 0 is full on).
///
/// Thread: a value type; pure functions; any thread except the render thread.
public struct AndroidWaveform: Sendable, Hashable {
    /// Segment lengths in milliseconds.
    public var timings: [Int]
    /// Segment amplitudes, 0…255.
    public var amplitudes: [Int]

    /// A waveform of the given segments; `timings` and `amplitudes` pair up index by index
    /// and should have the same count.
    public init(timings: [Int], amplitudes: [Int]) {
        self.timings = timings
        self.amplitudes = amplitudes
    }

    /// Converts `compiled` as it plays once from silence (``CompiledHaptics/once``: a loop's
    /// single pass, with its rise and fall: the waveform's `repeat` is -1).
    public init(_ compiled: CompiledHaptics, stepMilliseconds: Int = 10, transientMilliseconds: Int = 20) {
        let sampled = compiled.once.sampled(rate: 1000)
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
        // Segments end on the step grid and where a transient starts and stops, so a click
        // sounds from its own millisecond for its own length, not from the grid's.
        var cuts = Set(stride(from: step, to: levels.count, by: step))
        for t in sampled.transients {
            for edge in [t.frame, t.frame + transientMilliseconds] where edge > 0 && edge < levels.count { cuts.insert(edge) }
        }
        cuts.insert(levels.count)
        var start = 0
        for end in cuts.sorted() where end > start {
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

    /// The Android API level `VibrationEffect.createWaveform` with amplitudes needs.
    public static let minimumAPILevel = 26

    /// Total length in milliseconds.
    public var totalMilliseconds: Int { timings.reduce(0, +) }

    /// `{"timings": [...], "amplitudes": [...], "repeat": -1, "minApiLevel": 26}` (compact JSON).
    public var json: String {
        JSONValue.object([
            ("timings", .array(timings.map { .number($0) })),
            ("amplitudes", .array(amplitudes.map { .number($0) })),
            ("repeat", .number(-1)),
            ("minApiLevel", .number(Self.minimumAPILevel)),
        ]).serialized(pretty: false)
    }
}
