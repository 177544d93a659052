import Testing
import CabinAudio

/// Equal-power crossfades and ducking.
@Suite struct MixerFadeTests {
    @Test func crossfadeKeepsTotalPowerOnUncorrelatedNoise() {
        var config = Render.config()
        let layer = config.addLayer(LayerConfig(name: "amb", bus: BusID(index: 0), source: .synth(.whiteNoise(seed: 1)),
                                                isLooping: true))
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
            MixerCommand(at: 48_000, .crossfadeLayer(layer, to: .synth(.whiteNoise(seed: 99)), overFrames: 96_000)),
        ], frameCount: 192_000, blockSize: 500))
        let before = Render.rmsDecibels(Array(out[4_800..<48_000]))
        for start in stride(from: 48_000, to: 144_000, by: 4_800) {
            let window = Render.rmsDecibels(Array(out[start..<(start + 4_800)]))
            #expect(abs(window - before) < 0.5, "window at \(start)")
        }
        #expect(abs(Render.rmsDecibels(Array(out[150_000...])) - before) < 0.2)
    }

    @Test func crossfadeGainsAreMinusThreeDecibelsAtTheMidpoint() {
        var config = Render.config()
        let one = config.addAsset(AudioBuffer(samples: [Float](repeating: 1, count: 100), channelCount: 1, sampleRate: 48_000))
        let other = config.addAsset(AudioBuffer(samples: [Float](repeating: 0, count: 100), channelCount: 1, sampleRate: 48_000))
        let layer = config.addLayer(LayerConfig(name: "x", bus: BusID(index: 0), source: .asset(one), isLooping: true))
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
            MixerCommand(at: 1_000, .crossfadeLayer(layer, to: .asset(other), overFrames: 1_000)),
        ], frameCount: 2_100))
        // The outgoing gain is √(1 − t): √½ (−3 dB) at t = ½, 0 at the end.
        #expect(abs(Double(out[1_499]) - 0.5.squareRoot()) < 1e-6)
        #expect(out[1_999] == 0)
    }

    /// Voice bus: a silent one-shot (it still "sounds"); ducked bus: a DC loop at 0 dB, so the
    /// output is the duck gain itself.
    @Test func duckingReachesDepthInAttackAndReturnsInRelease() throws {
        var config = Render.config(buses: [("engine", 0), ("voice", 0)])
        let dc = config.addAsset(AudioBuffer(samples: [Float](repeating: 1, count: 480), channelCount: 1, sampleRate: 48_000))
        let silence = config.addAsset(AudioBuffer(samples: [Float](repeating: 0, count: 24_000), channelCount: 1,
                                                  sampleRate: 48_000))
        let engine = BusID(index: 0), voice = BusID(index: 1)
        config.ducking = [DuckingRule(when: voice, duck: [engine], depth: -12, attackDuration: 0.04, releaseDuration: 0.6)]
        let hum = config.addLayer(LayerConfig(name: "hum", bus: engine, source: .asset(dc), isLooping: true))
        let speakAt = 4_800, attack = 1_920, speechEnd = speakAt + 24_000, release = 28_800
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(hum, fadeInFrames: 0)),
            MixerCommand(at: FrameTime(speakAt), .playOneShot(.asset(silence), bus: voice, gain: 0)),
        ], frameCount: 60_000, blockSize: 333))
        func db(_ i: Int) -> Double { Decibels(linearGain: Double(out[i])).value }
        #expect(db(speakAt - 1) == 0)
        #expect(abs(db(speakAt + attack / 2) - -6) < 0.1)  // linear in dB
        #expect(abs(db(speakAt + attack) - -12) < 0.6)  // 5 %
        #expect(abs(db(speechEnd - 1) - -12) < 1e-5)
        #expect(abs(db(speechEnd + release / 2) - -6) < 0.1)
        #expect(abs(db(speechEnd + release)) < 0.6)
        #expect(db(speechEnd + release + 10) == 0)
    }

    @Test func masterFadeToSilenceIsARampNotAJump() {
        var config = Render.config()
        let dc = config.addAsset(AudioBuffer(samples: [Float](repeating: 1, count: 64), channelCount: 1, sampleRate: 48_000))
        let layer = config.addLayer(LayerConfig(name: "x", bus: BusID(index: 0), source: .asset(dc), isLooping: true))
        let out = Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
            MixerCommand(at: 1_000, .setMasterGain(to: .silence, overFrames: 1_200)),
        ], frameCount: 3_000))
        #expect(out[999] == 1)
        #expect(abs(Decibels(linearGain: Double(out[1_599])).value - -60) < 1e-3)  // halfway to the −120 dB floor
        #expect(out[2_199] == 0 && out[2_999] == 0)
        for i in 1_000..<out.count { #expect(out[i] <= out[i - 1]) }
    }
}
