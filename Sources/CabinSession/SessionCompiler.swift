import CabinAudio
import CabinHaptics

/// Turns a valid `SessionDocument` plus its loaded sounds into a `CompiledSession`: every
/// time becomes a frame index at the session's rate, every name an ID.
///
/// Synthesized noises are seeded from the layer's position (or the cue's), so the same
/// document always renders the same samples.
///
/// The end: at `duration` everything that still sounds is faded out over the last
/// `endFadeDuration` (20 ms), so an explicit duration never ends in a click.
///
/// Haptic cues: each cue whose pattern is in `haptics` is listed in
/// ``CompiledSession/haptics`` at its cue's frame, its pattern kept in
/// ``CompiledSession/hapticPatterns``, and (without an explicit duration) the session lasts
/// until the pattern's audio has ended. With ``SessionCompileOptions/hapticsBusGain`` set,
/// the pattern rendered as audio also plays on a `haptics` bus of the mix, from the cue's
/// exact frame. A pattern that did not load silences its cues with a warning.
///
/// Thread: pure; control thread (allocates).
public enum SessionCompiler {
    public static let endFadeDuration = 0.02

    public static func compile(_ document: SessionDocument, sounds: ResolvedSounds,
                               haptics: ResolvedHaptics = ResolvedHaptics(), sampleRate: Double,
                               maxBlockFrames: Int = 512, options: SessionCompileOptions = .init()) -> CompiledSession {
        var builder = Builder(document: document, sounds: sounds,
                              config: MixerConfig(sampleRate: sampleRate, maxBlockFrames: maxBlockFrames, buses: []))
        builder.resolvedHaptics = haptics
        builder.options = options
        builder.declare()
        builder.schedule()
        return builder.finish()
    }

    struct Builder {
        let document: SessionDocument
        let sounds: ResolvedSounds
        var config: MixerConfig
        var commands: [MixerCommand] = []
        var marks: [CompiledSession.Mark] = []
        var haptics: [CompiledSession.HapticCue] = []
        var resolvedHaptics = ResolvedHaptics()
        var options = SessionCompileOptions()
        var hapticPatterns: [String: CompiledHaptics] = [:]
        var hapticsBus: BusID?
        var hapticAssets: [String: AssetID] = [:]
        /// Each pattern rendered once as mono audio at the session's rate.
        var hapticClips: [String: [Float]] = [:]
        var warnings: [String] = []
        var layers: [String: LayerID] = [:]
        var assets: [String: AssetID] = [:]
        var stations: [CompiledSession.Station] = []
        var lastSoundEnd: FrameTime = 0

        init(document: SessionDocument, sounds: ResolvedSounds, config: MixerConfig) {
            self.document = document
            self.sounds = sounds
            self.config = config
        }

        func frames(_ seconds: Double) -> FrameTime { config.frames(seconds) }

        /// A default bus keeps its voice budget (`MixerConfig.defaultBuses`); a new bus gets
        /// `BusConfig`'s.
        static func polyphony(of bus: String) -> Int {
            MixerConfig.defaultBuses.first { $0.name == bus }?.polyphony ?? BusConfig.defaultPolyphony
        }

        mutating func declare() {
            for bus in document.buses {
                let effects = bus.effects.compactMap { e in DocumentEffect.named(e.key).map { $0.make(e.value) } }
                _ = config.addBus(BusConfig(name: bus.name, gain: Decibels(bus.gain), polyphony: Self.polyphony(of: bus.name),
                                            effects: effects))
            }
            if let gain = options.hapticsBusGain {
                hapticsBus = config.bus(named: "haptics")
                    ?? config.addBus(BusConfig(name: "haptics", gain: Decibels(gain), polyphony: 8))
            }
            for p in document.parameters {
                _ = config.addParameter(p.name, value: p.value, range: p.min...p.max)
            }
            for rule in document.ducking {
                guard let when = config.bus(named: rule.when) else { continue }
                config.ducking.append(DuckingRule(when: when, duck: rule.duck.compactMap { config.bus(named: $0) },
                                                  depth: Decibels(rule.by), attackDuration: rule.attack,
                                                  releaseDuration: rule.release))
            }
            for (index, layer) in document.layers.enumerated() {
                guard let source = source(layer.sound, normalize: layer.normalize, seed: UInt64(index + 1),
                                          user: "layer \"\(layer.name)\""),
                      let bus = config.bus(named: layer.bus) else { continue }
                layers[layer.name] = config.addLayer(LayerConfig(
                    name: layer.name, bus: bus, source: source, gain: Decibels(layer.gain), isLooping: layer.isLooping,
                    pitchMap: map(layer.pitch), gainMap: map(layer.gainMap)))
            }
        }

        func map(_ m: LayerMap?) -> ParameterMap? {
            guard let m, let id = config.parameter(named: m.parameter) else { return nil }
            return ParameterMap(parameter: id, points: m.points)
        }

        /// The mixer source for a reference, registering its asset once per (sound, trim).
        mutating func source(_ reference: SoundReference, normalize: Bool, seed: UInt64, user: String) -> SoundSource? {
            switch reference {
            case .synth(let synth): return .synth(synth.seeded(seed))
            case .station(let url):
                // One stream per station, however many layers and cues play it; whoever plays
                // the session connects a producer to it (CabinPlayback's RadioStations).
                if let known = stations.first(where: { $0.url == url }) { return .stream(known.id) }
                guard stations.count < CompiledSession.Station.maximumCount else {
                    warnings.append("\(user) is silent: a session plays at most \(CompiledSession.Station.maximumCount) live streams")
                    return nil
                }
                let (id, stream) = config.addStream(capacityFrames: Int(config.sampleRate * CompiledSession.Station.bufferSeconds))
                stations.append(CompiledSession.Station(url: url, id: id, stream: stream))
                return .stream(id)
            case .library, .file:
                guard let sound = sounds[reference] else {
                    let why = sounds.failures[reference.description] ?? "\(reference): not loaded"
                    warnings.append("\(user) is silent: \(why)")
                    return nil
                }
                let trim = normalize ? sound.trim : 0
                let key = "\(reference.description)|\(trim)"
                if let id = assets[key] { return .asset(id) }
                var loop: LoopPoints?
                if let s = sound.loopStart, let e = sound.loopEnd, e > s, e <= sound.frameCount {
                    loop = LoopPoints(start: s, end: e)
                }
                let id = config.addAsset(sound.samples, trim: Decibels(trim), loop: loop)
                assets[key] = id
                return .asset(id)
            }
        }
    }
}
