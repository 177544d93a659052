import Testing
import CabinAudio

/// Loops: gapless and click-free across the seam, honouring loop points.
@Suite struct MixerLoopTests {
    func maxStep(_ x: [Float]) -> Float {
        var m: Float = 0
        for i in 1..<x.count { m = max(m, abs(x[i] - x[i - 1])) }
        return m
    }

    /// A loop whose ends match (a whole number of cycles between the loop points) is seamless
    /// at any pitch; the samples continue exactly through the seam at ratio 1.
    @Test(arguments: [1.0, 0.77, 1.37])
    func matchingLoopHasNoClickAtTheSeam(ratio: Double) throws {
        var config = Render.config()
        let body = Render.sine(frequency: 300, sampleRate: 48_000, frameCount: 2_000, amplitude: 0.5)
        // 300 Hz at 48 kHz: 160 frames per cycle; loop 320 ..< 1_920 holds 10 cycles.
        let id = config.addAsset(body, loop: LoopPoints(start: 320, end: 1_920))
        let speed = config.addParameter("speed", value: 1)
        let layer = config.addLayer(LayerConfig(name: "l", bus: BusID(index: 0), source: .asset(id), isLooping: true,
                                                pitchMap: ParameterMap(parameter: speed, points: [(0, ratio), (1, ratio)])))
        let out = Render.left(Render.scene(config, commands: [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0))],
                                           frameCount: 12_000))
        let bodyStep = maxStep(body.samples)
        #expect(maxStep(Array(out[300...])) <= bodyStep * Float(ratio) * 1.01 + 1e-6)
        if ratio == 1 {
            // After the first pass, playback is the loop body repeated sample for sample.
            #expect(Array(out[1_920..<3_520]) == Array(body.samples[320..<1_920]))
        }
    }

    /// A loop whose ends do not match would click; the baked seam crossfade removes it.
    @Test func seamCrossfadeRemovesTheClickOfMismatchedEnds() {
        let body = Render.sine(frequency: 310, sampleRate: 48_000, frameCount: 4_000, amplitude: 0.5)
        for loop in [LoopPoints(start: 0, end: 3_977), LoopPoints(start: 1_000, end: 3_977)] {
            var plain = Render.config()
            let raw = plain.addAsset(body, loop: loop)
            var faded = Render.config()
            let smooth = faded.addAsset(body, loop: loop, seamCrossfadeFrames: 480)
            let bodyStep = maxStep(body.samples)
            let clicky = Render.left(Render.scene(plain, commands: [
                MixerCommand(at: 0, .playOneShot(.asset(raw), bus: BusID(index: 0), gain: 0)),
            ], frameCount: 100))
            #expect(clicky.count == 100)
            let a = plain.addLayer(LayerConfig(name: "a", bus: BusID(index: 0), source: .asset(raw), isLooping: true))
            let b = faded.addLayer(LayerConfig(name: "b", bus: BusID(index: 0), source: .asset(smooth), isLooping: true))
            let withClick = Render.left(Render.scene(plain, commands: [MixerCommand(at: 0, .startLayer(a, fadeInFrames: 0))],
                                                     frameCount: 16_000))
            let without = Render.left(Render.scene(faded, commands: [MixerCommand(at: 0, .startLayer(b, fadeInFrames: 0))],
                                                   frameCount: 16_000))
            #expect(maxStep(Array(withClick[300...])) > bodyStep * 2)
            #expect(maxStep(Array(without[300...])) <= bodyStep * 1.01)
        }
    }
}
