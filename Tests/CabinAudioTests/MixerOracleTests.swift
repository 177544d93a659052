import Foundation
import Testing
import CabinAudio

/// The mixer's output equals a naive per-sample reference written straight from the rules:
/// sample × bus gain × layer gain × trim × linear fade-in, summed over layers.
@Suite struct MixerOracleTests {
    struct Layer {
        var bus: Int
        var gain: Double
        var trim: Double
        var start: Int
        var fadeIn: Int
        var buffer: AudioBuffer
    }

    @Test func mixEqualsTheNaiveReference() {
        let busGains = [-3.0, -6.0, 0.0]
        var config = Render.config(buses: busGains.enumerated().map { ("b\($0.offset)", $0.element) })
        var stereo: [Float] = []
        for i in 0..<3_000 { stereo += [Float(sin(Double(i) * 0.031)) * 0.4, Float(cos(Double(i) * 0.017)) * 0.3] }
        let layers = [
            Layer(bus: 0, gain: -1, trim: 0, start: 0, fadeIn: 240, buffer: Render.sine(frequency: 441, sampleRate: 48_000, frameCount: 2_000, amplitude: 0.5)),
            Layer(bus: 1, gain: 2, trim: -3, start: 17, fadeIn: 1_000, buffer: AudioBuffer(samples: stereo, channelCount: 2, sampleRate: 48_000)),
            Layer(bus: 2, gain: -12, trim: 1.5, start: 555, fadeIn: 333, buffer: Render.sine(frequency: 97, sampleRate: 48_000, frameCount: 1_234, amplitude: 0.9)),
            Layer(bus: 0, gain: 0, trim: 0, start: 2_000, fadeIn: 240, buffer: Render.sine(frequency: 3_000, sampleRate: 48_000, frameCount: 800, amplitude: 0.2)),
        ]
        var commands: [MixerCommand] = []
        for (k, layer) in layers.enumerated() {
            let asset = config.addAsset(layer.buffer, trim: Decibels(layer.trim))
            let id = config.addLayer(LayerConfig(name: "l\(k)", bus: BusID(index: Int32(layer.bus)), source: .asset(asset),
                                                 gain: Decibels(layer.gain), isLooping: true))
            commands.append(MixerCommand(at: FrameTime(layer.start), .startLayer(id, fadeInFrames: Int64(layer.fadeIn))))
        }
        let frames = 6_000
        let out = Render.scene(config, commands: commands, frameCount: frames, blockSize: 100)
        var worst = 0.0
        for n in 0..<frames {
            var left = 0.0, right = 0.0
            for layer in layers where n >= layer.start {
                let k = n - layer.start
                let f = k % layer.buffer.frameCount
                let envelope = min(Double(k + 1) / Double(layer.fadeIn), 1)
                let g = pow(10, (busGains[layer.bus] + layer.gain + layer.trim) / 20) * envelope
                let l = Double(layer.buffer[f, 0])
                let r = layer.buffer.channelCount == 2 ? Double(layer.buffer[f, 1]) : l
                left += l * g
                right += r * g
            }
            worst = max(worst, abs(Double(out[2 * n]) - left), abs(Double(out[2 * n + 1]) - right))
        }
        #expect(worst < 2e-6, "largest difference \(worst)")
    }
}
