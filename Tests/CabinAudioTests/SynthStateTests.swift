import CabinAudio
import Testing

/// Each synthesized kind keeps its running state in one block of the voice that the kinds
/// share (`SynthState`): a voice slot that played one kind and is then given another must
/// start the new one exactly as a fresh slot does, whatever the first left behind.
@Suite struct SynthStateTests {
    /// Renders `second` alone on a one-voice bus, and again after `first` played and ended
    /// in the same slot; returns both from the frame `second` starts.
    private func renderAfter(_ first: Synth?, _ second: Synth) -> (fresh: [Float], reused: [Float]) {
        func scene(_ first: Synth?) -> [Float] {
            var config = Render.config(polyphony: 1)
            let bus = BusID(index: 0)
            let b = config.addLayer(LayerConfig(name: "b", bus: bus, source: .synth(second), isLooping: true))
            var commands = [MixerCommand(at: 12_000, .startLayer(b, fadeInFrames: 0))]
            if let first {
                let a = config.addLayer(LayerConfig(name: "a", bus: bus, source: .synth(first), isLooping: true))
                commands += [MixerCommand(at: 0, .startLayer(a, fadeInFrames: 0)),
                             MixerCommand(at: 7_000, .stopLayer(a, fadeOutFrames: 480))]
            }
            let out = Render.scene(config, commands: commands, frameCount: 24_000, blockSize: 100)
            return Array(out[(2 * 12_000)...])
        }
        return (scene(nil), scene(first))
    }

    @Test("a slot that played one kind starts the next as a fresh slot does, for every pair of kinds")
    func aReusedSlotStartsFresh() {
        let kinds = Synth.kinds.map { Synth(named: $0.name, seed: 7)! }
        #expect(kinds.count >= 8)
        for first in kinds {
            for second in kinds {
                let (fresh, reused) = renderAfter(first, second)
                #expect(fresh.contains { $0 != 0 }, "\(second) played nothing")
                #expect(fresh == reused, "\(second) after \(first) differs from \(second) alone")
            }
        }
    }

    @Test("the first kind's sound ended before the second started, so the test compares like with like")
    func theFirstKindIsSilentBeforeTheSecond() {
        let engine = Synth(named: "engine", seed: 7)!
        var config = Render.config(polyphony: 1)
        let a = config.addLayer(LayerConfig(name: "a", bus: BusID(index: 0), source: .synth(engine), isLooping: true))
        let out = Render.scene(config, commands: [MixerCommand(at: 0, .startLayer(a, fadeInFrames: 0)),
                                                  MixerCommand(at: 7_000, .stopLayer(a, fadeOutFrames: 480))],
                               frameCount: 12_000, blockSize: 100)
        #expect(out[..<(2 * 7_000)].contains { $0 != 0 })
        #expect(out[(2 * 7_600)...].allSatisfy { $0 == 0 })
    }
}
