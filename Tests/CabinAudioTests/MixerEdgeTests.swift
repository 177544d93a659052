import Testing
import CabinAudio
import CabinTestSupport

/// Edges: blocks longer than the configured maximum, assets at another rate, latency.
@Suite struct MixerEdgeTests {
    @Test func blocksLongerThanTheMaximumAreSplitWithoutChangingASample() {
        let (scene, commands) = MixerInvarianceTests.scene()
        var small = scene
        small.maxBlockFrames = 64
        let reference = Render.scene(scene, commands: commands, frameCount: 6_000, blockSize: 7)
        #expect(Render.scene(small, commands: commands, frameCount: 6_000, blockSize: 1_000) == reference)
    }

    @Test func assetAtAnotherRatePlaysAtItsPitch() throws {
        var config = Render.config()
        let tone = config.addAsset(Render.sine(frequency: 1_000, sampleRate: 44_100, frameCount: 44_100, amplitude: 0.5))
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .playOneShot(.asset(tone), bus: BusID(index: 0), gain: 0)),
        ], frameCount: 48_000))
        let f = try #require(SignalAnalysis.zeroCrossingFrequency(Array(out[100..<47_000]), sampleRate: 48_000))
        #expect(abs(f - 1_000) < 0.1)
        #expect(SignalAnalysis.sinad(Array(out[100..<47_000]), frequency: 1_000, sampleRate: 48_000) > 60)
        // The one-shot ends after 44 100 source frames = 48 000 output frames.
        #expect(out[47_990] != 0)
    }

    @Test(arguments: [1, 7, 64, 512])
    func withTheLimiterACommandIsHeardLatencyFramesLater(blockSize: Int) {
        var config = Render.config()
        config.isLimiterEnabled = true
        let dc = config.addAsset(AudioBuffer(samples: [Float](repeating: 0.5, count: 4_800), channelCount: 1,
                                             sampleRate: 48_000))
        let (mixer, handle) = config.make()
        handle.send(.playOneShot(.asset(dc), bus: BusID(index: 0), gain: 0), at: 1_000)
        let out = Render.left(Render.run(mixer, frameCount: 2_000, blockSize: blockSize))
        let heard = 1_000 + mixer.latencyFrames
        #expect(out[heard - 1] == 0)
        #expect(out[heard] == 0.5)
    }
}

@Suite struct MixerBounceTests {
    @Test func bounceEqualsRenderingBlockByBlock() {
        let (config, commands) = MixerInvarianceTests.scene()
        let (mixer, handle) = config.make()
        commands.forEach { handle.send($0) }
        let buffer = mixer.bounce(frameCount: 5_000, blockFrames: 300)
        #expect(buffer.channelCount == 2 && buffer.frameCount == 5_000 && buffer.sampleRate == 48_000)
        #expect(buffer.samples == Render.scene(config, commands: commands, frameCount: 5_000, blockSize: 64))
    }

    @Test func synthNamesFromSessionDocuments() {
        #expect(Synth(named: "brown-noise", seed: 3) == .brownNoise(seed: 3))
        #expect(Synth(named: "binaural", options: ["carrier": 220, "beat": 6]) == .binaural(carrier: 220, beat: 6))
        #expect(Synth(named: "binaural", options: ["beat": 6])?[option: "carrier"] == 200)
        #expect(Synth(named: "purple-noise") == nil)
        #expect(Synth.kinds.map(\.name) == ["white-noise", "pink-noise", "brown-noise", "sine", "binaural", "isochronic", "engine", "motor"])
        #expect(Synth.kinds.allSatisfy { Synth(named: $0.name)?.name == $0.name })
        // Kinds without noise ignore the seed, so equal settings compare equal.
        #expect(Synth.sine(frequency: 220).seeded(9) == .sine(frequency: 220))
        #expect(Synth.pinkNoise(seed: 1).seeded(9) == .pinkNoise(seed: 9))
    }
}
