import CabinAudio
import CabinHaptics

/// Turns a valid `SessionDocument` plus its loaded sounds into a `CompiledSession`: every
/// time becomes a frame index at the session's rate, every name an ID.
///
/// Synthesized noises and scatters are seeded from the layer's position (or the cue's),
/// mixed with the document's `seed` (or the options'), so the same document and seed always
/// render the same samples, and another seed other ones.
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
    /// Seconds of the fade that ends every session at its `duration` (20 ms).
    public static let endFadeDuration = 0.02

    /// Compiles `document` at `sampleRate` (Hz) for a mixer rendering blocks of at most
    /// `maxBlockFrames`. A sound or pattern that did not load (`ResolvedSounds.failures`,
    /// `ResolvedHaptics.failures`) silences what uses it, with a line in the result's
    /// `warnings`; nothing throws.
    public static func compile(_ document: SessionDocument, sounds: ResolvedSounds,
                               haptics: ResolvedHaptics = ResolvedHaptics(), sampleRate: Double,
                               maxBlockFrames: Int = 512, options: SessionCompileOptions = .init()) -> CompiledSession {
        var builder = Builder(document: document, sounds: sounds,
                              config: MixerConfig(sampleRate: sampleRate, maxBlockFrames: maxBlockFrames, buses: []))
        builder.resolvedHaptics = haptics
        builder.options = options
        builder.declare()
        builder.planLoudness()
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
        var loudness: CompiledSession.LoudnessPlan?
        var hapticLayers: [CompiledHapticLayer] = []
        /// Patterns whose sound failed to load, warned about once.
        var warnedAudio = Set<String>()
        var focus: CompiledFocus?
        /// The value `return-focus` brings the focus parameter back to (set by `leave-focus`).
        var focusReturnValue: Double?
        /// The latest `set` target of each parameter, as the cues are scheduled in time order.
        var parameterTargets: [String: Double] = [:]

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
                let effects = bus.effects.compactMap { e in DocumentEffect.named(e.key).map { $0.make(e.values) } }
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
                                                  releaseDuration: rule.release, band: rule.band))
            }
            for (index, layer) in document.layers.enumerated() {
                let user = "layer \"\(layer.name)\""
                let made = layer.scatter.map { scatterSource($0, normalize: layer.normalize, seed: 5000 + UInt64(index), user: user) }
                    ?? source(layer.sound, normalize: layer.normalize, seed: UInt64(index + 1), user: user)
                guard let source = made,
                      let bus = config.bus(named: layer.bus) else { continue }
                layers[layer.name] = config.addLayer(LayerConfig(
                    name: layer.name, bus: bus, source: source, gain: Decibels(layer.gain), isLooping: layer.isLooping,
                    pitchMap: map(layer.pitch), gainMap: map(layer.gainMap)))
            }
            for layer in document.hapticLayers {
                guard loadedPattern(layer.pattern, who: "layer \"\(layer.name)\"") != nil else { continue }
                hapticLayers.append(CompiledHapticLayer(name: layer.name, pattern: layer.pattern, isLooping: layer.isLooping,
                                                        intensity: layer.intensity, sharpness: layer.sharpness, events: []))
                declareHapticLayerAudio(layer)
            }
            declareFocus()
        }

        /// A pattern the session uses, kept in `hapticPatterns`; nil (with a warning for
        /// `who`) when it did not load.
        mutating func loadedPattern(_ pattern: String, who: String) -> CompiledHaptics? {
            guard let compiled = resolvedHaptics.patterns[pattern] else {
                if let why = resolvedHaptics.failures[pattern] { warnings.append("\(who) is silent: \(why)") }
                return nil
            }
            hapticPatterns[pattern] = compiled
            return compiled
        }

        /// Sets the master gain from the loudness target (the options', else the
        /// document's), or from the options' explicit master gain.
        mutating func planLoudness() {
            if let gain = options.masterGain {
                config.masterGain = Decibels(gain)
                return
            }
            let target: Double?
            switch options.loudness {
            case .document: target = document.loudness
            case .target(let lufs): target = lufs
            case .off: target = nil
            }
            guard let target else { return }
            let sounds = self.sounds, rate = config.sampleRate
            let estimate = SessionLoudness.estimate(document, referenceLoudness: sounds.referenceLoudness) { reference, normalize in
                if case .synth(let synth) = reference {
                    return .init(loudness: sounds.synthLoudness[synth.documentText] ?? SessionLoudness.nominalSynthLoudness,
                                 duration: 0)
                }
                guard let sound = sounds[reference] else { return nil }
                return .init(loudness: sound.loudness.map { $0 + (normalize ? sound.trim : 0) },
                             duration: Double(sound.frameCount) / rate)
            }
            let gain = SessionLoudness.masterGain(target: target, estimate: estimate)
            config.masterGain = Decibels(gain)
            loudness = .init(target: target, estimate: estimate, masterGain: gain)
        }

        func map(_ m: LayerMap?) -> ParameterMap? {
            guard let m, let id = config.parameter(named: m.parameter) else { return nil }
            return ParameterMap(parameter: id, points: m.points)
        }

        /// The session's seed: the options', else the document's (0: seeds by position).
        var sessionSeed: UInt64 { options.seed ?? document.seed }

        /// `seed` (a position) mixed with the session's seed; the position alone when that is 0.
        func mixed(_ seed: UInt64) -> UInt64 {
            guard sessionSeed != 0 else { return seed }
            var z = sessionSeed &+ seed &* 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A scatter layer's source: its sounds registered as assets, then the scatter.
        mutating func scatterSource(_ scatter: Scatter, normalize: Bool, seed: UInt64, user: String) -> SoundSource? {
            var ids: [AssetID] = []
            for sound in scatter.sounds {
                if case .asset(let id)? = source(sound, normalize: normalize, seed: 0, user: user) { ids.append(id) }
            }
            guard !ids.isEmpty else { return nil }
            return .scatter(config.addScatter(ScatterConfig(sounds: ids, eventsPerMinute: scatter.rate, gain: scatter.gain,
                                                            pan: scatter.pan, pitch: scatter.pitch, spacing: scatter.spacing,
                                                            seed: mixed(seed))))
        }

        /// The mixer source for a reference, registering its asset once per (sound, trim).
        mutating func source(_ reference: SoundReference, normalize: Bool, seed: UInt64, user: String) -> SoundSource? {
            switch reference {
            case .synth(let synth): return .synth(synth.seeded(mixed(seed)))
            case .station(let url):
                // One stream per station, however many layers and cues play it; whoever plays
                // the session connects a producer to it (the radio, RadioStations).
                if let known = stations.first(where: { $0.url == url }) { return .stream(known.id) }
                guard stations.count < CompiledSession.Station.maximumCount else {
                    warnings.append("\(user) is silent: a session plays at most \(CompiledSession.Station.maximumCount) live streams")
                    return nil
                }
                let (id, stream) = config.addStream(capacityFrames: Int(config.sampleRate * CompiledSession.Station.bufferSeconds))
                stations.append(CompiledSession.Station(url: url, id: id, stream: stream))
                return .stream(id)
            case .playlist(let path):
                // One stream per playlist; the radio's PlaylistStation decodes its tracks into it.
                if let known = stations.first(where: { $0.url == path }) { return .stream(known.id) }
                guard stations.count < CompiledSession.Station.maximumCount else {
                    warnings.append("\(user) is silent: a session plays at most \(CompiledSession.Station.maximumCount) live streams and playlists")
                    return nil
                }
                let layer = document.layers.first { $0.sound == reference }
                var options = layer?.playlist ?? PlaylistOptions()
                options.repeats = layer?.isLooping ?? false
                options.seed = mixed(7000 + UInt64(document.layers.firstIndex { $0.sound == reference } ?? 0))
                let (id, stream) = config.addStream(capacityFrames: Int(config.sampleRate * CompiledSession.Station.bufferSeconds))
                stations.append(CompiledSession.Station(url: path, id: id, stream: stream, playlist: options))
                return .stream(id)
            case .generated(let name):
                // One stream per generator; the radio's GeneratedStation composes into it.
                let key = reference.description
                if let known = stations.first(where: { $0.url == key }) { return .stream(known.id) }
                guard stations.count < CompiledSession.Station.maximumCount else {
                    warnings.append("\(user) is silent: a session plays at most \(CompiledSession.Station.maximumCount) streams")
                    return nil
                }
                let position = UInt64(document.layers.firstIndex { $0.sound == reference } ?? 0)
                let (id, stream) = config.addStream(capacityFrames: Int(config.sampleRate * CompiledSession.Station.generatedBufferSeconds))
                stations.append(CompiledSession.Station(url: key, id: id, stream: stream,
                                                        generator: .init(name: name, seed: mixed(7100 + position))))
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
