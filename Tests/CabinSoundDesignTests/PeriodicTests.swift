import CabinAudio
import CabinSoundDesign
import Foundation
import Testing

/// Loops are seamless by construction: periodic filtering and wrapped events.
@Suite struct PeriodicTests {
    @Test func periodicFilterLeavesNoSeam() {
        var r = SeededRandom(seed: 3)
        let noise = Noise.white(24000, random: &r)
        let y = noise.filtered(.lowpass, 200, q: 4, sampleRate: 48000, periodic: true)
        // Filtering the loop repeated twice gives the same second half: the wrap is continuous.
        var f = Biquad(.lowpass, frequency: 200, q: 4, sampleRate: 48000)
        let twice = (noise + noise + noise).map { f.process($0) }
        let worst = (0..<24000).map { abs(twice[48000 + $0] - y[$0]) }.max() ?? 0
        #expect(worst < 1e-9)
    }

    @Test func eventsWrapAroundTheEnd() {
        var x = [Double](repeating: 0, count: 5)
        Periodic.add([1, 2, 3], into: &x, at: 3)
        #expect(x == [3, 0, 0, 1, 2])
    }

    @Test func snappedFrequenciesCompleteWholeCycles() {
        let f = Periodic.snap(440.3, frames: 48000 * 3, sampleRate: 48000)
        #expect((f * 3).rounded() == f * 3)
    }

    @Test func seamMeasureSeesAJump() {
        let sine: [Float] = (0..<100).map { i in Float(sin(Double(i) * 2 * Double.pi / 100)) }
        let smooth = AudioBuffer(samples: sine, channelCount: 1, sampleRate: 100)
        #expect(LoopSeam.measure(smooth).isSeamless)
        let ramp = AudioBuffer(samples: (0..<100).map { Float($0) / 100 }, channelCount: 1, sampleRate: 100)
        #expect(!LoopSeam.measure(ramp).isSeamless)
    }

    @Test func everyLoopRecipeOfTheEnginesIsSeamlessBeforeEncoding() throws {
        for recipe in EngineRecipes.all {
            let buffer = try recipe.make()
            #expect(LoopSeam.measure(buffer).isSeamless, "\(recipe.name)")
        }
    }

    @Test func namesAreUniqueAndNamed() {
        let names = SoundRecipes.all.map(\.name)
        #expect(Set(names).count == names.count)
        for recipe in SoundRecipes.all { #expect(recipe.name.hasPrefix(recipe.category.rawValue + "/")) }
    }
}
