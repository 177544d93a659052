import Foundation
import Testing
import CabinAudio
import CabinTestSupport

/// Scatters: one-shots at random (Poisson) times with random gain, pan and pitch —
/// deterministic for a seed, at any block size; different for another seed.
@Suite struct MixerScatterTests {
    /// A scatter of two short clicks (a decaying sine and a stereo burst) at 30–90 events
    /// a minute, ±6 dB, full pan, ±3 semitones, as a layer that fades in and is stopped.
    static func scene(seed: UInt64, eventsPerMinute: ClosedRange<Double> = 30...90, pitch: ClosedRange<Double> = -3...3,
                      spacing: ScatterConfig.Spacing = .random) -> (MixerConfig, [MixerCommand]) {
        var config = MixerConfig(sampleRate: 48_000, maxBlockFrames: 512)
        var tick: [Float] = []
        for i in 0..<2_000 { tick.append(Float(sin(Double(i) * 0.2) * Double(2_000 - i) / 2_000)) }
        let a = config.addAsset(AudioBuffer(samples: tick, channelCount: 1, sampleRate: 48_000))
        var burst: [Float] = []
        for i in 0..<3_000 { burst += [Float(sin(Double(i) * 0.05)) * 0.5, Float(cos(Double(i) * 0.09)) * 0.5] }
        let b = config.addAsset(AudioBuffer(samples: burst, channelCount: 2, sampleRate: 44_100), trim: -2)
        let scatter = config.addScatter(ScatterConfig(sounds: [a, b], eventsPerMinute: eventsPerMinute, gain: -6...0,
                                                      pan: -1...1, pitch: pitch, spacing: spacing, seed: seed))
        let layer = config.addLayer(LayerConfig(name: "birds", bus: config.bus(named: "ambient")!, source: .scatter(scatter),
                                                isLooping: true))
        config.isLimiterEnabled = false
        return (config, [MixerCommand(at: 100, .startLayer(layer, fadeInFrames: 4_800)),
                         MixerCommand(at: 1_400_000, .stopLayer(layer, fadeOutFrames: 9_600))])
    }

    static let frames = 1_440_000  // 30 s

    @Test func sameSeedIsBitIdenticalAtEveryBlockSizeAndOtherSeedsDiffer() {
        let (config, commands) = Self.scene(seed: 7)
        let reference = Render.scene(config, commands: commands, frameCount: Self.frames, blockSize: 512)
        #expect(SignalAnalysis.peak(reference) > 0.05)
        for size in [1, 7, 64] {
            let out = Render.scene(config, commands: commands, frameCount: Self.frames, blockSize: size)
            let firstDifference = zip(out, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(firstDifference == nil, "block size \(size) differs at sample \(firstDifference ?? -1)")
        }
        let again = Render.scene(config, commands: commands, frameCount: Self.frames, blockSize: 512)
        #expect(again == reference)
        let (other, otherCommands) = Self.scene(seed: 8)
        let different = Render.scene(other, commands: otherCommands, frameCount: Self.frames, blockSize: 512)
        #expect(different != reference)
    }

    /// A scatter layer started again while its last voice still fades out: the new voice
    /// takes the scatter over (its events and grains) and the old one ends there, so the
    /// output is the same at every block size. (Both voices used to step the one scatter,
    /// each by its block in turn: the output depended on the block size.)
    @Test func aScatterRestartedWhileReleasingIsTheSameAtEveryBlockSize() {
        let (config, _) = Self.scene(seed: 11, eventsPerMinute: 600...600, pitch: 0...0)
        let layer = LayerID(index: 0)
        let commands = [MixerCommand(at: 100, .startLayer(layer, fadeInFrames: 480)),
                    MixerCommand(at: 96_000, .stopLayer(layer, fadeOutFrames: 96_000)),
                    MixerCommand(at: 120_000, .startLayer(layer, fadeInFrames: 480)),
                    MixerCommand(at: 150_000, .stopLayer(layer, fadeOutFrames: 48_000)),
                    MixerCommand(at: 160_000, .startLayer(layer, fadeInFrames: 4_800))]
        let frames = 288_000
        let reference = Render.scene(config, commands: commands, frameCount: frames, blockSize: 512)
        // Sound after each restart, while the earlier voice would still be fading.
        #expect(SignalAnalysis.peak(Array(reference[(2 * 120_000)..<(2 * 150_000)])) > 0.05)
        #expect(SignalAnalysis.peak(Array(reference[(2 * 160_000)..<(2 * 200_000)])) > 0.05)
        for size in [1, 7, 64, 500] {
            let out = Render.scene(config, commands: commands, frameCount: frames, blockSize: size)
            let firstDifference = zip(out, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(firstDifference == nil, "block size \(size) differs at sample \(firstDifference ?? -1)")
        }
    }

    /// A grain summed four frames at a time (`renderScatter`) is, bit for bit, the grain read
    /// frame by frame: mono and stereo, 16-bit and float, from the start (the taps before it
    /// silent), through the middle and off the end, repitched down and up, half loaded.
    @Test func aGrainSummedInFoursIsTheGrainReadFrameByFrame() throws {
        var random = SeededRandom(seed: 41)
        var checked = 0, long = 0
        for channels in [1, 2] {
            for format in [SampleStorage.Format.int16, .float32] {
                let frames = 3_000
                let samples = (0..<(frames * channels)).map { i in
                    Float(sin(Double(i) * 0.031) * 0.6 + random.bipolar() * 0.2)
                }
                let asset = SoundAsset(samples: SampleStorage(AudioBuffer(samples: samples, channelCount: channels,
                                                                          sampleRate: 44_100), format: format))
                for start in [0.0, 0.37, 1.5, 1_234.56, 2_990.2] {
                    for step in [0.5, 0.918_75, 1, 1.26, 2.75] {
                        for ready in [nil, 1_500] as [Int?] {
                            let n = 1 + Int(random.unit() * 511)
                            let (major, byFrame) = ScatterGrainCheck.sums(of: asset, position: start, step: step,
                                                                         gainLeft: 0.7, gainRight: 0.4, frames: n, ready: ready)
                            #expect(major == byFrame, "\(channels) ch \(format) from \(start) by \(step), \(n) frames, ready \(ready ?? frames)")
                            checked += 1
                            if major.played >= 8 { long += 1 }
                        }
                    }
                }
            }
        }
        #expect(checked == 200 && long > 100, "\(long) of \(checked) cases played 8 frames or more")
    }

    /// Onsets (one click sound, no pitch change, rate fixed at 120 a minute): about 60 in
    /// 30 s, with exponential gaps (coefficient of variation near 1, as in real traffic),
    /// both channels used (pan), and nothing after the stop's fade.
    /// The frames where an event starts: sound after at least 1,000 silent frames.
    static func onsets(_ out: [Float]) -> [Int] {
        var onsets: [Int] = []
        var silent = 1_000
        for i in 0..<(out.count / 2) {
            let loud = abs(out[2 * i]) + abs(out[2 * i + 1]) > 1e-6
            if loud && silent >= 1_000 { onsets.append(i) }
            silent = loud ? 0 : silent + 1
        }
        return onsets
    }

    @Test func eventsArePoissonAndPanned() {
        let (config, commands) = Self.scene(seed: 3, eventsPerMinute: 120...120, pitch: 0...0)
        let out = Render.scene(config, commands: commands, frameCount: Self.frames + 48_000, blockSize: 256)
        let onsets = Self.onsets(out)
        let gaps = zip(onsets.dropFirst(), onsets).map { Double($0 - $1) }
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        let sd = (gaps.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(gaps.count)).squareRoot()
        #expect((35...85).contains(onsets.count), "\(onsets.count) events in 30 s at 120 a minute")
        #expect((0.6...1.4).contains(sd / mean), "gap CV \(sd / mean)")
        let left = Render.left(out), right = Render.right(out)
        #expect(SignalAnalysis.peak(left) > 0.05 && SignalAnalysis.peak(right) > 0.05)
        #expect(Array(out[(2 * (1_400_000 + 9_700))...]).allSatisfy { $0 == 0 }, "silent after the stop")
    }

    /// Evenly spaced, the gaps are uniform from 0 to twice the mean (0.5 s at 120 a minute):
    /// about as many events, none after a hole longer than 1 s (two starts closer than the
    /// onset detector's 1,000 silent frames count as one, so a gap may reach 1 s plus a
    /// click), and a coefficient of variation near 1/√3 where the Poisson spacing's is near 1
    /// and leaves holes of over 1 s.
    @Test func evenSpacingLeavesNoHoles() {
        func gaps(_ spacing: ScatterConfig.Spacing) -> [Double] {
            let (config, commands) = Self.scene(seed: 3, eventsPerMinute: 120...120, pitch: 0...0, spacing: spacing)
            let onsets = Self.onsets(Render.scene(config, commands: commands, frameCount: Self.frames + 48_000, blockSize: 256))
            return zip(onsets.dropFirst(), onsets).map { Double($0 - $1) }
        }
        let even = gaps(.even), random = gaps(.random)
        let mean = even.reduce(0, +) / Double(even.count)
        let sd = (even.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(even.count)).squareRoot()
        #expect((45...65).contains(even.count + 1), "\(even.count + 1) events in 30 s at 120 a minute")
        #expect((0.4...0.75).contains(sd / mean), "gap CV \(sd / mean)")
        #expect(even.max()! <= 48_000 + 3_100, "longest gap \(even.max()!) frames")
        #expect(random.max()! > 48_000 + 3_100, "the Poisson spacing's longest gap \(random.max()!) frames")
    }
}
