import Testing
import CabinAudio

/// Commands land on their exact frame whatever the block size; the ring reports, never blocks.
@Suite struct MixerTimingTests {
    static let blockSizes = [1, 7, 64, 512]

    func dcConfig() -> (MixerConfig, LayerID) {
        var config = Render.config()
        let dc = config.addAsset(AudioBuffer(samples: [Float](repeating: 1, count: 4800), channelCount: 1,
                                             sampleRate: 48_000))
        let layer = config.addLayer(LayerConfig(name: "hum", bus: BusID(index: 0), source: .asset(dc), isLooping: true))
        return (config, layer)
    }

    @Test(arguments: blockSizes)
    func startLandsOnItsFrame(blockSize: Int) {
        let (config, layer) = dcConfig()
        let n = 1_001
        let out = Render.scene(config, commands: [MixerCommand(at: FrameTime(n), .startLayer(layer, fadeInFrames: 0))],
                               frameCount: 2_000, blockSize: blockSize)
        let left = Render.left(out)
        #expect(left[..<n].allSatisfy { $0 == 0 })
        #expect(left[n] > 0)
        // The minimum ramp (5 ms = 240 frames) ends exactly on its last frame.
        #expect(left[n + 238] < 1)
        #expect(left[n + 239] == 1)
    }

    @Test(arguments: blockSizes)
    func busGainChangeLandsOnItsFrame(blockSize: Int) {
        let (config, layer) = dcConfig()
        let n = 777
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
            MixerCommand(at: FrameTime(n), .setBusGain(BusID(index: 0), to: -6, overFrames: 0)),
        ], frameCount: 1_200, blockSize: blockSize))
        #expect(out[n - 1] == 1)
        #expect(out[n] < 1)
        #expect(abs(Double(out[n + 239]) - Decibels(-6).linearGain) < 1e-6)
    }

    @Test func everyBlockSizeGivesTheSameSamples() {
        let (config, layer) = dcConfig()
        let commands = [
            MixerCommand(at: 13, .startLayer(layer, fadeInFrames: 100)),
            MixerCommand(at: 500, .fadeLayer(layer, to: -10, overFrames: 333)),
            MixerCommand(at: 900, .stopLayer(layer, fadeOutFrames: 50)),
        ]
        let reference = Render.scene(config, commands: commands, frameCount: 1_000, blockSize: 1)
        for size in Self.blockSizes.dropFirst() {
            #expect(Render.scene(config, commands: commands, frameCount: 1_000, blockSize: size) == reference)
        }
    }

    @Test func fullRingIsReportedNotBlocked() throws {
        var (config, layer) = dcConfig()
        config.commandCapacity = 8
        let (mixer, handle) = config.make()
        for i in 0..<8 { #expect(handle.send(.fadeLayer(layer, to: 0, overFrames: 0), at: FrameTime(i))) }
        #expect(!handle.send(.fadeLayer(layer, to: 0, overFrames: 0), at: 9))
        #expect(throws: MixerError.commandRingFull(capacity: 8)) {
            try handle.sendOrThrow(MixerCommand(at: 10, .stopLayer(layer, fadeOutFrames: 0)))
        }
        #expect(handle.counters.rejectedCommands == 2)
        #expect(handle.queuedCommandCount == 8)
        _ = Render.run(mixer, frameCount: 16, blockSize: 16)
        #expect(handle.queuedCommandCount == 0)
        #expect(handle.send(.stopLayer(layer, fadeOutFrames: 0), at: 20))
    }

    @Test func fullPendingQueueLeavesCommandsInTheRing() {
        var (config, layer) = dcConfig()
        config.pendingCapacity = 4
        let (mixer, handle) = config.make()
        for i in 0..<6 { handle.send(.fadeLayer(layer, to: 0, overFrames: 0), at: FrameTime(1_000 + i)) }
        _ = Render.run(mixer, frameCount: 10, blockSize: 10)
        #expect(handle.queuedCommandCount == 2)
        #expect(handle.counters.deferredCommands == 1)
        _ = Render.run(mixer, frameCount: 2_000, blockSize: 500)
        #expect(handle.queuedCommandCount == 0)
    }

    @Test func lateAndInvalidCommandsAreCounted() {
        let (config, layer) = dcConfig()
        let (mixer, handle) = config.make()
        _ = Render.run(mixer, frameCount: 100, blockSize: 100)
        handle.send(.startLayer(layer, fadeInFrames: 0), at: 10)
        handle.send(.startLayer(LayerID(index: 9), fadeInFrames: 0), at: 100)
        handle.send(.playOneShot(.asset(AssetID(index: 5)), bus: BusID(index: 0), gain: 0), at: 100)
        let out = Render.run(mixer, frameCount: 10, blockSize: 10)
        #expect(out[0] > 0)
        #expect(handle.counters.lateCommands == 1)
        #expect(handle.counters.invalidCommands == 2)
    }
}
