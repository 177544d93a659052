import Foundation
import Testing
import CabinAudio
import CabinTestSupport

/// The bus low-pass measured on rendered audio: its response against the analytic one of a
/// bilinear 2-pole Butterworth, smooth cutoff moves, exact transparency when open.
@Suite struct MixerEffectTests {
    static let rate = 48_000.0

    /// A tone (the synthesized sine) on a bus with `effects`, started at frame 0; `commands`
    /// act on the bus (`bus#0`). Returns the left channel.
    static func tone(_ frequency: Double, effects: [any BusEffectDescription], commands: [MixerCommand] = [],
                     frames: Int = 48_000, blockSize: Int = 64) -> [Float] {
        var config = Render.config()
        config.buses[0].effects = effects
        let layer = config.addLayer(LayerConfig(name: "tone", bus: BusID(index: 0), source: .synth(.sine(frequency: frequency)),
                                                isLooping: true))
        let all = [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0))] + commands
        return Render.left(Render.scene(config, commands: all, frameCount: frames, blockSize: blockSize))
    }

    /// |H(f)| in dB of the cookbook low-pass at Q = 1/√2: a Butterworth through the bilinear
    /// transform, 1/(1 + Ω⁴) with Ω = tan(πf/fs)/tan(πfc/fs).
    static func expectedDecibels(_ f: Double, cutoff: Double) -> Double {
        let omega = tan(Double.pi * f / rate) / tan(Double.pi * cutoff / rate)
        return -10 * log10(1 + pow(omega, 4))
    }

    /// Gain of the filtered tone against the dry one over the last half second.
    static func measuredDecibels(_ f: Double, cutoff: Double) -> Double {
        let dry = tone(f, effects: [])
        let wet = tone(f, effects: [LowPassEffect.Description(cutoff: cutoff)])
        return Render.rmsDecibels(Array(wet[24_000...])) - Render.rmsDecibels(Array(dry[24_000...]))
    }

    @Test(arguments: [(200.0, 8_000.0), (1_000.0, 1_000.0), (10_000.0, 1_000.0), (4_000.0, 2_000.0), (60.0, 120.0)])
    func responseMatchesTheButterworth(frequency: Double, cutoff: Double) {
        let measured = Self.measuredDecibels(frequency, cutoff: cutoff)
        let expected = Self.expectedDecibels(frequency, cutoff: cutoff)
        #expect(abs(measured - expected) < 0.05, "\(frequency) Hz at cutoff \(cutoff): \(measured) dB, expected \(expected)")
    }

    @Test func passBandWithinHalfADecibelAndTenKilohertzAttenuatedAboveFortyAtOne() {
        #expect(abs(Self.measuredDecibels(200, cutoff: 8_000)) < 0.5)
        // 12 dB/octave, and the bilinear zeros at Nyquist: −42.7 dB, 3.3 octaves above 1 kHz.
        #expect(Self.measuredDecibels(10_000, cutoff: 1_000) < -40)
        #expect(abs(Self.measuredDecibels(1_000, cutoff: 1_000) + 3.01) < 0.05)
    }

    /// Open (20 kHz) is bit-transparent: the same bits as no effect, also after a move that
    /// stays open and after closing and opening again (once the 5 ms crossfade is over).
    @Test func openIsBitTransparent() {
        let dry = Self.tone(3_000, effects: [])
        let open = Self.tone(3_000, effects: [LowPassEffect.Description(cutoff: 20_000)])
        #expect(open == dry)
        let bus = BusID(index: 0)
        let moves = [
            MixerCommand(at: 1_000, .setEffectParameter(bus, effect: 0, parameter: 0, to: 20_000, overFrames: 500)),
            MixerCommand(at: 5_000, .setEffectParameter(bus, effect: 0, parameter: 0, to: 500, overFrames: 2_000)),
            MixerCommand(at: 10_000, .setEffectParameter(bus, effect: 0, parameter: 0, to: 20_000, overFrames: 2_000)),
        ]
        let moved = Self.tone(3_000, effects: [LowPassEffect.Description(cutoff: 20_000)], commands: moves)
        #expect(moved[..<5_000] == dry[..<5_000])
        #expect(moved[5_000..<12_000] != dry[5_000..<12_000])
        #expect(moved[12_300...] == dry[12_300...])
    }

    /// A sweep of the cutoff on a 1 kHz sine has no steps: the largest change from one sample
    /// to the next stays that of the sine itself (2π·1000/48000 of its peak), through
    /// closing from open, a fast sweep down, an instant cut (the mixer's 5 ms minimum) and
    /// reopening.
    @Test func cutoffMovesSmoothly() {
        let bus = BusID(index: 0)
        func move(_ at: FrameTime, _ to: Double, _ over: Int64) -> MixerCommand {
            MixerCommand(at: at, .setEffectParameter(bus, effect: 0, parameter: 0, to: to, overFrames: over))
        }
        let moves = [move(4_800, 300, 9_600), move(19_200, 5_000, 0), move(24_000, 150, 0), move(33_600, 20_000, 4_800)]
        let out = Self.tone(1_000, effects: [LowPassEffect.Description(cutoff: 20_000)], commands: moves)
        let peak = SignalAnalysis.peak(out[..<4_800])
        var largest = 0.0
        for i in 1..<out.count { largest = max(largest, Double(abs(out[i] - out[i - 1]))) }
        let sineStep = peak * 2 * Double.pi * 1_000 / 48_000
        #expect(largest <= sineStep * 1.05, "largest step \(largest), the sine's own \(sineStep)")
        // It did filter: at 150 Hz a 1 kHz tone is down by 33 dB.
        #expect(SignalAnalysis.peak(out[28_000..<33_600]) < peak * 0.03)
    }

    /// One effect's parameter reaches its value on the exact frame, whatever the blocks.
    @Test func blockSizesAreBitIdenticalWithAnEffectMoving() {
        func render(_ block: Int) -> [Float] {
            var config = Render.config(buses: [("ambient", -6), ("ui", 0)])
            config.buses[0].effects = [LowPassEffect.Description(cutoff: 20_000), LowPassEffect.Description(cutoff: 6_000)]
            let noise = config.addLayer(LayerConfig(name: "noise", bus: BusID(index: 0), source: .synth(.pinkNoise(seed: 9)), isLooping: true))
            let bus = BusID(index: 0)
            let commands = [
                MixerCommand(at: 0, .startLayer(noise, fadeInFrames: 500)),
                MixerCommand(at: 3_001, .setEffectParameter(bus, effect: 0, parameter: 0, to: 400, overFrames: 7_777)),
                MixerCommand(at: 9_000, .setEffectParameter(bus, effect: 1, parameter: 0, to: 20_000, overFrames: 1_000)),
                MixerCommand(at: 14_000, .setEffectParameter(bus, effect: 0, parameter: 0, to: 20_000, overFrames: 3_000)),
                MixerCommand(at: 18_000, .setEffectParameter(bus, effect: 0, parameter: 0, to: 60, overFrames: 10)),
                MixerCommand(at: 20_000, .stopLayer(noise, fadeOutFrames: 300)),
                MixerCommand(at: 21_500, .playOneShot(.synth(.sine(frequency: 500)), bus: BusID(index: 1), gain: -6)),
            ]
            return Render.scene(config, commands: commands, frameCount: 30_000, blockSize: block)
        }
        let reference = render(512)
        #expect(SignalAnalysis.peak(reference) > 0.01)
        for block in [1, 7, 64] { #expect(render(block) == reference, "block \(block)") }
    }

    @Test func invalidEffectCommandsAreCountedNotApplied() {
        var config = Render.config()
        config.buses[0].effects = [LowPassEffect.Description(cutoff: 1_000)]
        let (mixer, handle) = config.make()
        handle.send(.setEffectParameter(BusID(index: 0), effect: 1, parameter: 0, to: 500, overFrames: 0), at: 0)
        handle.send(.setEffectParameter(BusID(index: 3), effect: 0, parameter: 0, to: 500, overFrames: 0), at: 0)
        _ = Render.run(mixer, frameCount: 64, blockSize: 64)
        #expect(handle.counters.invalidCommands == 2)
    }
}
