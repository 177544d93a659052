import Testing
import CabinAudio

/// Tiny-number tests: sample rate 8, a few frames, exact expected arrays.
@Suite struct MixerTinyTests {
    let asset = AudioBuffer(samples: [1, 0.5, -0.5, 0.25], channelCount: 1, sampleRate: 8)

    @Test func oneShotPlaysCentredFromItsFrame() {
        var config = Render.config(sampleRate: 8)
        let id = config.addAsset(asset)
        let out = Render.scene(config, commands: [
            MixerCommand(at: 1, .playOneShot(.asset(id), bus: BusID(index: 0), gain: 0)),
        ], frameCount: 6, blockSize: 4)
        #expect(Render.left(out) == [0, 1, 0.5, -0.5, 0.25, 0])
        #expect(Render.right(out) == Render.left(out))
    }

    @Test func stereoAssetPlaysAsIs() {
        var config = Render.config(sampleRate: 8)
        let id = config.addAsset(AudioBuffer(samples: [1, -1, 0.5, -0.5], channelCount: 2, sampleRate: 8))
        let out = Render.scene(config, commands: [
            MixerCommand(at: 0, .playOneShot(.asset(id), bus: BusID(index: 0), gain: 0)),
        ], frameCount: 3, blockSize: 2)
        #expect(out == [1, -1, 0.5, -0.5, 0, 0])
    }

    @Test func twoVoicesSum() {
        var config = Render.config(sampleRate: 8)
        let id = config.addAsset(asset)
        let bus = BusID(index: 0)
        let out = Render.scene(config, commands: [
            MixerCommand(at: 0, .playOneShot(.asset(id), bus: bus, gain: 0)),
            MixerCommand(at: 2, .playOneShot(.asset(id), bus: bus, gain: 0)),
        ], frameCount: 6, blockSize: 3)
        #expect(Render.left(out) == [1, 0.5, 0.5, 0.75, -0.5, 0.25])
    }

    @Test func layerFadeInIsLinearAndLandsOnTheExactFrame() {
        var config = Render.config(sampleRate: 8)
        let dc = config.addAsset(AudioBuffer(samples: [1, 1, 1, 1, 1, 1, 1, 1], channelCount: 1, sampleRate: 8))
        let layer = config.addLayer(LayerConfig(name: "hum", bus: BusID(index: 0), source: .asset(dc), isLooping: true))
        let out = Render.scene(config, commands: [
            MixerCommand(at: 2, .startLayer(layer, fadeInFrames: 4)),
        ], frameCount: 8, blockSize: 3)
        #expect(Render.left(out) == [0, 0, 0.25, 0.5, 0.75, 1, 1, 1])
    }

    @Test func layerFadeOutEndsTheVoice() {
        var config = Render.config(sampleRate: 8)
        let dc = config.addAsset(AudioBuffer(samples: [1, 1], channelCount: 1, sampleRate: 8))
        let layer = config.addLayer(LayerConfig(name: "hum", bus: BusID(index: 0), source: .asset(dc), isLooping: true))
        let (mixer, handle) = config.make()
        handle.send(.startLayer(layer, fadeInFrames: 0), at: 0)
        handle.send(.stopLayer(layer, fadeOutFrames: 4), at: 2)
        let out = Render.run(mixer, frameCount: 8, blockSize: 5)
        #expect(Render.left(out) == [1, 1, 0.75, 0.5, 0.25, 0, 0, 0])
        #expect(handle.counters.activeVoices == 0)
        #expect(handle.currentFrame == 8)
    }

    @Test func busGainStepsAfterTheMinimumRamp() {
        var config = Render.config(sampleRate: 8)
        let dc = config.addAsset(AudioBuffer(samples: [Float](repeating: 1, count: 8), channelCount: 1, sampleRate: 8))
        let out = Render.scene(config, commands: [
            MixerCommand(at: 0, .playOneShot(.asset(dc), bus: BusID(index: 0), gain: 0)),
            MixerCommand(at: 3, .setBusGain(BusID(index: 0), to: Decibels(linearGain: 0.5), overFrames: 0)),
        ], frameCount: 6, blockSize: 1)
        #expect(Render.left(out).map { ($0 * 1e5).rounded() / 1e5 } == [1, 1, 1, 0.5, 0.5, 0.5])
    }
}
