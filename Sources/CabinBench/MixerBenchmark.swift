import CabinAudio

/// A standard "drive" scene and a timing run over it, for `cabin bench` and the allocation
/// check.
///
/// The scene: two engine loops (idle and cruise) repitched by a speed parameter and
/// crossfaded by gain maps, as game engines do, highway pink noise crossfading to brown,
/// rain (white noise), a brown-noise radio and a binaural bed, UI one-shots, a GPS voice
/// ducking the other buses, and the limiter — about 8 voices at once. Commands keep arriving for the
/// whole run, so command handling is measured too.
///
/// ```swift
/// let result = MixerBenchmark.run(seconds: 60)
/// print(result)  // e.g. "60 s at 48000 Hz in blocks of 256: 211× real time, 0.473 % of a core, …"
/// ```
///
/// Thread: control thread (it makes a mixer and renders it on the calling thread).
package enum MixerBenchmark {
    /// Figures from one run.
    package struct Result: Sendable, CustomStringConvertible {
        package var sampleRate: Double
        package var blockFrames: Int
        package var renderedFrames: Int
        /// Wall-clock seconds spent inside `render`.
        package var renderSeconds: Double
        /// Audio seconds rendered per wall second.
        package var realTimeFactor: Double { Double(renderedFrames) / sampleRate / renderSeconds }
        /// Share of one core needed to play the scene in real time, in percent.
        package var corePercent: Double { 100 / realTimeFactor }
        /// Nanoseconds per stereo frame.
        package var nanosecondsPerFrame: Double { renderSeconds * 1e9 / Double(renderedFrames) }
        /// Voices sounding, averaged over the blocks of the run.
        package var averageVoices: Double

        package var description: String {
            let seconds = Double(renderedFrames) / sampleRate
            return "\(Int(seconds)) s at \(Int(sampleRate)) Hz in blocks of \(blockFrames): "
                + "\(Int(realTimeFactor))× real time, \(Double(Int(corePercent * 1000)) / 1000) % of a core, "
                + "\(Int(nanosecondsPerFrame)) ns per frame, \(Double(Int(averageVoices * 10)) / 10) voices on average"
        }
    }

    /// Renders the drive scene for `seconds` in blocks of `blockFrames` and times it.
    package static func run(seconds: Double = 30, sampleRate: Double = 48_000, blockFrames: Int = 256,
                           isLimiterEnabled: Bool = true) -> Result {
        var (config, commands) = driveScene(sampleRate: sampleRate, seconds: seconds)
        config.isLimiterEnabled = isLimiterEnabled
        let (mixer, handle) = config.make()
        var buffer = [Float](repeating: 0, count: 2 * blockFrames)
        let total = Int(seconds * sampleRate)
        var pending = commands[...]
        var done = 0
        var elapsed = Duration.zero
        var voiceBlocks = 0, blocks = 0
        let clock = ContinuousClock()
        buffer.withUnsafeMutableBufferPointer { out in
            while done < total {
                // Feed commands a second ahead, as a session runner would.
                while let next = pending.first, next.time < FrameTime(done) + FrameTime(sampleRate) {
                    guard handle.send(next) else { break }
                    pending = pending.dropFirst()
                }
                let n = min(blockFrames, total - done)
                elapsed += clock.measure { mixer.render(into: out, frameCount: n) }
                done += n
                voiceBlocks += handle.counters.activeVoices
                blocks += 1
            }
        }
        let (s, atto) = elapsed.components
        return Result(sampleRate: sampleRate, blockFrames: blockFrames, renderedFrames: total,
                      renderSeconds: Double(s) + Double(atto) * 1e-18,
                      averageVoices: Double(voiceBlocks) / Double(max(1, blocks)))
    }

    /// The drive scene: a config and its commands, sorted by frame, for `seconds`.
    package static func driveScene(sampleRate: Double = 48_000, seconds: Double = 30) -> (MixerConfig, [MixerCommand]) {
        var config = MixerConfig(sampleRate: sampleRate, maxBlockFrames: 512)
        let engineBus = config.bus(named: "engine")!, ambientBus = config.bus(named: "ambient")!
        let radioBus = config.bus(named: "radio")!, uiBus = config.bus(named: "ui")!
        let voiceBus = config.bus(named: "voice")!
        config.ducking = [DuckingRule(when: voiceBus, duck: [radioBus, ambientBus, engineBus], depth: -12)]
        let rate = Int(sampleRate)
        let hum = config.addAsset(tone(sampleRate: sampleRate, frames: rate, partials: [55, 110, 165, 220]),
                                  loop: LoopPoints(start: rate / 10, end: rate), seamCrossfadeFrames: rate / 50)
        let click = config.addAsset(tone(sampleRate: sampleRate, frames: rate / 20, partials: [2_000, 3_100], decay: true))
        let speech = config.addAsset(tone(sampleRate: sampleRate, frames: rate, partials: [180, 360, 540], decay: true))
        let speed = config.addParameter("speed", value: 62, range: 0...80)
        let engine = config.addLayer(LayerConfig(name: "engine", bus: engineBus, source: .asset(hum), isLooping: true,
                                                 pitchMap: ParameterMap(parameter: speed, points: [(0, 0.7), (80, 1.4)]),
                                                 gainMap: ParameterMap(parameter: speed, points: [(0, -4), (80, 0)])))
        let cruise = config.addLayer(LayerConfig(name: "engine-cruise", bus: engineBus, source: .asset(hum), isLooping: true,
                                                 pitchMap: ParameterMap(parameter: speed, points: [(0, 1.2), (80, 2)]),
                                                 gainMap: ParameterMap(parameter: speed, points: [(20, -30), (60, -3)])))
        let rain = config.addLayer(LayerConfig(name: "rain", bus: ambientBus, source: .synth(.whiteNoise(seed: 5)), gain: -6,
                                               isLooping: true))
        let ambient = config.addLayer(LayerConfig(name: "ambient", bus: ambientBus, source: .synth(.pinkNoise(seed: 1)), isLooping: true))
        let radio = config.addLayer(LayerConfig(name: "radio", bus: radioBus, source: .synth(.brownNoise(seed: 2)), gain: -2))
        let bed = config.addLayer(LayerConfig(name: "bed", bus: radioBus, source: .synth(.binaural(carrier: 200, beat: 6)), gain: -6))
        var commands = [
            MixerCommand(at: 0, .startLayer(engine, fadeInFrames: FrameTime(rate))),
            MixerCommand(at: 0, .startLayer(cruise, fadeInFrames: FrameTime(rate))),
            MixerCommand(at: 0, .startLayer(rain, fadeInFrames: FrameTime(rate))),
            MixerCommand(at: 0, .startLayer(ambient, fadeInFrames: FrameTime(rate))),
            MixerCommand(at: 0, .startLayer(radio, fadeInFrames: FrameTime(rate))),
            MixerCommand(at: 0, .startLayer(bed, fadeInFrames: FrameTime(rate))),
        ]
        var t = 0
        var k = 0
        while Double(t) < seconds * sampleRate {
            let at = FrameTime(t)
            commands.append(MixerCommand(at: at, .playOneShot(.asset(click), bus: uiBus, gain: -3)))
            commands.append(MixerCommand(at: at, .setParameter(speed, to: Double(40 + (k * 17) % 40), overFrames: FrameTime(rate))))
            if k % 4 == 1 { commands.append(MixerCommand(at: at, .playOneShot(.asset(speech), bus: voiceBus, gain: 0))) }
            if k % 6 == 3 {
                commands.append(MixerCommand(at: at, .crossfadeLayer(ambient, to: k % 12 == 3 ? .synth(.brownNoise(seed: UInt64(k)))
                                                                     : .synth(.pinkNoise(seed: UInt64(k))), overFrames: FrameTime(rate))))
            }
            t += rate / 2
            k += 1
        }
        return (config, commands)
    }

    /// A sum of sines, optionally decaying, peaking near 0.5.
    static func tone(sampleRate: Double, frames: Int, partials: [Hertz], decay: Bool = false) -> AudioBuffer {
        var samples = [Float](repeating: 0, count: frames)
        for i in 0..<frames {
            var s = 0.0
            for f in partials {
                var phase = 2 * Double.pi * f * Double(i) / sampleRate
                phase -= 2 * Double.pi * Double(Int(phase / (2 * Double.pi)))
                s += MixerMath.sine(phase)
            }
            let envelope = decay ? 1 - Double(i) / Double(frames) : 1
            samples[i] = Float(0.5 * s / Double(partials.count) * envelope)
        }
        return AudioBuffer(samples: samples, channelCount: 1, sampleRate: sampleRate)
    }
}
