import Foundation
import Testing
import CabinAudio
import CabinBench
import CabinTestSupport

/// The mixer's block-based, vectorized limiter (SIMD interpolation, skipping the estimates
/// that cannot lower the gain) gives exactly the samples of the frame-by-frame limiter it
/// replaced (`ReferenceLimiter`, that limiter's algorithm kept here as the oracle), fed the
/// same mix: the limiter-off output of the same scene.
@Suite struct MixerLimiterReferenceTests {
    /// Renders `commands` with the limiter off, runs the reference over it, and compares with
    /// the limiter-on render at several block sizes.
    func expectMatchesReference(_ config: MixerConfig, _ commands: [MixerCommand], frameCount: Int,
                                minimumGainBelow: Double) {
        var off = config
        off.isLimiterEnabled = false
        let mix = Render.scene(off, commands: commands, frameCount: frameCount, blockSize: 512)
        var reference = ReferenceLimiter(sampleRate: config.sampleRate)
        let expected = reference.process(mix)
        #expect(reference.minimumGain < minimumGainBelow)
        var on = config
        on.isLimiterEnabled = true
        for size in [512, 64, 7, 1] {
            let out = Render.scene(on, commands: commands, frameCount: frameCount, blockSize: size)
            let firstDifference = zip(out, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(firstDifference == nil, "block size \(size): differs from the reference at sample \(firstDifference ?? -1)")
        }
    }

    /// Seeded white noise at every level from −20 dBFS to +12 dB over full scale, with quiet
    /// gaps; also at 16 kHz, where the look-ahead window (24 frames) is shorter than a chunk.
    @Test(arguments: [48_000.0, 16_000])
    func randomSignalsAtEveryLevel(sampleRate: Double) {
        var config = Render.config(sampleRate: sampleRate)
        var random = SeededRandom(seed: 99)
        let noise = config.addAsset(AudioBuffer(samples: (0..<2 * 3_000).map { _ in Float(random.bipolar()) },
                                                channelCount: 2, sampleRate: sampleRate))
        let gains: [Double] = [-20, -6, -3, -1.5, 0, 6, 12, -40, -2, -1, 3, -30]
        let commands = gains.enumerated().map { k, gain in
            MixerCommand(at: FrameTime(3_500 * k), .playOneShot(.asset(noise), bus: BusID(index: 0), gain: Decibels(gain)))
        }
        expectMatchesReference(config, commands, frameCount: 3_500 * gains.count, minimumGainBelow: 0.3)
    }

    /// Tones near the ceiling whose inter-sample peaks exceed their samples (high
    /// frequencies, odd phases), in small level steps across the ceiling and the detector's
    /// skipping bound, and a slow swell under continuous limiting.
    @Test func nearCeilingSignals() {
        var config = Render.config(polyphony: 8)
        var assets: [AssetID] = []
        for (k, frequency) in [11_025.0, 12_000, 19_000, 3_100].enumerated() {
            let samples = (0..<2_400).flatMap { i -> [Float] in
                let x = sin(2 * Double.pi * frequency * Double(i) / 48_000 + 0.3 * Double(k + 1))
                return [Float(x), Float(-x)]
            }
            assets.append(config.addAsset(AudioBuffer(samples: samples, channelCount: 2, sampleRate: 48_000)))
        }
        var commands: [MixerCommand] = []
        var t = 0
        for step in 0..<24 {
            let gain = -9 + 0.5 * Double(step)  // −9 … +2.5 dB
            commands.append(MixerCommand(at: FrameTime(t), .playOneShot(.asset(assets[step % assets.count]),
                                                                        bus: BusID(index: 0), gain: Decibels(gain))))
            t += 2_000 + 37 * step
        }
        let swell = config.addAsset(Render.sine(frequency: 997, sampleRate: 48_000, frameCount: 30_000, amplitude: 1))
        commands.append(MixerCommand(at: FrameTime(t), .playOneShot(.asset(swell), bus: BusID(index: 0), gain: 4)))
        commands.append(MixerCommand(at: FrameTime(t + 5_000), .setBusGain(BusID(index: 0), to: -6, overFrames: 20_000)))
        expectMatchesReference(config, commands, frameCount: t + 32_000, minimumGainBelow: 0.8)
    }

    /// The benchmark's loud mix (eight looping layers, a ducking cue), limited all the way.
    @Test func theLoudMix() {
        let scene = LoudMixScene(voices: 8, duration: 16)
        let (config, commands) = scene.mixer()
        expectMatchesReference(config, commands, frameCount: 16 * 48_000, minimumGainBelow: 0.8)
    }
}

/// The frame-by-frame limiter the mixer used before its block-based one: 4× oversampled
/// 12-tap-per-phase true-peak estimate per frame (with its quiet shortcut), instant-attack
/// exponential-release follower, running minimum and moving average over the lookahead
/// window, delay line. Test oracle only.
struct ReferenceLimiter {
    let ceiling: Double
    let window: Int
    let releaseCoefficient: Double
    let delayLength: Int
    var minimumGain = 1.0
    private var coefficients: [Float] = []
    private var quietSample: Float = 0
    private var history = [Float](repeating: 0, count: 48)
    private var index = 0, quietRun = 0
    private var followers: [Double] = []
    private var held: [Double]
    private var heldSum: Double
    private var heldIndex = 0
    private var delay: [Float]
    private var delayIndex = 0
    private var follower = 1.0, previousPeak = 0.0

    init(sampleRate: Double) {
        ceiling = Decibels(-1.5).linearGain
        window = max(1, Int((0.0015 * sampleRate).rounded()))
        releaseCoefficient = 1 - exp(-1 / max(1, 0.08 * sampleRate))
        delayLength = window - 1 + 6
        held = [Double](repeating: 1, count: window)
        heldSum = Double(window)
        delay = [Float](repeating: 0, count: 2 * delayLength)
        var largest = 1.0
        for p in 1...3 {
            var row = (0..<12).map { j -> Double in
                let u = Double(p) / 4 - Double(j - 5)
                return (u == 0 ? 1 : sin(Double.pi * u) / (Double.pi * u)) * 0.5 * (1 + cos(Double.pi * u / 6.5))
            }
            let sum = row.reduce(0, +)
            row = row.map { $0 / sum }
            coefficients += row.map { Float($0) }
            largest = max(largest, coefficients.suffix(12).reduce(0.0) { $0 + Double(abs($1)) })
        }
        quietSample = Float(ceiling) * 0.999 / Float(largest)
    }

    mutating func process(_ input: [Float]) -> [Float] {
        var output = input
        for i in 0..<(input.count / 2) {
            let l = input[2 * i], r = input[2 * i + 1]
            let peak = push(l, r)
            let cover = max(peak, previousPeak)
            previousPeak = peak
            let needed = cover > ceiling ? ceiling / cover : 1
            follower = min(needed, follower + (1 - follower) * releaseCoefficient)
            followers.append(follower)
            if followers.count > window { followers.removeFirst() }
            let hold = followers.min()!
            heldSum += hold - held[heldIndex]
            held[heldIndex] = hold
            heldIndex += 1
            if heldIndex == window {
                heldIndex = 0
                var s = 0.0
                for k in 0..<window { s += held[k] }
                heldSum = s
            }
            let gain = min(1, heldSum / Double(window))
            minimumGain = min(minimumGain, gain)
            output[2 * i] = delay[2 * delayIndex] * Float(gain)
            output[2 * i + 1] = delay[2 * delayIndex + 1] * Float(gain)
            delay[2 * delayIndex] = l
            delay[2 * delayIndex + 1] = r
            delayIndex = (delayIndex + 1) % delayLength
        }
        return output
    }

    private mutating func push(_ l: Float, _ r: Float) -> Double {
        history[index] = l; history[index + 12] = l
        history[24 + index] = r; history[24 + index + 12] = r
        index = (index + 1) % 12
        if max(abs(l), abs(r)) < quietSample {
            quietRun += 1
            if quietRun >= 12 { return 0 }
        } else {
            quietRun = 0
        }
        var peak = max(abs(history[index + 5]), abs(history[24 + index + 5]))
        for p in 0..<3 {
            var sl: Float = 0, sr: Float = 0
            for j in 0..<12 {
                sl += coefficients[p * 12 + j] * history[index + j]
                sr += coefficients[p * 12 + j] * history[24 + index + j]
            }
            peak = max(peak, max(abs(sl), abs(sr)))
        }
        return Double(peak)
    }
}
