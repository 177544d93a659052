import CabinAudio
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

    /// The preview streamed from its first block (`Streamed`, for `haptics watch`): its gain
    /// comes from `peakBound`, which is never below the render's true raw peak, on every
    /// library pattern, the crowded one and seeded random ones (transients on and off a
    /// track, several at once, curves, weaker strengths); its frames are the render's raw
    /// ones times that gain, in the layout asked for, so wherever the bound needs no gain
    /// the stream is `synthesize`'s render sample for sample, and it never passes the ceiling.
    @Test func theStreamedPreviewIsTheRenderUnderAGainBound() throws {
        var patterns = try Self.library() + [("crowded", Self.crowded)]
        var random = SeededRandom(seed: 30)
        for k in 0..<12 {
            var events: [String] = []
            var t = 0.0
            for _ in 0..<40 {
                if random.unit() < 0.3 {
                    events.append(#"{"Event": {"Time": \#(t), "EventType": "HapticContinuous", "EventDuration": \#(0.02 + 0.2 * random.unit()), "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": \#(random.unit())}, {"ParameterID": "HapticSharpness", "ParameterValue": \#(random.unit())}]}}"#)
                } else {
                    events.append(#"{"Event": {"Time": \#(t), "EventType": "HapticTransient", "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": \#(random.unit())}, {"ParameterID": "HapticSharpness", "ParameterValue": \#(random.unit())}]}}"#)
                }
                t += random.unit() < 0.3 ? 0.003 : 0.01 + 0.08 * random.unit()
            }
            if k % 3 == 0 {
                events.append(#"{"ParameterCurve": {"ParameterID": "HapticIntensityControl", "Time": 0, "ParameterCurveControlPoints": [{"Time": 0, "ParameterValue": 1}, {"Time": \#(t / 2), "ParameterValue": 0.2}, {"Time": \#(t), "ParameterValue": 1}]}}"#)
            }
            let strength: HapticStrength = k % 4 == 1 ? .light : .strong
            patterns.append(("random \(k)", HapticCompiler.compile(ahap(events.joined(separator: ",\n")),
                                                                  options: HapticCompileOptions(strength: strength))))
        }
        var quieter: [String] = []
        for (name, compiled) in patterns {
            for layout in [HapticAudioOptions.Layout.mono, .dualSense] {
                let options = HapticAudioOptions(layout: layout)
                let raw = HapticAudioRenderer.peak(compiled, options: options)
                let bound = HapticAudioRenderer.peakBound(compiled, options: options)
                #expect(bound >= raw, "\(name): bound \(bound) under the peak \(raw)")
                var stream = HapticAudioRenderer.Streamed(compiled, options: options)
                #expect(stream.gain == HapticAudioRenderer.gain(peak: bound, options: options))
                var streamed: [Float] = []
                var block = [Float](repeating: .nan, count: 1000 * layout.channelCount)
                while true {
                    let n = block.withUnsafeMutableBufferPointer { stream.render(into: $0) }
                    if n == 0 { break }
                    streamed += block[0..<(n * layout.channelCount)]
                }
                let whole = HapticAudioRenderer.synthesize(compiled, options: options)
                #expect(streamed.count == whole.samples.count, "\(name)")
                // The render's raw frames (undo its gain exactly: compare against the raw stream).
                var rawStream = HapticAudioRenderer.Stream(compiled, options: options)
                var mono = [Float](repeating: 0, count: rawStream.frameCount)
                _ = mono.withUnsafeMutableBufferPointer { rawStream.process(into: $0) }
                var expected = [Float](repeating: 0, count: mono.count * layout.channelCount)
                expected.withUnsafeMutableBufferPointer { out in
                    for n in mono.indices {
                        layout.spread(stream.gain == 1 ? mono[n] : Float(Double(mono[n]) * stream.gain), into: out.baseAddress! + n * layout.channelCount)
                    }
                }
                #expect(streamed == expected ? true : false, "\(name)")
                #expect(Double(streamed.lazy.map { abs($0) }.max() ?? 0) <= options.peakCeiling + 1e-6, "\(name)")
                // One kind alone, its bursts apart: the bound is the true level, nothing changes.
                let apart = zip(compiled.transients, compiled.transients.dropFirst()).allSatisfy { $1.time - $0.time >= 0.021 }
                if (compiled.transients.isEmpty || compiled.breakpoints.isEmpty) && apart {
                    #expect(streamed == whole.samples ? true : false, "\(name): one kind alone")
                }
                if stream.gain == 1 && whole.normalizationGain == 1 {
                    #expect(streamed == whole.samples ? true : false, "\(name)")
                } else if layout == .mono {
                    quieter.append("\(name) \(String(format: "%.1f", 20 * log10(stream.gain / whole.normalizationGain))) dB")
                }
            }
        }
        print("streamed quieter than the render: \(quieter.joined(separator: ", "))")
    }
}
