import Foundation
import Testing
import CabinAudio
import CabinTestSupport

/// The same scene rendered with blocks of 1, 7, 64 and 512 frames is bit-identical.
@Suite struct MixerInvarianceTests {
    /// A scene using everything: looping layers with loop points and a pitch map under a
    /// parameter ramp, noise crossfades, a binaural layer fading, a burst of one-shots past
    /// the bus polyphony, a voice ducking three buses, bus and master gain ramps, a stop with
    /// fade-out, and the limiter working hard.
    static func scene() -> (MixerConfig, [MixerCommand]) {
        var config = MixerConfig(sampleRate: 48_000, maxBlockFrames: 512)
        let engineBus = config.bus(named: "engine")!, ambientBus = config.bus(named: "ambient")!
        let radioBus = config.bus(named: "radio")!, uiBus = config.bus(named: "ui")!, voiceBus = config.bus(named: "voice")!
        config.ducking = [DuckingRule(when: voiceBus, duck: [radioBus, ambientBus, engineBus], depth: -12,
                                      attackDuration: 0.04, releaseDuration: 0.1),
                          DuckingRule(when: voiceBus, duck: [ambientBus, engineBus], depth: -8,
                                      attackDuration: 0.04, releaseDuration: 0.1, band: 150...4000)]
        let hum = config.addAsset(Render.sine(frequency: 110, sampleRate: 48_000, frameCount: 9_000, amplitude: 0.9),
                                  trim: -1, loop: LoopPoints(start: 1_000, end: 8_123), seamCrossfadeFrames: 300)
        var clickSamples: [Float] = []
        for i in 0..<700 { clickSamples.append(Float(sin(Double(i) * 0.3) * Double(700 - i) / 700)) }
        let click = config.addAsset(AudioBuffer(samples: clickSamples, channelCount: 1, sampleRate: 48_000))
        var stereoSamples: [Float] = []
        for i in 0..<4_000 { stereoSamples += [Float(sin(Double(i) * 0.05)), Float(cos(Double(i) * 0.07))] }
        let stereo = config.addAsset(AudioBuffer(samples: stereoSamples, channelCount: 2, sampleRate: 44_100))
        let speech = config.addAsset(Render.sine(frequency: 220, sampleRate: 48_000, frameCount: 4_000, amplitude: 0.7))
        let speed = config.addParameter("speed", value: 62, range: 0...80)
        let engine = config.addLayer(LayerConfig(name: "engine", bus: engineBus, source: .asset(hum), isLooping: true,
                                                 pitchMap: ParameterMap(parameter: speed, points: [(0, 0.7), (80, 1.4)]),
                                                 gainMap: ParameterMap(parameter: speed, points: [(0, -6), (80, 0)])))
        let ambient = config.addLayer(LayerConfig(name: "ambient", bus: ambientBus, source: .synth(.pinkNoise(seed: 3)), isLooping: true))
        let radio = config.addLayer(LayerConfig(name: "radio", bus: radioBus, source: .synth(.binaural(carrier: 300, beat: 8)), gain: -2))
        let bed = config.addLayer(LayerConfig(name: "bed", bus: radioBus, source: .asset(stereo), isLooping: true))
        config.masterGain = 18  // drive the limiter
        var commands: [MixerCommand] = [
            MixerCommand(at: 0, .playOneShot(.asset(click), bus: uiBus, gain: 0)),
            MixerCommand(at: 30, .startLayer(engine, fadeInFrames: 2_000)),
            MixerCommand(at: 100, .startLayer(ambient, fadeInFrames: 1_000)),
            MixerCommand(at: 101, .startLayer(radio, fadeInFrames: 0)),
            MixerCommand(at: 333, .startLayer(bed, fadeInFrames: 10)),
            MixerCommand(at: 2_400, .setParameter(speed, to: 0, overFrames: 4_800)),
            MixerCommand(at: 5_000, .fadeLayer(radio, to: -6, overFrames: 2_400)),
            MixerCommand(at: 7_000, .playOneShot(.asset(speech), bus: voiceBus, gain: 0)),
            MixerCommand(at: 9_600, .crossfadeLayer(ambient, to: .synth(.brownNoise(seed: 4)), overFrames: 4_800)),
            MixerCommand(at: 12_000, .setParameter(speed, to: 70, overFrames: 3_000)),
            MixerCommand(at: 13_000, .setBusGain(ambientBus, to: -10, overFrames: 1_000)),
            MixerCommand(at: 15_000, .setMasterGain(to: 12, overFrames: 500)),
            MixerCommand(at: 20_000, .stopLayer(engine, fadeOutFrames: 2_000)),
            MixerCommand(at: 21_000, .stopAll(fadeOutFrames: 1_500)),
        ]
        for k in 0..<12 {  // more than the ui bus's 8 voices
            commands.append(MixerCommand(at: FrameTime(3_000 + 37 * k), .playOneShot(.asset(click), bus: uiBus, gain: -3)))
        }
        return (config, commands)
    }

    @Test func blockSizesOneSevenSixtyFourAndFiveTwelveAreBitIdentical() {
        let (config, commands) = Self.scene()
        let reference = Render.scene(config, commands: commands, frameCount: 24_000, blockSize: 512)
        #expect(SignalAnalysis.peak(reference) > 0.5)
        for size in [1, 7, 64] {
            let out = Render.scene(config, commands: commands, frameCount: 24_000, blockSize: size)
            let firstDifference = zip(out, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(firstDifference == nil, "block size \(size) differs at sample \(firstDifference ?? -1)")
        }
    }

    @Test func theSceneStaysUnderMinusOneDecibelTruePeak() {
        let (config, commands) = Self.scene()
        let (mixer, handle) = config.make()
        commands.forEach { handle.send($0) }
        let out = Render.run(mixer, frameCount: 24_000, blockSize: 256)
        #expect(TestTruePeak.decibels(Render.left(out)) <= -1)
        #expect(TestTruePeak.decibels(Render.right(out)) <= -1)
        #expect(handle.counters.limiterMinimumGain < 0.5)
        #expect(handle.counters.stolenVoices >= 4)
        #expect(handle.counters.lateCommands == 0 && handle.counters.invalidCommands == 0)
    }
}
