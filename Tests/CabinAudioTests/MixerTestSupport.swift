import CabinAudio
import CabinTestSupport

/// Offline rendering helpers for the mixer tests.
enum Render {
    /// Sends `commands`, renders `frameCount` frames in blocks of `blockSize`, returns the
    /// interleaved stereo output.
    static func scene(_ config: MixerConfig, commands: [MixerCommand], frameCount: Int,
                      blockSize: Int = 64) -> [Float] {
        let (mixer, handle) = config.make()
        for command in commands { precondition(handle.send(command), "ring full in a test") }
        return run(mixer, frameCount: frameCount, blockSize: blockSize)
    }

    /// Renders `frameCount` frames from an existing mixer in blocks of `blockSize`.
    static func run(_ mixer: Mixer, frameCount: Int, blockSize: Int) -> [Float] {
        var out = [Float](repeating: 0, count: 2 * frameCount)
        var done = 0
        var block = [Float](repeating: 0, count: 2 * blockSize)
        while done < frameCount {
            let n = min(blockSize, frameCount - done)
            block.withUnsafeMutableBufferPointer { mixer.render(into: $0, frameCount: n) }
            for i in 0..<(2 * n) { out[2 * done + i] = block[i] }
            done += n
        }
        return out
    }

    static func left(_ stereo: [Float]) -> [Float] { stride(from: 0, to: stereo.count, by: 2).map { stereo[$0] } }
    static func right(_ stereo: [Float]) -> [Float] { stride(from: 1, to: stereo.count, by: 2).map { stereo[$0] } }

    /// A config with one bus per name, all at 0 dB unless given, and the limiter off.
    static func config(sampleRate: Double = 48_000, buses: [(String, Double)] = [("main", 0)],
                       polyphony: Int = 4, maxBlockFrames: Int = 512) -> MixerConfig {
        var config = MixerConfig(sampleRate: sampleRate, maxBlockFrames: maxBlockFrames,
                                 buses: buses.map { BusConfig(name: $0.0, gain: Decibels($0.1), polyphony: polyphony) })
        config.isLimiterEnabled = false
        return config
    }

    /// A mono sine buffer.
    static func sine(frequency: Double, sampleRate: Double, frameCount: Int, amplitude: Float = 1) -> AudioBuffer {
        let samples = (0..<frameCount).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
        return AudioBuffer(samples: samples, channelCount: 1, sampleRate: sampleRate)
    }

    /// Level in dB of the RMS of `samples`.
    static func rmsDecibels(_ samples: [Float]) -> Double { Decibels(linearGain: SignalAnalysis.rms(samples)).value }
}

import Foundation
