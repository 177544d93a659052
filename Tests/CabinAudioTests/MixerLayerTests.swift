import Testing
import CabinAudio

/// Layer life cycle: restart, start with another sound, stop all, unknown ids.
@Suite struct MixerLayerTests {
    func config() -> (MixerConfig, LayerID, AssetID, AssetID) {
        var config = Render.config(sampleRate: 8)
        let one = config.addAsset(AudioBuffer(samples: [1, 1], channelCount: 1, sampleRate: 8))
        let half = config.addAsset(AudioBuffer(samples: [0.5, 0.5], channelCount: 1, sampleRate: 8))
        let layer = config.addLayer(LayerConfig(name: "l", bus: BusID(index: 0), source: .asset(one), isLooping: true))
        return (config, layer, one, half)
    }

    @Test func restartingALayerCrossesFromTheOldVoiceToTheNew() {
        let (config, layer, _, half) = config()
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
            MixerCommand(at: 2, .startLayerWith(layer, source: .asset(half), bus: BusID(index: 0), gain: 0,
                                                   isLooping: true, fadeInFrames: 4)),
        ], frameCount: 8, blockSize: 3))
        // Old voice 1 → 0 while the new one 0 → 0.5, linearly over 4 frames.
        #expect(out == [1, 1, 0.875, 0.75, 0.625, 0.5, 0.5, 0.5])
    }

    @Test func stopAllFadesEverythingAndLayersCanStartAgain() {
        let (config, layer, one, _) = config()
        let (mixer, handle) = config.make()
        handle.send(.startLayer(layer, fadeInFrames: 0), at: 0)
        handle.send(.playOneShot(.asset(one), bus: BusID(index: 0), gain: 0), at: 0)
        handle.send(.stopAll(fadeOutFrames: 2), at: 1)
        handle.send(.startLayer(layer, fadeInFrames: 0), at: 4)
        let out = Render.left(Render.run(mixer, frameCount: 6, blockSize: 6))
        #expect(out == [2, 1, 0, 0, 1, 1])  // frame 1: both voices at half way
        #expect(handle.counters.activeVoices == 1)
    }

    @Test func fadeLayerIsRelativeToTheLayerGainAndLinearInDecibels() {
        var config = Render.config()
        let dc = config.addAsset(AudioBuffer(samples: [Float](repeating: 1, count: 16), channelCount: 1, sampleRate: 48_000))
        let layer = config.addLayer(LayerConfig(name: "l", bus: BusID(index: 0), source: .asset(dc), gain: -6, isLooping: true))
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
            MixerCommand(at: 1_000, .fadeLayer(layer, to: -10, overFrames: 1_000)),
        ], frameCount: 2_500))
        func db(_ i: Int) -> Double { Decibels(linearGain: Double(out[i])).value }
        #expect(abs(db(999) - -6) < 1e-5)
        #expect(abs(db(1_499) - -11) < 1e-5)
        #expect(abs(db(1_999) - -16) < 1e-5)
    }

    @Test func commandsOnUnknownThingsAreCountedAndIgnored() {
        let (config, layer, _, _) = config()
        let (mixer, handle) = config.make()
        handle.send(.fadeLayer(LayerID(index: 7), to: 0, overFrames: 0), at: 0)
        handle.send(.setBusGain(BusID(index: 3), to: 0, overFrames: 0), at: 0)
        handle.send(.setParameter(ParameterID(index: 0), to: 1, overFrames: 0), at: 0)
        handle.send(.crossfadeLayer(layer, to: .asset(AssetID(index: 9)), overFrames: 4), at: 0)
        let out = Render.run(mixer, frameCount: 4, blockSize: 4)
        #expect(out.allSatisfy { $0 == 0 })
        #expect(handle.counters.invalidCommands == 4)
    }

    @Test func startLayerWithMovesTheLayerToAnotherBus() {
        var config = Render.config(sampleRate: 8, buses: [("a", 0), ("b", -6.020599913279624)])
        let one = config.addAsset(AudioBuffer(samples: [1, 1], channelCount: 1, sampleRate: 8))
        let layer = config.addLayer(LayerConfig(name: "l", bus: BusID(index: 0), source: .asset(one), isLooping: true))
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayerWith(layer, source: .asset(one), bus: BusID(index: 1), gain: 0,
                                                isLooping: true, fadeInFrames: 0)),
            MixerCommand(at: 2, .stopLayer(layer, fadeOutFrames: 0)),
            MixerCommand(at: 3, .startLayer(layer, fadeInFrames: 0)),  // stays on bus b
        ], frameCount: 4, blockSize: 4))
        #expect(out.map { ($0 * 1e6).rounded() / 1e6 } == [0.5, 0.5, 0, 0.5])
    }
}
