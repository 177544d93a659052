import CabinAudio
import Glibc

/// The loud mix of `cabin bench --mix`: N looping layers of stereo float sources on four
/// buses, a voice cue every 30 s ducking two of them by 12 dB, the limiter on — loud enough
/// that the limiter works on most of the run. The same voices can be summed by
/// `PlainSummingLoop`, the reference the mixer's speed is compared with.
///
/// Layer k plays source k (a seeded mix of partials and a little noise, 2–4 s long, its own
/// length so the loops drift against each other) on bus k mod 4 at `layerGain`, faded in
/// over `fadeInDuration`; the cue (a 3 s mono tone) plays at 15 s, 45 s, 75 s, … on the
/// voice bus and ducks buses 0 and 1 with the mixer's default attack and release.
///
/// ```swift
/// let scene = LoudMixScene(voices: 8, duration: 600)
/// let (config, commands) = scene.mixer()
/// var plain = PlainSummingLoop(scene)
/// ```
///
/// Thread: a value; control thread (it allocates its sources).
package struct LoudMixScene: Sendable {
    package let voiceCount: Int
    package let sampleRate: Double
    /// Seconds the scene lasts (its cues are placed up to here).
    package let duration: Double
    /// Each layer's stereo source, interleaved.
    package let sources: [AudioBuffer]
    /// The cue, mono.
    package let cue: AudioBuffer
    /// Gain of every layer.
    package let layerGain: Decibels = -3
    package let fadeInDuration = 0.5
    package let cuePeriod = 30.0, firstCueTime = 15.0
    package let duck = DuckingRule(when: BusID(index: 4), duck: [BusID(index: 0), BusID(index: 1)], depth: -12)
    /// Buses 0…3 carry the layers; bus 4 is the voice.
    package static let layerBusCount = 4

    /// When set, every layer is repitched by this ratio (through a pitch map on a constant
    /// parameter, as engines are), so its asset is read by the cubic-Hermite interpolator.
    package let pitch: Double?

    package init(voices: Int, duration: Double = 600, sampleRate: Double = 48_000, pitch: Double? = nil) {
        precondition(voices > 0 && duration > 0)
        voiceCount = voices
        self.pitch = pitch
        self.duration = duration
        self.sampleRate = sampleRate
        var random = SeededRandom(seed: 17)
        sources = (0..<voices).map { k in
            LoudMixScene.source(frameCount: Int(sampleRate * (2 + Double(k % 9) * 0.25)) + 37 * k,
                                sampleRate: sampleRate, random: random.derived(UInt64(k)))
        }
        _ = random.next()
        cue = MixerBenchmark.tone(sampleRate: sampleRate, frames: Int(3 * sampleRate), partials: [180, 360, 540, 720],
                                  decay: true)
    }

    /// Frames at which the cue starts.
    package var cueFrames: [Int] {
        stride(from: firstCueTime, to: duration, by: cuePeriod).map { Int($0 * sampleRate) }
    }

    /// The bus of layer `k`.
    package func bus(ofLayer k: Int) -> Int { k % LoudMixScene.layerBusCount }

    /// The scene as a mixer config (limiter on) and its commands, sorted by frame.
    package func mixer(maxBlockFrames: Int = 512) -> (MixerConfig, [MixerCommand]) {
        let perBus = (voiceCount + LoudMixScene.layerBusCount - 1) / LoudMixScene.layerBusCount
        var buses = (0..<LoudMixScene.layerBusCount).map { BusConfig(name: "bed\($0 + 1)", gain: 0, polyphony: perBus) }
        buses.append(BusConfig(name: "voice", gain: 0, polyphony: 2))
        var config = MixerConfig(sampleRate: sampleRate, maxBlockFrames: maxBlockFrames, buses: buses)
        config.ducking = [duck]
        var commands: [MixerCommand] = []
        let speed = pitch.map { _ in config.addParameter("speed", value: 1, range: 0...2) }
        for (k, source) in sources.enumerated() {
            let asset = config.addAsset(source)
            var map: ParameterMap?
            if let speed, let pitch { map = ParameterMap(parameter: speed, points: [(0, pitch), (2, pitch)]) }
            let layer = config.addLayer(LayerConfig(name: "layer\(k + 1)", bus: BusID(index: Int32(bus(ofLayer: k))),
                                                    source: .asset(asset), gain: layerGain, isLooping: true,
                                                    pitchMap: map))
            commands.append(MixerCommand(at: 0, .startLayer(layer, fadeInFrames: FrameTime(fadeInDuration * sampleRate))))
        }
        let cueAsset = config.addAsset(cue)
        for frame in cueFrames {
            commands.append(MixerCommand(at: FrameTime(frame), .playOneShot(.asset(cueAsset), bus: duck.when, gain: 0)))
        }
        return (config, commands)
    }

    /// A stereo loop: seeded partials between 60 Hz and 3 kHz with slow tremolo, and a little
    /// noise, peaking near 0.5.
    static func source(frameCount: Int, sampleRate: Double, random: SeededRandom) -> AudioBuffer {
        var random = random
        let partials = (0..<5).map { _ in
            (frequency: 60 * pow(50, random.unit()), phase: random.uniform(0...6.28), pan: random.unit())
        }
        let tremolo = random.uniform(0.2...2)
        var samples = [Float](repeating: 0, count: 2 * frameCount)
        for i in 0..<frameCount {
            let t = Double(i) / sampleRate
            var l = 0.0, r = 0.0
            for p in partials {
                let s = sin(2 * Double.pi * p.frequency * t + p.phase)
                l += s * (1 - p.pan)
                r += s * p.pan
            }
            let a = 0.16 * (0.8 + 0.2 * sin(2 * Double.pi * tremolo * t))
            samples[2 * i] = Float(a * l + 0.02 * random.bipolar())
            samples[2 * i + 1] = Float(a * r + 0.02 * random.bipolar())
        }
        return AudioBuffer(samples: samples, channelCount: 2, sampleRate: sampleRate)
    }
}
