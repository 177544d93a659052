import CabinHaptics
import CabinTestSupport
import Foundation
import Testing

/// Haptics as audio made block by block (`HapticAudioRenderer.Stream`): the same samples as
/// the whole-array render, at any block size, with a peak found without storing the render,
/// and a cut render (`maxFrames`) that is the full one's beginning at the full one's level.
@Suite("Haptics as audio, streamed")
struct HapticAudioStreamTests {
    /// The renderer as one straightforward pass over a whole array (the algorithm the
    /// streamed one must match): the continuous sine frame by frame, then each transient's
    /// burst added in the pattern's order, then one normalising gain.
    static func reference(_ compiled: CompiledHaptics, options: HapticAudioOptions = .init()) -> [Float] {
        let rate = options.sampleRate, ceiling = options.peakCeiling
        let count = HapticAudioRenderer.frameCount(compiled, options: options)
        var mono = [Float](repeating: 0, count: count)
        if !compiled.breakpoints.isEmpty {
            let k = 1 - exp(-1 / (options.smoothingTime * rate))
            var amplitude = 0.0, phase = 0.0
            for n in 0..<count {
                let v = compiled.value(at: Double(n) / rate)
                amplitude += k * (v.intensity * ceiling - amplitude)
                phase += 2 * Double.pi * options.frequency(forSharpness: v.sharpness) / rate
                if phase > 2 * Double.pi { phase -= 2 * Double.pi }
                mono[n] = Float(amplitude * sin(phase))
            }
        }
        let burst = max(1, Int((options.transientDuration * rate).rounded()))
        for t in compiled.transients {
            let start = Int((t.time * rate).rounded())
            let step = 2 * Double.pi * options.frequency(forSharpness: t.sharpness) / rate
            for m in 0..<burst where start + m < count {
                let x = Double(m) / Double(burst)
                mono[start + m] += Float(t.intensity * ceiling * exp(-5 * x) * (1 - x) * sin(step * Double(m + 1)))
            }
        }
        let peak = Double(mono.lazy.map { abs($0) }.max() ?? 0)
        if peak > ceiling { for n in mono.indices { mono[n] = Float(Double(mono[n]) * ceiling / peak) } }
        return mono
    }

    static let root = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics")
    static func library() throws -> [(String, CompiledHaptics)] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".ahap") }.sorted().map { name in
            let result = HapticReader.read(Array(try Data(contentsOf: root.appendingPathComponent(name))), file: name)
            return (name, HapticCompiler.compile(try #require(result.pattern, "\(name)")))
        }
    }

    /// Overlapping transients on a continuous event: normalised, with several bursts at once.
    static let crowded = HapticCompiler.compile(ahap("""
        {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.3, "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 0.2}]}},
        {"Event": {"Time": 0.105, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 1}]}},
        {"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}},
        {"Event": {"Time": 0.1, "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}}
        """))

    @Test func everyLibraryPatternMatchesTheWholeArrayRender() throws {
        let patterns = try Self.library() + [("crowded", Self.crowded)]
        #expect(patterns.count > 20)
        for (name, compiled) in patterns {
            let streamed = HapticAudioRenderer.synthesize(compiled).samples
            let reference = Self.reference(compiled)
            #expect(streamed.count == reference.count, "\(name)")
            let worst = zip(streamed, reference).map { abs($0 - $1) }.max() ?? 0
            #expect(worst <= 1e-6, "\(name): differs by \(worst)")
        }
        #expect(HapticAudioRenderer.synthesize(Self.crowded).normalizationGain < 1)
    }

    @Test(arguments: [1, 7, 480, 65_536])
    func blockSizeDoesNotChangeABit(block: Int) throws {
        for (name, compiled) in try Self.library().prefix(8) + [("crowded", Self.crowded)] {
            let whole = HapticAudioRenderer.synthesize(compiled)
            var stream = HapticAudioRenderer.Stream(compiled, options: .init())
            var raw: [Float] = []
            var buffer = [Float](repeating: .nan, count: block)
            while !stream.isFinished {
                let n = buffer.withUnsafeMutableBufferPointer { stream.process(into: $0) }
                raw += buffer[0..<n]
            }
            let gain = HapticAudioRenderer.gain(peak: HapticAudioRenderer.peak(compiled), options: .init())
            #expect(gain == whole.normalizationGain, "\(name)")
            #expect(raw.map { gain == 1 ? $0 : Float(Double($0) * gain) } == whole.samples, "\(name) in blocks of \(block)")
        }
    }

    /// A pattern cut at a session's end: the full render's first frames, bit for bit, even
    /// when the loud part that sets the level comes after the cut.
    @Test func aCutRenderIsTheFullOnesBeginning() {
        let lateLoud = HapticCompiler.compile(ahap("""
            {"Event": {"Time": 0, "EventType": "HapticContinuous", "EventDuration": 0.5, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.5}]}},
            {"Event": {"Time": 0.8, "EventType": "HapticContinuous", "EventDuration": 0.3, "EventParameters": []}},
            {"Event": {"Time": 0.9, "EventType": "HapticTransient", "EventParameters": []}}
            """))
        let full = HapticAudioRenderer.synthesize(lateLoud)
        let cut = HapticAudioRenderer.synthesize(lateLoud, maxFrames: 24_000)
        #expect(full.normalizationGain < 1)
        #expect(cut.normalizationGain == full.normalizationGain)
        #expect(cut.samples == Array(full.samples.prefix(24_000)))
        #expect(HapticAudioRenderer.synthesize(lateLoud, maxFrames: 0).samples.isEmpty)
    }
}
