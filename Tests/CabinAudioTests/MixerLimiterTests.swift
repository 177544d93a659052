import Testing
import CabinAudio
import CabinTestSupport

/// The master limiter holds ≤ −1 dBTP; with the limiter off the output is the plain sum.
@Suite struct MixerLimiterTests {
    /// 32 full-scale sine layers on one 0 dB bus.
    func loudConfig(limiter: Bool) -> (MixerConfig, [MixerCommand]) {
        var config = Render.config(polyphony: 32)
        config.isLimiterEnabled = limiter
        var commands: [MixerCommand] = []
        for k in 0..<32 {
            let tone = config.addAsset(Render.sine(frequency: 97 + 131 * Double(k), sampleRate: 48_000,
                                                   frameCount: 48_000, amplitude: 1))
            let layer = config.addLayer(LayerConfig(name: "l\(k)", bus: BusID(index: 0), source: .asset(tone),
                                                    isLooping: true))
            commands.append(MixerCommand(at: FrameTime(100 * k), .startLayer(layer, fadeInFrames: 0)))
        }
        return (config, commands)
    }

    @Test func holdsTruePeakBelowMinusOneOnThirtyTwoFullScaleLayers() {
        let (config, commands) = loudConfig(limiter: true)
        let out = Render.scene(config, commands: commands, frameCount: 24_000, blockSize: 256)
        #expect(TestTruePeak.decibels(Render.left(out)) <= -1.0)
        #expect(TestTruePeak.decibels(Render.right(out)) <= -1.0)
        let plain = Render.scene(loudConfig(limiter: false).0, commands: commands, frameCount: 24_000)
        #expect(SignalAnalysis.peak(plain) > 8)
    }

    @Test func quietSignalPassesUnchangedButDelayed() {
        var config = Render.config()
        let tone = config.addAsset(Render.sine(frequency: 440, sampleRate: 48_000, frameCount: 4_800, amplitude: 0.5))
        let commands = [MixerCommand(at: 0, .playOneShot(.asset(tone), bus: BusID(index: 0), gain: 0))]
        let plain = Render.scene(config, commands: commands, frameCount: 6_000)
        config.isLimiterEnabled = true
        let (mixer, handle) = config.make()
        commands.forEach { handle.send($0) }
        let limited = Render.run(mixer, frameCount: 6_000, blockSize: 64)
        let d = 2 * mixer.latencyFrames
        #expect(mixer.latencyFrames > 48 && mixer.latencyFrames < 96)
        #expect(Array(limited[d...]) == Array(plain[..<(plain.count - d)]))
        #expect(handle.counters.limiterMinimumGain == 1)
    }

    /// Quiet passages between bursts of limiting, one near the detector's quiet threshold:
    /// the limiter handles a settled quiet block in one go, and where blocks are cut must
    /// not change a sample (nor must the follower's slow return towards 1 after limiting).
    @Test func quietAndLimitedPassagesAreBitIdenticalAtEveryBlockSize() {
        var config = Render.config()
        config.isLimiterEnabled = true
        let tone = config.addAsset(Render.sine(frequency: 440, sampleRate: 48_000, frameCount: 6_000, amplitude: 0.9))
        let gains: [Double] = [-20, 6, -30, -4, 12, -60, -3]
        let commands = gains.enumerated().map { k, gain in
            MixerCommand(at: FrameTime(7_000 * k), .playOneShot(.asset(tone), bus: BusID(index: 0), gain: Decibels(gain)))
        }
        let (mixer, handle) = config.make()
        commands.forEach { handle.send($0) }
        let reference = Render.run(mixer, frameCount: 56_000, blockSize: 512)
        #expect(handle.counters.limiterMinimumGain < 0.5)
        for size in [1, 7, 64, 333] {
            let out = Render.scene(config, commands: commands, frameCount: 56_000, blockSize: size)
            let firstDifference = zip(out, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(firstDifference == nil, "block size \(size) differs at sample \(firstDifference ?? -1)")
        }
    }

    @Test func limitingIsSmooth() {
        let (config, commands) = loudConfig(limiter: true)
        let out = Render.left(Render.scene(config, commands: commands, frameCount: 12_000, blockSize: 512))
        // No step larger than the loudest partial (≈ 4.3 kHz at full scale) could make.
        var maxStep: Float = 0
        for i in 1..<out.count { maxStep = max(maxStep, abs(out[i] - out[i - 1])) }
        #expect(maxStep < 2 * 0.9)
    }
}
