import Testing
import CabinAudio
import CabinTestSupport

/// Levels: bus + layer gain + trim, synthesized sources at their reference RMS.
@Suite struct MixerLevelTests {
    @Test func eachLayerPlaysAtBusPlusLayerGain() throws {
        var config = MixerConfig(sampleRate: 48_000)
        config.isLimiterEnabled = false
        let tone = config.addAsset(Render.sine(frequency: 1_000, sampleRate: 48_000, frameCount: 4_800, amplitude: 0.5))
        let trimmed = config.addAsset(Render.sine(frequency: 1_000, sampleRate: 48_000, frameCount: 4_800, amplitude: 0.5),
                                      trim: -4)
        let toneDecibels = Render.rmsDecibels(Render.sine(frequency: 1_000, sampleRate: 48_000, frameCount: 4_800,
                                                          amplitude: 0.5).samples)
        let cases: [(bus: String, layerGain: Double, asset: AssetID, trim: Double)] = [
            ("engine", 0, tone, 0), ("ambient", -2, tone, 0), ("radio", -2, tone, 0), ("ui", 3, trimmed, -4),
            ("voice", -7.5, trimmed, -4),
        ]
        for c in cases {
            var layerConfig = config
            let bus = try #require(layerConfig.bus(named: c.bus))
            let layer = layerConfig.addLayer(LayerConfig(name: "l", bus: bus, source: .asset(c.asset),
                                                         gain: Decibels(c.layerGain), isLooping: true))
            let out = Render.scene(layerConfig, commands: [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0))],
                                   frameCount: 9_600)
            let busGain = config.buses[Int(bus.index)].gain.value
            let measured = Render.rmsDecibels(Array(Render.left(out)[4_800...]))
            #expect(abs(measured - (toneDecibels + busGain + c.layerGain + c.trim)) < 0.1, "\(c.bus)")
        }
    }

    @Test(arguments: [Synth.whiteNoise(seed: 7), .pinkNoise(seed: 7), .brownNoise(seed: 7),
                      .sine(frequency: 440), .binaural(carrier: 200, beat: 10),
                      .isochronic(carrier: 200, rate: 10)].map(SoundSource.synth))
    func synthesizedSourcesPlayAtTheReferenceLevel(source: SoundSource) {
        var config = Render.config()
        let layer = config.addLayer(LayerConfig(name: "s", bus: BusID(index: 0), source: source, isLooping: true))
        let out = Render.scene(config, commands: [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0))],
                               frameCount: 480_000, blockSize: 512)
        let left = Array(Render.left(out)[4_800...]), right = Array(Render.right(out)[4_800...])
        let tolerance = source == .synth(.brownNoise(seed: 7)) ? 1.0 : 0.2
        #expect(abs(Render.rmsDecibels(left) - SoundSource.synthReferenceRMS.value) < tolerance)
        #expect(abs(Render.rmsDecibels(right) - SoundSource.synthReferenceRMS.value) < tolerance)
    }

    @Test func binauralBeatsAreCarrierPlusMinusHalfTheBeat() throws {
        var config = Render.config()
        let layer = config.addLayer(LayerConfig(name: "b", bus: BusID(index: 0),
                                                source: .synth(.binaural(carrier: 200, beat: 10)), isLooping: true))
        let out = Render.scene(config, commands: [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0))],
                               frameCount: 96_000)
        let l = try #require(SignalAnalysis.zeroCrossingFrequency(Render.left(out), sampleRate: 48_000))
        let r = try #require(SignalAnalysis.zeroCrossingFrequency(Render.right(out), sampleRate: 48_000))
        #expect(abs(l - 195) < 0.05)
        #expect(abs(r - 205) < 0.05)
    }

    /// Isochronic tones: silent at each pulse's edge (every 1/rate s), loudest between.
    @Test func isochronicTonesPulseAtTheirRate() {
        var config = Render.config()
        let layer = config.addLayer(LayerConfig(name: "i", bus: BusID(index: 0),
                                                source: .synth(.isochronic(carrier: 400, rate: 10)), isLooping: true))
        let left = Render.left(Render.scene(config, commands: [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 0))],
                                            frameCount: 48_000))
        func level(around frame: Int) -> Double { Render.rmsDecibels(Array(left[(frame - 120)..<(frame + 120)])) }
        for k in 1..<9 {
            #expect(level(around: k * 4_800 + 2_400) - level(around: k * 4_800) > 30, "pulse \(k)")
            #expect(abs(level(around: k * 4_800 + 2_400) - (-15 + 4.26)) < 0.1, "pulse \(k)")  // RMS / √(3/8)
        }
    }

    @Test func noiseIsSeededAndDeterministic() {
        var config = Render.config()
        let a = config.addLayer(LayerConfig(name: "a", bus: BusID(index: 0), source: .synth(.pinkNoise(seed: 1))))
        let commands = [MixerCommand(at: 0, .startLayer(a, fadeInFrames: 0))]
        let first = Render.scene(config, commands: commands, frameCount: 1_000)
        #expect(first == Render.scene(config, commands: commands, frameCount: 1_000))
        var other = config
        other.layers[0].source = .synth(.pinkNoise(seed: 2))
        #expect(first != Render.scene(other, commands: commands, frameCount: 1_000))
    }
}

@Suite struct BusMeterTests {
    /// A synthesized sine plays at −15 dBFS RMS, so its peak is −15 + 3.01 dB on its bus,
    /// and the bus gain moves the meter with it; silent buses read silence.
    @Test func metersShowEachBussPeak() {
        var config = MixerConfig(sampleRate: 48000, maxBlockFrames: 256)
        config.isLimiterEnabled = false
        let voice = config.bus(named: "voice")!, engine = config.bus(named: "engine")!
        let tone = config.addLayer(LayerConfig(name: "tone", bus: voice, source: .synth(.sine(frequency: 1000)), isLooping: true))
        let hum = config.addLayer(LayerConfig(name: "hum", bus: engine, source: .synth(.sine(frequency: 500)), isLooping: true))
        let (mixer, handle) = config.make()
        _ = handle.send(.startLayer(tone, fadeInFrames: 0), at: 0)
        _ = handle.send(.startLayer(hum, fadeInFrames: 0), at: 0)
        var block = [Float](repeating: 0, count: 2 * 4800)
        block.withUnsafeMutableBufferPointer { mixer.render(into: $0, frameCount: 4800) }
        _ = handle.takeBusPeaks()
        block.withUnsafeMutableBufferPointer { mixer.render(into: $0, frameCount: 4800) }
        let peaks = handle.takeBusPeaks()
        let names = handle.busNames
        let peakVoice = peaks[names.firstIndex(of: "voice")!].value
        let peakEngine = peaks[names.firstIndex(of: "engine")!].value
        #expect(abs(peakVoice - (-15 + 3.0103)) < 0.05, "voice \(peakVoice)")
        #expect(abs(peakEngine - (-15 + 3.0103 - 12)) < 0.05, "engine \(peakEngine)")
        #expect(peaks[names.firstIndex(of: "radio")!] == .silence)
        #expect(handle.takeBusPeaks().allSatisfy { $0 == .silence }, "reading clears")
    }
}
