import CabinHaptics
import CabinIO
import CabinJSON

/// Compile-speed figures for `cabin bench --haptics`: how long reading (JSON, walk,
/// diagnostics) and compiling (envelopes, controls, breakpoints) take for a large studio
/// export and for a pattern of many events.
///
/// The two standard inputs are generated (deterministic, seeded), so the benchmark needs no
/// files: ``studioExport(bytes:)`` writes a Meta Haptics Studio `.haptic` export of about
/// the given size in the shape Studio writes (compact JSON, full-precision numbers, an
/// amplitude envelope with emphasis on most breakpoints, a frequency envelope), and
/// ``manyEvents(_:)`` an AHAP of transients and continuous events with event parameters and
/// intensity/sharpness curves. A real file can be measured instead.
///
/// ```swift
/// let figures = HapticBenchmark.measure(HapticBenchmark.manyEvents(10_000), file: "many.ahap")
/// print(figures.totalMilliseconds)   // median of the runs: read + compile
/// ```
///
/// Times are the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), so other work on a
/// shared machine does not inflate them.
///
/// Thread: the calling thread (it times work done on it); not the render thread.
package enum HapticBenchmark {
    /// Figures from one measurement: the best run of each step (the least disturbed by other
    /// work on the machine), and the median of read + compile.
    package struct Figures: Sendable {
        package var bytes: Int
        package var events: Int
        package var breakpoints: Int
        package var transients: Int
        /// JSON parse only into the flat ``JSONDocument`` the readers walk (the floor every
        /// reader pays), best run, ms.
        package var parseMilliseconds: Double
        /// Read (parse, walk, diagnostics, pattern), best run, ms.
        package var readMilliseconds: Double
        /// Compile of the read pattern, best run, ms.
        package var compileMilliseconds: Double
        /// Read and compile in one go, best run, ms.
        package var totalMilliseconds: Double
        /// Read and compile in one go, median, ms.
        package var medianTotalMilliseconds: Double
        package var runs: Int
    }

    /// Reads and compiles `bytes` `runs` times (after one warm-up) and returns the figures.
    /// No figures when the bytes are not a pattern Cabin reads (the diagnostics say why).
    package static func measure(_ bytes: [UInt8], file: String, runs: Int = 21) -> (figures: Figures?, diagnostics: Diagnostics) {
        // The thread's own CPU time: on a shared machine, time other processes take from this
        // thread does not count (wall-clock medians moved by 3× under load; this does not).
        struct Clock {
            var now: Int { Int(ThreadCPUClock.nanoseconds()) }
        }
        let clock = Clock()
        func ms(_ ns: Int) -> Double { Double(ns) / 1e6 }
        let first = HapticReader.read(bytes, file: file)
        guard let pattern = first.pattern else { return (nil, first.diagnostics) }
        var parse: [Double] = [], read: [Double] = [], compile: [Double] = [], total: [Double] = []
        var compiled = HapticCompiler.compile(pattern)
        for _ in 0..<max(1, runs) {
            var scratch = Diagnostics(file: file)
            var start = clock.now
            let root = JSONParser.parseDocument(bytes, options: .lenient, diagnostics: &scratch)
            parse.append(ms(clock.now - start))
            precondition(root != nil)
            start = clock.now
            let result = HapticReader.read(bytes, file: file)
            read.append(ms(clock.now - start))
            start = clock.now
            compiled = HapticCompiler.compile(pattern)
            compile.append(ms(clock.now - start))
            start = clock.now
            if let p = HapticReader.read(bytes, file: file).pattern { compiled = HapticCompiler.compile(p) }
            total.append(ms(clock.now - start))
            precondition(result.pattern != nil)
        }
        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        func best(_ xs: [Double]) -> Double { xs.min() ?? 0 }
        return (Figures(
            bytes: bytes.count, events: pattern.events.count, breakpoints: compiled.breakpoints.count,
            transients: compiled.transients.count, parseMilliseconds: best(parse),
            readMilliseconds: best(read), compileMilliseconds: best(compile),
            totalMilliseconds: best(total), medianTotalMilliseconds: median(total), runs: max(1, runs)), first.diagnostics)
    }

    /// A Studio-style `.haptic` export of about `bytes` bytes (the issue's reference is a
    /// 160 KB export): breakpoints every 5…40 ms with 16-17 significant digits, emphasis on
    /// about two breakpoints in three, a frequency envelope at a quarter of the density.
    package static func studioExport(bytes target: Int = 160_000, seed: UInt64 = 0x5EED) -> [UInt8] {
        var random = BenchRandom(seed)
        var amplitude = ""
        var frequency = ""
        var t = 0.0
        var count = 0
        let head = #"{"version":{"major":1,"minor":0,"patch":0},"metadata":{"author":"bench","editor":"Meta Haptics Studio","source":"bench.wav","project":"bench","tags":[],"description":""},"signals":{"continuous":{"envelopes":{"amplitude":["#
        while head.utf8.count + amplitude.utf8.count + frequency.utf8.count + 10 < target {
            if count > 0 { amplitude += "," }
            amplitude += #"{"time":\#(t),"amplitude":\#(random.unit())"#
            if random.unit() < 0.66 {
                amplitude += #","emphasis":{"amplitude":\#(random.unit()),"frequency":\#(random.unit())}"#
            }
            amplitude += "}"
            if count % 4 == 0 {
                if !frequency.isEmpty { frequency += "," }
                frequency += #"{"time":\#(t),"frequency":\#(random.unit())}"#
            }
            count += 1
            t += 0.005 + 0.035 * random.unit()
        }
        return Array((head + amplitude + #"],"frequency":["# + frequency + "]}}}}").utf8)
    }

    /// An AHAP of `count` events, laid out as Apple's samples are (two-space indent, one
    /// parameter per line, times and values with up to four decimals): three transients to
    /// one 50–250 ms continuous event, each with intensity and sharpness, every 10…60 ms,
    /// and an intensity and a sharpness curve of 16 points every 500 events.
    package static func manyEvents(_ count: Int = 10_000, seed: UInt64 = 0xE7E7) -> [UInt8] {
        var random = BenchRandom(seed)
        var out = "{\n  \"Version\": 1.0,\n  \"Pattern\": [\n"
        out.reserveCapacity(count * 330)
        var t = 0.0
        func r4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
        func parameter(_ id: String, _ v: Double, last: Bool = false) -> String {
            "          { \"ParameterID\": \"\(id)\", \"ParameterValue\": \(r4(v)) }" + (last ? "\n" : ",\n")
        }
        for i in 0..<count {
            if i % 500 == 0 {
                for id in ["HapticIntensityControl", "HapticSharpnessControl"] {
                    out += "    {\n      \"ParameterCurve\": {\n        \"ParameterID\": \"\(id)\",\n"
                        + "        \"Time\": \(r4(t)),\n        \"ParameterCurveControlPoints\": [\n"
                    for k in 0..<16 {
                        let v = id == "HapticIntensityControl" ? 0.5 + 0.5 * random.unit() : random.unit() - 0.5
                        out += "          { \"Time\": \(r4(Double(k) * 0.1)), \"ParameterValue\": \(r4(v)) }"
                            + (k == 15 ? "\n" : ",\n")
                    }
                    out += "        ]\n      }\n    },\n"
                }
            }
            out += "    {\n      \"Event\": {\n        \"Time\": \(r4(t)),\n"
            if i % 4 == 3 {
                out += "        \"EventType\": \"HapticContinuous\",\n"
                    + "        \"EventDuration\": \(r4(0.05 + 0.2 * random.unit())),\n"
            } else {
                out += "        \"EventType\": \"HapticTransient\",\n"
            }
            out += "        \"EventParameters\": [\n" + parameter("HapticIntensity", random.unit())
                + parameter("HapticSharpness", random.unit(), last: true) + "        ]\n      }\n    }"
                + (i == count - 1 ? "\n" : ",\n")
            t += 0.01 + 0.05 * random.unit()
        }
        out += "  ]\n}\n"
        return Array(out.utf8)
    }
}

/// A small seeded generator (SplitMix64) for the benchmark inputs.
struct BenchRandom {
    var state: UInt64
    init(_ seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in 0..<1 with 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
