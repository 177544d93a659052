import Testing
import CabinAudio
import CabinTestSupport

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
