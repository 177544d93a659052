import CabinAudio
import CabinSoundDesign
import Testing

/// Traffic arrives as real traffic does: a Poisson process, whose gaps are exponential
/// (coefficient of variation ≈ 1; evenly spaced cars have ≈ 0.2–0.4), at the rate asked.
@Suite struct AmbienceTests {
    @Test(arguments: [8.0, 18, 40])
    func trafficArrivalsArePoisson(_ perMinute: Double) {
        var random = SeededRandom(seed: 7)
        let seconds = 3000.0
        let times = AmbientTextures.arrivals(perMinute: perMinute, seconds: seconds, random: &random)
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        let sd = (gaps.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(gaps.count)).squareRoot()
        #expect(abs(Double(times.count) / (seconds / 60) / perMinute - 1) < 0.1, "\(times.count) arrivals")
        #expect(abs(sd / mean - 1) < 0.12, "coefficient of variation \(sd / mean)")
        #expect(times.allSatisfy { (0..<seconds).contains($0) } && times == times.sorted())
    }

    /// Heavy traffic is louder than medium and medium than light (the recipes' levels), and
    /// denser: more arrivals for the same loop.
    @Test func heavyTrafficSitsAboveLight() {
        let levels = ["light", "medium", "heavy"].map { name in
            SoundRecipes.all.first { $0.name == "ambient/highway-\(name)" }!.level
        }
        #expect(levels[0] + 3 <= levels[1] && levels[1] + 2 <= levels[2], "\(levels)")
    }
}
