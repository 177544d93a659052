import CabinAudio
import CabinSession
import Glibc

/// A session that exercises every mixer feature, with its assets made in memory (so the
/// check needs no sound library): loops with loop points, a pitch map following a speed
/// ramp, ducking under a voice one-shot, UI one-shots, a crossfade, fades and stops, every
/// synthesized source, a bus low-pass whose cutoff closes, sweeps and opens again, and a
/// compressor on the voice bus whose threshold and release cues move while it works.
enum AllocationScene {
    static func compile(seconds: Double, blockFrames: Int) throws -> CompiledSession {
        let total = seconds + 2
        let json = """
            { "cabin": 1, "duration": \(total),
              "buses": { "ambient": { "gain": -18, "lowpass": 20000 },
                         "voice": { "gain": 0, "compressor": { "threshold": -30, "ratio": 4, "attack": "2ms", "release": "80ms", "makeup": 3 } } },
              "ducking": [ { "when": "voice", "duck": ["engine", "ambient", "radio"], "by": -12 } ],
              "parameters": { "speed": { "value": 62, "min": 0, "max": 80 } },
              "layers": {
                "engine": { "bus": "engine", "sound": "engine.wav", "loop": true,
                            "pitch": { "parameter": "speed", "map": [[0, 0.7], [80, 1.4]] } },
                "ambient": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true },
                "radio": { "bus": "radio", "sound": "synth:binaural?carrier=200&beat=8", "gain": -6 },
                "hum": { "bus": "radio", "sound": "synth:brown-noise", "loop": true, "gain": -10 },
                "live": { "bus": "engine", "sound": "synth:engine?cylinders=4&rpm=2000&exhaust=300", "loop": true, "gain": -6,
                          "pitch": { "parameter": "speed", "map": [[0, 0.4], [80, 1.3]] } },
                "motor": { "bus": "engine", "sound": "synth:motor?frequency=370&whine=2500&balance=0.4", "loop": true, "gain": -6,
                           "pitch": { "parameter": "speed", "map": [[0, 0.004], [80, 1]] } },
                "v8": { "bus": "engine", "sound": "synth:engine?cylinders=8&rpm=2000&exhaust=180&rasp=0.6", "loop": true, "gain": -6,
                        "pitch": { "parameter": "speed", "map": [[0, 0.36], [80, 1.2]] } }
              },
              "cues": [
                { "at": 0, "start": ["engine", "ambient", "radio", "hum", "live", "motor", "v8"], "fadeIn": "500ms" },
                \(periodicCues(until: total))
                { "at": \(total - 1), "stop": ["engine", "ambient", "radio", "hum", "live", "motor", "v8"], "fadeOut": "800ms" }
              ] }
            """
        let result = SessionReader.read(json, file: "allocation-scene.json")
        guard let document = result.document else { throw SceneError(lines: result.diagnostics.map(\.description)) }
        let sounds = ResolvedSounds(sounds: [
            "engine.wav": LoadedSound(buffer: harmonicLoop(frames: 48000, fundamental: 55), trim: 0,
                                      loopStart: 0, loopEnd: 48000),
            "click.wav": LoadedSound(buffer: click()),
            "voice.wav": LoadedSound(buffer: harmonicLoop(frames: 72000, fundamental: 180)),
        ])
        return SessionCompiler.compile(document, sounds: sounds, sampleRate: 48000, maxBlockFrames: blockFrames)
    }

    /// Every 5 s: a speed ramp, a UI click, a voice prompt (ducking), a crossfade, a fade, a
    /// low-pass move (closing from open, then opening again), compressor threshold and
    /// release moves during the prompt.
    static func periodicCues(until total: Double) -> String {
        var cues: [String] = []
        var t = 1.5
        var toggle = false
        while t + 3 < total - 1.5 {
            toggle.toggle()
            cues.append(#"{ "at": \#(t), "set": "speed", "to": \#(toggle ? 20 : 70), "over": "3s" }"#)
            cues.append(#"{ "at": \#(t + 0.5), "play": "click.wav", "bus": "ui" }"#)
            cues.append(#"{ "at": \#(t + 1), "play": "voice.wav", "bus": "voice", "mark": "voice" }"#)
            cues.append(#"{ "at": \#(t + 2), "crossfade": "ambient", "to": "\#(toggle ? "synth:white-noise" : "synth:pink-noise")", "over": "2s" }"#)
            cues.append(#"{ "at": \#(t + 3), "fade": "hum", "to": \#(toggle ? -6 : 0), "over": "1s" }"#)
            cues.append(#"{ "at": \#(t + 1.5), "fade": "live", "to": \#(toggle ? 3 : -3), "over": "1s" }"#)
            cues.append(#"{ "at": \#(t + 3.5), "lowpass": "ambient", "to": \#(toggle ? 600 : 20000), "over": "1s" }"#)
            cues.append(#"{ "at": \#(t + 1.2), "compressor": "voice", "parameter": "threshold", "to": \#(toggle ? -40 : -24), "over": "1s" }"#)
            cues.append(#"{ "at": \#(t + 2.5), "compressor": "voice", "parameter": "release", "to": "\#(toggle ? "200ms" : "60ms")", "over": "300ms" }"#)
            t += 5
        }
        return cues.map { $0 + "," }.joined(separator: "\n")
    }

    /// Adds a layer playing a new stream on the radio bus, started with the others and, every
    /// 5 s, faded and restarted over its own fade-out (two voices reading one stream); returns
    /// the stream for its producer.
    static func addStream(to session: inout CompiledSession) -> AudioStream {
        let (id, stream) = session.config.addStream(capacityFrames: 4_096)
        let layer = session.config.addLayer(LayerConfig(name: "stream", bus: session.config.bus(named: "radio")!,
                                                        source: .stream(id), gain: -12))
        var extra = [MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 24_000))]
        var t = 2.5, toggle = false
        while t + 3 < session.duration - 1.5 {
            toggle.toggle()
            extra.append(MixerCommand(at: session.config.frames(t), .fadeLayer(layer, to: toggle ? -6 : 0, overFrames: 24_000)))
            extra.append(MixerCommand(at: session.config.frames(t + 2), .crossfadeLayer(layer, to: .stream(id), overFrames: 48_000)))
            t += 5
        }
        // Merge by frame, the session's own commands first at equal frames.
        var merged: [MixerCommand] = [], i = 0
        for command in session.commands {
            while i < extra.count && extra[i].time < command.time { merged.append(extra[i]); i += 1 }
            merged.append(command)
        }
        session.commands = merged + extra[i...]
        return stream
    }

    /// Adds a scatter layer on the ambient bus — clicks and a harmonic burst at 120–300
    /// events a minute, ±6 dB, full pan, ±5 semitones, so sounds overlap — started with the
    /// others and stopped with them.
    static func addScatter(to session: inout CompiledSession) {
        let a = session.config.addAsset(click())
        let b = session.config.addAsset(harmonicLoop(frames: 9_000, fundamental: 330), trim: -3)
        let scatter = session.config.addScatter(ScatterConfig(sounds: [a, b], eventsPerMinute: 120...300, gain: -6...0,
                                                              pan: -1...1, pitch: -5...5, seed: 11))
        let layer = session.config.addLayer(LayerConfig(name: "scatter", bus: session.config.bus(named: "ambient")!,
                                                        source: .scatter(scatter), isLooping: true))
        session.commands.insert(MixerCommand(at: 0, .startLayer(layer, fadeInFrames: 4_800)), at: 0)
    }

    static func harmonicLoop(frames: Int, fundamental: Double) -> AudioBuffer {
        var samples = [Float](repeating: 0, count: frames)
        for i in 0..<frames {
            var v = 0.0
            for h in 1...6 { v += sin(2 * .pi * fundamental * Double(h) * Double(i) / 48000) / Double(h) }
            samples[i] = Float(0.2 * v)
        }
        return AudioBuffer(samples: samples, channelCount: 1, sampleRate: 48000)
    }

    static func click() -> AudioBuffer {
        let samples = (0..<960).map { i in Float(0.5 * exp(-Double(i) / 80) * sin(Double(i) * 0.9)) }
        return AudioBuffer(samples: samples, channelCount: 1, sampleRate: 48000)
    }

    struct SceneError: Error, CustomStringConvertible {
        var lines: [String]
        var description: String { lines.joined(separator: "\n") }
    }
}

