import CabinAudio
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// `synth:engine`, the engine synthesized live: its firing rate, its resonances held while
/// the rpm moves, its seeded variation, its independence from block sizes, and the drive's
/// `--engine live` (the engine bus alone never repeating itself).
@Suite struct LiveEngineTests {
    static let sampleRate = 48000.0

    /// `seconds` of `synth` alone at 0 dB, mono, rendered in blocks of `block` frames.
    static func render(_ synth: Synth, seconds: Double, block: Int = 512) -> [Float] {
        var config = MixerConfig(sampleRate: sampleRate, maxBlockFrames: 512, buses: [BusConfig(name: "engine", gain: 0)])
        config.isLimiterEnabled = false
        let layer = config.addLayer(LayerConfig(name: "engine", bus: BusID(index: 0), source: .synth(synth), isLooping: true))
        let (mixer, handle) = config.make()
        _ = handle.send(.startLayer(layer, fadeInFrames: 0), at: 0)
        let frames = Int(seconds * sampleRate)
        var stereo = [Float](repeating: 0, count: 2 * frames)
        var done = 0
        stereo.withUnsafeMutableBufferPointer { all in
            while done < frames {
                let n = min(block, frames - done)
                mixer.render(into: UnsafeMutableBufferPointer(rebasing: all[(2 * done)..<(2 * (done + n))]), frameCount: n)
                done += n
            }
        }
        return (0..<frames).map { stereo[2 * $0] }
    }

    /// The power in a band of ±f0/3 around each harmonic of `f0` up to `top` (Hann windows of
    /// 0.5 s, averaged), by harmonic number.
    static func harmonics(_ x: [Float], f0: Double, top: Double) -> [Double] {
        let n = Int(sampleRate / 2)
        let windows = stride(from: 0, to: x.count - n + 1, by: n).map { a in
            (0..<n).map { Double(x[a + $0]) * (0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(n))) }
        }
        return (1...Int(top / f0)).map { k in
            stride(from: Double(k) * f0 - f0 / 3, through: Double(k) * f0 + f0 / 3, by: 2).reduce(0.0) { sum, f in
                sum + windows.reduce(0.0) { $0 + DriveEngineTests.power($1, f) }
            }
        }
    }

    /// The peak of the spectral envelope in `band`: the strongest harmonic there, refined by
    /// a parabola through its and its neighbours' levels (dB).
    /// Read on the harmonics every `grid` Hz (a multiple of `f0`), so two engines at different
    /// rpm are read at the same frequencies: the parabola through three points 150 Hz apart
    /// is biased where the envelope is not symmetric about its peak, and two grids are biased
    /// differently (the V6 at 1500 rpm read every 75 Hz: 475 Hz; every 150 Hz, as at 3000
    /// rpm: 508 Hz; at 3000 rpm: 591 Hz).
    static func envelopePeak(_ x: [Float], f0: Double, grid: Double, in band: ClosedRange<Double>) -> Double {
        let every = Int((grid / f0).rounded())
        let all = harmonics(x, f0: f0, top: band.upperBound + 2 * grid).map { 10 * log10($0 + 1e-30) }
        // h[j] is the level at (j + 1) × grid.
        let h = stride(from: every - 1, to: all.count, by: every).map { all[$0] }
        let inBand = h.indices.filter { band.contains(Double($0 + 1) * grid) }
        let k = inBand.max { h[$0] < h[$1] }!
        guard k > 0, k + 1 < h.count else { return Double(k + 1) * grid }
        let (a, b, c) = (h[k - 1], h[k], h[k + 1])
        let offset = 0.5 * (a - c) / (a - 2 * b + c)
        return (Double(k + 1) + offset) * grid
    }

    /// The firing rate, found where each engine's sound shows it. An even-firing engine's
    /// waveform repeats at every firing, so its autocorrelation peaks at the firing interval.
    /// A cross-plane V8's repeats only once an engine cycle (two revolutions: its banks take
    /// their pulses unevenly, which is its burble), so there the autocorrelation finds the
    /// cycle or a few firings; its firing rate is its strongest spectral line among all
    /// half-orders within ±20 % of the expected rate (3, 3.5, 4, 4.5, 5 × the crank rate):
    /// a rate 1/16 of the cycle off would be another line.
    @Test(arguments: [(4, 2700.0), (6, 2300.0), (8, 2000.0), (6, 800.0)])
    func firesAtRpmOver60TimesHalfTheCylinders(_ cylinders: Int, _ rpm: Double) {
        let x = Self.render(.engine(cylinders: cylinders, rpm: rpm, exhaust: 200), seconds: 2)
        let expected = rpm / 60 * Double(cylinders) / 2
        let found = cylinders == 8
            ? DriveEngineTests.strongest(x, at: 1, in: (0.8 * expected)...(1.2 * expected), step: 0.25, span: 1.5)
            : DriveEngineTests.firingFrequency(x, at: 1, span: 0.5)
        #expect(abs(found / expected - 1) < 0.02, "\(cylinders) cylinders at \(rpm) rpm: \(found) Hz, expected \(expected)")
    }

    /// 1500 → 3000 rpm doubles the firing rate; the spectral envelope stays where it is (a
    /// repitched loop's would double with it): the envelope at 3000 rpm (its harmonics'
    /// levels) matches the one at 1500 rpm best unscaled, and its exhaust peak stays put.
    @Test func resonancesStayPutWhileTheFiringRateDoubles() {
        var rates: [Double] = [], envelopes: [[Double]] = [], peaks: [Double] = []
        for rpm in [1500.0, 3000.0] {
            let x = Self.render(.engine(cylinders: 6, rpm: rpm, exhaust: 600, rasp: 0.1), seconds: 6)
            rates.append(DriveEngineTests.firingFrequency(x, at: 3, span: 0.5))
            envelopes.append(Self.harmonics(x, f0: rpm / 20, top: 3600).map { 10 * log10($0 + 1e-30) })
            peaks.append(Self.envelopePeak(x, f0: rpm / 20, grid: 150, in: 300...1100))
        }
        // The 1500 rpm envelope (harmonics every 75 Hz) at frequency f, linearly between them.
        func low(_ f: Double) -> Double {
            let k = f / 75 - 1, i = Int(k), w = k - Double(i)
            return envelopes[0][i] * (1 - w) + envelopes[0][i + 1] * w
        }
        // The scale s for which the 3000 rpm envelope at f is most like the 1500 rpm one at f / s
        // (levels compared after their mean difference, 150 Hz–2.4 kHz).
        let high = (0..<16).map { Double($0 + 1) * 150 }
        func mismatch(_ s: Double) -> Double {
            let d = high.enumerated().map { envelopes[1][$0.offset] - low($0.element / s) }
            let mean = d.reduce(0, +) / Double(d.count)
            return d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        }
        let best = stride(from: 0.7, through: 2.2, by: 0.01).min { mismatch($0) < mismatch($1) }!
        print("live engine: firing \(rates) Hz; envelope best matched at scale \(best) (a repitched loop: 2); exhaust envelope peak \(peaks) Hz (resonance 600 Hz)")
        #expect(abs(rates[1] / rates[0] - 2) < 0.05, "firing \(rates)")
        #expect(abs(best - 1) <= 0.05, "envelope scale \(best)")
        #expect(abs(peaks[1] / peaks[0] - 1) <= 0.2, "envelope peak \(peaks)")
    }

    /// The level follower holds the synth reference level (−15 dBFS RMS) at every rpm and
    /// cylinder count, however the harmonics meet the fixed resonances (without it: 3.7 dB
    /// between a V8 at 1200 and at 2000 rpm), from half a second after the start.
    @Test(arguments: [4, 8])
    func levelIsHeldAtEveryRpm(_ cylinders: Int) {
        var levels: [Double] = []
        for rpm in [700.0, 1200, 2000, 3000] {
            let x = Self.render(.engine(cylinders: cylinders, rpm: rpm, exhaust: 180, rasp: 1), seconds: 3)
            levels.append(20 * log10(SignalAnalysis.rms(x[24000...])))
        }
        print("live engine, \(cylinders) cylinders at 700, 1200, 2000, 3000 rpm: \(levels) dBFS RMS")
        for level in levels { #expect(abs(level + 15) < 0.5, "\(levels)") }
    }

    /// Same seed, same samples (and at every block size); another seed, another engine.
    @Test func seededAndIndependentOfBlockSize() {
        let synth = Synth.engine(cylinders: 4, rpm: 2000, exhaust: 300, rasp: 2, seed: 7)
        let reference = Self.render(synth, seconds: 1.5)
        for block in [1, 7, 64, 512] {
            #expect(Self.render(synth, seconds: 1.5, block: block) == reference, "block \(block)")
        }
        let other = Self.render(synth.seeded(8), seconds: 1.5)
        #expect(other != reference)
        // Not silent, and at the synth reference level (−15 dBFS RMS; the level follower).
        let level = 20 * log10(SignalAnalysis.rms(reference[24000...]))
        #expect(abs(level + 15) < 0.5, "\(level) dBFS RMS")
    }

    /// The drive with `--engine live`: the combustion engines are one `synth:engine` layer,
    /// and the engine bus alone repeats far less than the loops' (which score 1.00 where two
    /// wander ramps cross the same speed) over 5 minutes; scripts/repetition gives the
    /// 10-minute figures. (0.70 here: above the 0.5 — the live engine at one rpm is
    /// still a near-periodic pulse train.)
    @Test func driveEngineBusAloneRepeatsLessThanTheLoops() throws {
        var figures: [String: Double] = [:]
        for engine in ["loops", "live"] {
            let (doc, compiled) = try DriveEngineTests.engineOnly(["vehicle": "v6", "engine": engine])
            if engine == "live" { #expect(doc.layers.filter { $0.bus == "engine" }.map(\.name) == ["engine"]) }
            let runner = SessionRunner(compiled)
            let frames = Int(300 * Self.sampleRate)
            var stereo = [Float](repeating: 0, count: 2 * frames)
            var done = 0
            stereo.withUnsafeMutableBufferPointer { all in
                while done < frames {
                    let n = min(4096, frames - done)
                    _ = runner.render(into: UnsafeMutableBufferPointer(rebasing: all[(2 * done)..<(2 * (done + n))]), frameCount: n)
                    done += n
                }
            }
            let result = RepetitionFigure.measure(interleaved: stereo, sampleRate: Self.sampleRate)
            print("\(engine) V6 engine bus alone, 5 min: repetition \(result.figure) at lag \(result.lag) s (window at \(result.at) s)")
            figures[engine] = result.figure
        }
        #expect(try #require(figures["loops"]) >= 0.95)
        #expect(try #require(figures["live"]) <= 0.8)
    }
}
