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

/// Ducking rules with a band: only that band of the ducked bus is lowered.
@Suite struct MixerBandDuckTests {
    /// A tone on the engine bus (30 Hz, 775 Hz at the band's centre, 16 kHz), the voice
    /// bus sounding a silent one-shot from 0.5 s to 1.5 s; rendered in blocks of 333 frames.
    static func render(depth: Decibels, band: ClosedRange<Double>?, tone: Double) -> [Float] {
        var config = Render.config(buses: [("engine", 0), ("voice", 0)])
        let engine = BusID(index: 0), voice = BusID(index: 1)
        let hum = config.addAsset(Render.sine(frequency: tone, sampleRate: 48_000, frameCount: 48_000, amplitude: 0.25),
                                  loop: LoopPoints(start: 0, end: 48_000))
        let silence = config.addAsset(AudioBuffer(samples: [Float](repeating: 0, count: 48_000), channelCount: 1,
                                                  sampleRate: 48_000))
        config.ducking = [DuckingRule(when: voice, duck: [engine], depth: depth, band: band)]
        let layer = config.addLayer(LayerConfig(name: "hum", bus: engine, source: .asset(hum), isLooping: true))
        return Render.left(Render.scene(config, commands: [
            MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
            MixerCommand(at: 24_000, .playOneShot(.asset(silence), bus: voice, gain: 0)),
        ], frameCount: 120_000, blockSize: 333))
    }

    /// The band's centre (√(150 × 4000) ≈ 775 Hz) falls by the depth while the voice sounds;
    /// a tone far below and far above the band stays within 0.25 dB (the bell's skirt there is
    /// −0.14 and −0.08 dB); before the voice and
    /// once the release is over the bus passes bit for bit.
    @Test func onlyTheBandIsLoweredWhileTheVoiceSounds() {
        let band = 150.0...4000.0
        for (tone, expected, tolerance) in [(775.0, -8.0, 0.05), (30.0, 0.0, 0.25), (16_000.0, 0.0, 0.25)] {
            let plain = Self.render(depth: 0, band: nil, tone: tone)
            let ducked = Self.render(depth: -8, band: band, tone: tone)
            let during = Render.rmsDecibels(Array(ducked[36_000..<70_000])) - Render.rmsDecibels(Array(plain[36_000..<70_000]))
            #expect(abs(during - expected) < tolerance, "\(tone) Hz: \(during) dB")
            #expect(Array(ducked[0..<24_000]) == Array(plain[0..<24_000]), "\(tone) Hz before the voice")
            #expect(abs(Render.rmsDecibels(Array(ducked[110_000...])) - Render.rmsDecibels(Array(plain[110_000...]))) < 0.01)
        }
    }

    /// Block sizes do not change a sample of a band duck moving in and out.
    @Test func aBandDuckIsTheSameInEveryBlockSize() {
        func render(_ size: Int) -> [Float] {
            var config = Render.config(buses: [("engine", 0), ("voice", 0)])
            let engine = BusID(index: 0), voice = BusID(index: 1)
            let speech = config.addAsset(Render.sine(frequency: 500, sampleRate: 48_000, frameCount: 5_000, amplitude: 0.5))
            config.ducking = [DuckingRule(when: voice, duck: [engine], depth: -10, attackDuration: 0.01,
                                          releaseDuration: 0.05, band: 200...3000)]
            let noise = config.addLayer(LayerConfig(name: "noise", bus: engine, source: .synth(.pinkNoise(seed: 9)), isLooping: true))
            return Render.scene(config, commands: [
                MixerCommand(at: 0, .startLayer(noise, fadeInFrames: 0)),
                MixerCommand(at: 3_000, .playOneShot(.asset(speech), bus: voice, gain: 0)),
                MixerCommand(at: 9_000, .stopLayer(noise, fadeOutFrames: 100)),
                MixerCommand(at: 14_000, .playOneShot(.asset(speech), bus: voice, gain: 0)),
            ], frameCount: 24_000, blockSize: size)
        }
        let reference = render(512)
        for size in [1, 7, 64, 333] {
            let out = render(size)
            let first = zip(out, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "block size \(size) differs at sample \(first ?? -1)")
        }
    }
}
