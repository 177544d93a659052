import Foundation
import Synchronization
import Testing
import CabinAudio
import CabinTestSupport

/// Idle-bus skipping with an effect: a bus whose voices stopped keeps running while its
/// effect's tail rings, then goes idle (the effect is no longer called). Also shows the
/// seam from outside CabinAudio: `SpyEffect` is an effect written in the tests.
@Suite struct MixerEffectTailTests {
    /// Counts the frames it is given and passes them to a low-pass.
    final class SpyEffect: BusEffect {
        let inner: any BusEffect
        let frames: FrameCounter
        init(inner: any BusEffect, frames: FrameCounter) {
            self.inner = inner
            self.frames = frames
        }
        func prepare(sampleRate: Double, maximumBlockFrames: Int) {
            inner.prepare(sampleRate: sampleRate, maximumBlockFrames: maximumBlockFrames)
        }
        func process(_ samples: UnsafeMutablePointer<Float>, frameCount: Int) {
            frames.count.add(frameCount, ordering: .relaxed)
            inner.process(samples, frameCount: frameCount)
        }
        var hasTail: Bool { inner.hasTail }
        func setParameter(_ index: Int, to value: Double, overFrames frames: Int64) {
            inner.setParameter(index, to: value, overFrames: frames)
        }
    }

    final class FrameCounter: Sendable {
        let count = Atomic<Int>(0)
    }

    struct Spy: BusEffectDescription {
        var cutoff: Double
        let frames: FrameCounter
        var parameters: [Double] { get { [cutoff] } set { cutoff = newValue[0] } }
        func makeEffect() -> any BusEffect {
            SpyEffect(inner: LowPassEffect.Description(cutoff: cutoff).makeEffect(), frames: frames)
        }
        static func == (a: Spy, b: Spy) -> Bool { a.cutoff == b.cutoff && a.frames === b.frames }
    }

    /// A 100 Hz tone through a 60 Hz low-pass, stopped at frame 9,600 with a 5 ms fade.
    static func render(effects: [any BusEffectDescription], blockSize: Int = 64) -> [Float] {
        var config = Render.config()
        config.buses[0].effects = effects
        let layer = config.addLayer(LayerConfig(name: "tone", bus: BusID(index: 0), source: .synth(.sine(frequency: 100)),
                                                isLooping: true))
        let commands = [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0)),
                        MixerCommand(at: 9_600, .stopLayer(layer, fadeOutFrames: 240))]
        return Render.left(Render.scene(config, commands: commands, frameCount: 96_000, blockSize: blockSize))
    }

    @Test func theTailRingsOutThenTheBusGoesIdle() {
        let dry = Self.render(effects: [])
        let voiceEnd = 9_600 + 240
        #expect(dry[voiceEnd...].allSatisfy { $0 == 0 })
        let frames = FrameCounter()
        let wet = Self.render(effects: [Spy(cutoff: 60, frames: frames)])
        // The tail comes out after the voice has ended …
        #expect(SignalAnalysis.peak(wet[voiceEnd..<(voiceEnd + 480)]) > 1e-3)
        // … and ends in exact silence.
        let lastSound = wet.lastIndex { $0 != 0 } ?? 0
        #expect(lastSound > voiceEnd && lastSound < 48_000, "last sample at \(lastSound)")
        // The effect ran while the tail rang and stopped being called once it ended: it saw
        // fewer frames than were rendered, and at least up to the end of the tail.
        let processed = frames.count.load(ordering: .relaxed)
        #expect(processed >= lastSound && processed < 48_000, "processed \(processed) frames")
    }

    @Test func tailAndIdlingDoNotDependOnBlockSize() {
        let reference = Self.render(effects: [LowPassEffect.Description(cutoff: 60)], blockSize: 512)
        for block in [1, 7, 64] {
            #expect(Self.render(effects: [LowPassEffect.Description(cutoff: 60)], blockSize: block) == reference)
        }
    }

    /// A cutoff move on an idle bus keeps the bus running until the move ends (the effect
    /// changes while it moves), then lets it go idle; silence stays silence.
    @Test func aMoveOnAnIdleBusEndsIdle() {
        let frames = FrameCounter()
        var config = Render.config()
        config.buses[0].effects = [Spy(cutoff: 20_000, frames: frames)]
        let (mixer, handle) = config.make()
        handle.setEffectParameter(0, ofEffect: 0, on: BusID(index: 0), to: 500, overFrames: 4_800, at: 1_000)
        let out = Render.run(mixer, frameCount: 24_000, blockSize: 256)
        #expect(out.allSatisfy { $0 == 0 })
        let processed = frames.count.load(ordering: .relaxed)
        #expect(processed >= 4_800 && processed <= 6_400, "processed \(processed) frames")
    }
}
