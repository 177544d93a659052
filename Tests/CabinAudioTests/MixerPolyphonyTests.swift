import Testing
import CabinAudio

/// Per-bus polyphony with click-free voice stealing.
@Suite struct MixerPolyphonyTests {
    @Test func thirdVoiceOnATwoVoiceBusStealsTheOldestWithAFade() {
        var config = Render.config(polyphony: 2)
        let dc = config.addAsset(AudioBuffer(samples: [Float](repeating: 0.25, count: 48_000), channelCount: 1,
                                             sampleRate: 48_000))
        let bus = BusID(index: 0)
        let (mixer, handle) = config.make()
        for t in [0, 100, 200] { handle.send(.playOneShot(.asset(dc), bus: bus, gain: 0), at: FrameTime(t)) }
        let out = Render.left(Render.run(mixer, frameCount: 1_000, blockSize: 64))
        #expect(out[150] == 0.5)
        #expect(handle.counters.stolenVoices == 1)
        // The stolen voice fades over 5 ms (240 frames) instead of vanishing.
        #expect(out[200] > 0.74 && out[200] < 0.75)
        #expect(out[200 + 120] > 0.6 && out[200 + 120] < 0.65)
        #expect(out[200 + 240] == 0.5)
        for i in 1..<out.count { #expect(abs(out[i] - out[i - 1]) <= 0.25 + 1e-6) }
        #expect(handle.counters.activeVoices == 2)
    }

    @Test func oneShotsAreStolenBeforeLayers() {
        var config = Render.config(polyphony: 2)
        let half = config.addAsset(AudioBuffer(samples: [Float](repeating: 0.5, count: 4_800), channelCount: 1,
                                               sampleRate: 48_000))
        let eighth = config.addAsset(AudioBuffer(samples: [Float](repeating: 0.125, count: 4_800), channelCount: 1,
                                                 sampleRate: 48_000))
        let quarter = config.addAsset(AudioBuffer(samples: [Float](repeating: 0.25, count: 4_800), channelCount: 1,
                                                  sampleRate: 48_000))
        let layer = config.addLayer(LayerConfig(name: "l", bus: BusID(index: 0), source: .asset(half), isLooping: true))
        let (mixer, handle) = config.make()
        handle.send(.startLayer(layer, fadeInFrames: 0), at: 0)
        handle.send(.playOneShot(.asset(eighth), bus: BusID(index: 0), gain: 0), at: 100)
        handle.send(.playOneShot(.asset(quarter), bus: BusID(index: 0), gain: 0), at: 500)
        let out = Render.left(Render.run(mixer, frameCount: 1_000, blockSize: 100))
        #expect(out[400] == 0.625)
        #expect(out[900] == 0.75)  // the layer (0.5) kept, the older one-shot (0.125) stolen
        #expect(handle.counters.stolenVoices == 1)
        #expect(handle.counters.activeVoices == 2)
    }
}
