import Testing
import CabinAudio
import CabinTestSupport
import Foundation

/// Variable-rate playback through the Hermite reader, following a parameter map.
@Suite struct MixerPitchTests {
    func engineConfig(points: [(Double, Double)], speed: Double) -> (MixerConfig, LayerID, ParameterID) {
        var config = Render.config()
        let tone = config.addAsset(Render.sine(frequency: 1_000, sampleRate: 48_000, frameCount: 48_000, amplitude: 0.5),
                                   loop: LoopPoints(start: 0, end: 48_000))
        let p = config.addParameter("speed", value: speed, range: 0...80)
        let layer = config.addLayer(LayerConfig(name: "engine", bus: BusID(index: 0), source: .asset(tone), isLooping: true,
                                                pitchMap: ParameterMap(parameter: p, points: points)))
        return (config, layer, p)
    }

    @Test func hermiteAtRatioOnePointFiveIsCleanOneAndAHalfKilohertz() throws {
        let (config, layer, _) = engineConfig(points: [(0, 1.5), (80, 1.5)], speed: 40)
        let out = Render.left(Render.scene(config, commands: [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0))],
                                           frameCount: 24_000))
        let steady = Array(out[1_000..<24_000])
        let f = try #require(SignalAnalysis.zeroCrossingFrequency(steady, sampleRate: 48_000))
        #expect(abs(f - 1_500) < 0.5)
        let sinad = SignalAnalysis.sinad(steady, frequency: 1_500, sampleRate: 48_000)
        #expect(sinad >= 60, "SINAD \(sinad) dB")
    }

    /// A layer at a steady pitch (the four-frames-at-a-time Hermite path) against the same
    /// layer read frame by frame (its gain map's parameter moving, so the gain is computed
    /// per frame — the same value, 0 dB, on every frame): every sample the same bits, for
    /// stereo and mono, float and 16-bit assets, across loop seams and a one-shot's end.
    @Test(arguments: [1.37, 0.71, 2.5])
    func steadyPitchReadsTheSameSamplesAsFrameByFrame(ratio: Double) {
        var stereo: [Float] = []
        for i in 0..<5_000 { stereo += [Float(sin(Double(i) * 0.031)) * 0.4, Float(cos(Double(i) * 0.173)) * 0.3] }
        let stereoBuffer = AudioBuffer(samples: stereo, channelCount: 2, sampleRate: 48_000)
        let mono = Render.sine(frequency: 997, sampleRate: 48_000, frameCount: 3_001, amplitude: 0.6)
        func render(moving: Bool, blockSize: Int) -> [Float] {
            var config = Render.config(buses: [("a", 0), ("b", 0), ("c", 0), ("d", 0)])
            let speed = config.addParameter("speed", value: 1, range: 0...2)
            let level = config.addParameter("level", value: 0, range: 0...1)
            let pitch = ParameterMap(parameter: speed, points: [(0, ratio), (2, ratio)])
            let gain = ParameterMap(parameter: level, points: [(0, 0), (1, 0)])
            let assets = [config.addAsset(stereoBuffer, loop: LoopPoints(start: 300, end: 4_000)),
                          config.addAsset(mono),
                          config.addAsset(SampleStorage(stereoBuffer, format: .int16), loop: LoopPoints(start: 1_000, end: 4_999)),
                          config.addAsset(stereoBuffer),
                          config.addAsset(SampleStorage(mono, format: .int16), loop: LoopPoints(start: 500, end: 2_900))]
            var commands: [MixerCommand] = []
            for (k, asset) in assets.enumerated() {
                let layer = config.addLayer(LayerConfig(name: "l\(k)", bus: BusID(index: Int32(k % 4)), source: .asset(asset),
                                                        isLooping: k != 3, pitchMap: pitch, gainMap: gain))
                commands.append(MixerCommand(at: FrameTime(k * 13), .startLayer(layer, fadeInFrames: 0)))
            }
            if moving { commands.insert(MixerCommand(at: 0, .setParameter(level, to: 1, overFrames: 1_000_000)), at: 0) }
            return Render.scene(config, commands: commands, frameCount: 20_000, blockSize: blockSize)
        }
        let reference = render(moving: true, blockSize: 64)
        #expect(Render.rmsDecibels(reference) > -20)
        for blockSize in [7, 512] {
            let steady = render(moving: false, blockSize: blockSize)
            let first = steady.indices.first { steady[$0].bitPattern != reference[$0].bitPattern }
            #expect(first == nil, "block \(blockSize): sample \(first ?? -1) differs")
        }
    }

    @Test func pitchFollowsTheParameterThroughItsMap() throws {
        let (config, layer, speed) = engineConfig(points: [(0, 0.7), (80, 1.4)], speed: 0)
        let (mixer, handle) = config.make()
        handle.send(.startLayer(layer, fadeInFrames: 0), at: 0)
        handle.send(.setParameter(speed, to: 80, overFrames: 48_000), at: 4_800)
        let out = Render.left(Render.run(mixer, frameCount: 72_000, blockSize: 256))
        let slow = try #require(SignalAnalysis.zeroCrossingFrequency(Array(out[500..<4_800]), sampleRate: 48_000))
        let fast = try #require(SignalAnalysis.zeroCrossingFrequency(Array(out[53_000...]), sampleRate: 48_000))
        #expect(abs(slow - 700) < 1)
        #expect(abs(fast - 1_400) < 1)
        // Halfway through the ramp the ratio is halfway along the map.
        let mid = try #require(SignalAnalysis.zeroCrossingFrequency(Array(out[28_000..<29_600]), sampleRate: 48_000))
        #expect(abs(mid - 1_050) < 15)
    }

    @Test func liveParameterIsNoticedAndRamped() throws {
        let (config, layer, speed) = engineConfig(points: [(0, 0.5), (80, 1.5)], speed: 40)
        let (mixer, handle) = config.make()
        handle.send(.startLayer(layer, fadeInFrames: 0), at: 0)
        _ = Render.run(mixer, frameCount: 4_800, blockSize: 480)
        handle.setParameter(speed, to: 1_000)  // clamped to 80
        let out = Render.left(Render.run(mixer, frameCount: 24_000, blockSize: 480))
        let f = try #require(SignalAnalysis.zeroCrossingFrequency(Array(out[4_800...]), sampleRate: 48_000))
        #expect(abs(f - 1_500) < 1)
        var maxStep: Float = 0
        for i in 1..<out.count { maxStep = max(maxStep, abs(out[i] - out[i - 1])) }
        #expect(maxStep < 0.5 * 2 * Float.pi * 1_500 / 48_000 * 1.05)
    }

    @Test func gainMapFollowsTheParameter() {
        var config = Render.config()
        let dc = config.addAsset(AudioBuffer(samples: [Float](repeating: 1, count: 64), channelCount: 1, sampleRate: 48_000))
        let p = config.addParameter("speed", value: 0)
        let layer = config.addLayer(LayerConfig(name: "g", bus: BusID(index: 0), source: .asset(dc), isLooping: true,
                                                gainMap: ParameterMap(parameter: p, points: [(0, -20), (10, 0)])))
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
            MixerCommand(at: 1_000, .setParameter(p, to: 10, overFrames: 1_000)),
        ], frameCount: 2_500))
        #expect(abs(Decibels(linearGain: Double(out[900])).value - -20) < 1e-4)
        #expect(abs(Decibels(linearGain: Double(out[1_499])).value - -10) < 1e-4)
        #expect(abs(Decibels(linearGain: Double(out[2_400])).value) < 1e-4)
    }
}
