import CabinAudio
import CabinHaptics

extension SessionCompiler.Builder {
    /// Every cue verb becomes commands at the cue's frame, in document order.
    mutating func schedule() {
        for cue in document.cues {
            let at = frames(cue.time)
            let who = "cues[\(cue.index)]"
            if let mark = cue.mark { marks.append(.init(frame: at, name: mark, title: cue.markTitle)) }
            if let pattern = cue.haptic { scheduleHaptic(pattern, at: at, who: who, bus: cue.play?.bus ?? cue.say?.bus ?? "ui") }
            for name in cue.start {
                if let i = hapticLayers.firstIndex(where: { $0.name == name }) {
                    hapticLayers[i].events.append(.init(frame: at, action: .start(fadeInFrames: frames(cue.fadeIn ?? 0))))
                }
                guard let id = layers[name] else { continue }
                add(at, .startLayer(id, fadeInFrames: frames(cue.fadeIn ?? 0)))
            }
            for name in cue.stop {
                if let i = hapticLayers.firstIndex(where: { $0.name == name }) {
                    hapticLayers[i].events.append(.init(frame: at, action: .stop(fadeOutFrames: frames(cue.fadeOut ?? 0))))
                }
                guard let id = layers[name] else { continue }
                add(at, .stopLayer(id, fadeOutFrames: frames(cue.fadeOut ?? 0)))
            }
            if let fade = cue.fade, let id = layers[fade.layer] {
                add(at, .fadeLayer(id, to: Decibels(fade.to), overFrames: frames(fade.over)))
            }
            if let x = cue.crossfade, let id = layers[x.layer],
               let source = source(x.to, normalize: true, seed: 1000 + UInt64(cue.index), user: "\(who).crossfade") {
                add(at, .crossfadeLayer(id, to: source, overFrames: frames(x.over)))
            }
            if let x = cue.hapticCrossfade, let i = hapticLayers.firstIndex(where: { $0.name == x.layer }),
               loadedPattern(x.to, who: "\(who).crossfade") != nil {
                hapticLayers[i].events.append(.init(frame: at, action: .crossfade(to: x.to, overFrames: frames(x.over))))
                if let id = layers[x.layer], let asset = hapticLoopAsset(x.to) {
                    add(at, .crossfadeLayer(id, to: .asset(asset), overFrames: frames(x.over)))
                }
            }
            if let set = cue.set, let id = config.parameter(named: set.parameter) {
                add(at, .setParameter(id, to: set.to, overFrames: frames(set.over)))
                parameterTargets[set.parameter] = set.to
            }
            if let event = cue.trigger { scheduleFocus(event, at: at, who: who) }
            if let change = cue.effect, let bus = config.bus(named: change.bus),
               let slot = document.bus(named: change.bus)?.effectIndex(change.effect),
               let parameter = DocumentEffect.named(change.effect)?.index(of: change.parameter) {
                add(at, .setEffectParameter(bus, effect: Int32(slot), parameter: Int32(parameter), to: change.to,
                                            overFrames: frames(change.over)))
            }
            if let speech = cue.say, let bus = config.bus(named: speech.bus) {
                var source: SoundSource?
                if let spoken = sounds.sounds[speech.soundKey] {
                    source = registerSpeech(spoken, key: speech.soundKey)
                } else if let fallback = speech.fallback {
                    source = self.source(fallback, normalize: true, seed: 3000 + UInt64(cue.index), user: "\(who).say fallback")
                } else {
                    let why = sounds.failures[speech.soundKey] ?? "speech synthesis is not available"
                    warnings.append("\(who).say is silent: \(why), and the cue has no fallback")
                }
                if let source {
                    add(at, .playOneShot(source, bus: bus, gain: Decibels(speech.gain)))
                    if case .asset(let id) = source {
                        lastSoundEnd = max(lastSoundEnd, at + FrameTime(config.assets[Int(id.index)].frameCount))
                    }
                }
            }
            if let play = cue.play, let bus = config.bus(named: play.bus),
               let source = source(play.sound, normalize: true, seed: 2000 + UInt64(cue.index), user: "\(who).play") {
                add(at, .playOneShot(source, bus: bus, gain: Decibels(play.gain)))
                if case .asset(let id) = source {
                    lastSoundEnd = max(lastSoundEnd, at + FrameTime(config.assets[Int(id.index)].frameCount))
                }
            }
        }
    }

    /// Registers a synthesized utterance once (its trim comes with it from the loader).
    mutating func registerSpeech(_ sound: LoadedSound, key: String) -> SoundSource {
        if let id = assets[key] { return .asset(id) }
        let id = config.addAsset(sound.samples, trim: Decibels(sound.trim))
        assets[key] = id
        return .asset(id)
    }

    /// A `haptic` verb: the cue is listed for haptic players; when its pattern is loaded, the
    /// session lasts until the pattern's audio ends, and with a haptics bus the pattern's
    /// audio plays in the mix.
    ///
    /// A pattern with its own sound (AHAP audio events) plays it as a one-shot on `bus` (the
    /// cue's `play`/`say` bus, else `ui`) from the same frame.
    mutating func scheduleHaptic(_ pattern: String, at: FrameTime, who: String, bus soundBus: String = "ui") {
        haptics.append(.init(frame: at, pattern: pattern))
        guard let compiled = resolvedHaptics.patterns[pattern] else {
            if let why = resolvedHaptics.failures[pattern] { warnings.append("\(who).haptic is silent: \(why)") }
            return
        }
        hapticPatterns[pattern] = compiled
        if let why = resolvedHaptics.audioFailures[pattern], !warnedAudio.contains(pattern) {
            warnedAudio.insert(pattern)
            warnings.append("\(who).haptic's sound is silent: \(why)")
        }
        if let sound = resolvedHaptics.audio[pattern], let bus = config.bus(named: soundBus) {
            let id = assets["haptic-audio:\(pattern)"] ?? config.addAsset(sound)
            assets["haptic-audio:\(pattern)"] = id
            add(at, .playOneShot(.asset(id), bus: bus, gain: 0))
            lastSoundEnd = max(lastSoundEnd, at + FrameTime(sound.frameCount))
        }
        guard hapticsBus != nil else {
            // Not heard: only its length counts (the session lasts until it ends).
            let frames = SessionHapticTrack.clipFrameCount(compiled, sampleRate: config.sampleRate, options: options.hapticAudio)
            lastSoundEnd = max(lastSoundEnd, at + FrameTime(frames))
            return
        }
        // Only what is heard is made: with an explicit duration, the pattern is cut at the
        // session's end (a longer cut is made if an earlier cue of it needs one).
        let full = SessionHapticTrack.clipFrameCount(compiled, sampleRate: config.sampleRate, options: options.hapticAudio)
        let heard = document.durationIsExplicit ? min(full, Int(clamping: max(0, frames(document.duration) - at))) : full
        lastSoundEnd = max(lastSoundEnd, at + FrameTime(full))
        guard let id = hapticAsset(pattern, compiled, frames: heard), let bus = hapticsBus else { return }
        add(at, .playOneShot(.asset(id), bus: bus, gain: 0))
    }

    /// The pattern rendered as audio (its first `frames`, default all), registered once as
    /// an asset for the haptics bus (again when a longer cut is needed); nil when it renders
    /// to nothing.
    mutating func hapticAsset(_ pattern: String, _ compiled: CompiledHaptics, frames heard: Int? = nil) -> AssetID? {
        let heard = heard ?? SessionHapticTrack.clipFrameCount(compiled, sampleRate: config.sampleRate,
                                                               options: options.hapticAudio)
        var clip = hapticClips[pattern] ?? []
        if hapticClips[pattern] == nil || clip.count < heard {
            clip = SessionHapticTrack.clip(compiled, sampleRate: config.sampleRate, options: options.hapticAudio,
                                           maxFrames: heard)
            hapticClips[pattern] = clip
            hapticAssets[pattern] = nil
        }
        guard !clip.isEmpty else { return nil }
        if let known = hapticAssets[pattern] { return known }
        let id = config.addAsset(AudioBuffer(samples: clip, channelCount: 1, sampleRate: config.sampleRate))
        hapticAssets[pattern] = id
        return id
    }

    mutating func add(_ frame: FrameTime, _ action: MixerCommand.Action) {
        commands.append(MixerCommand(at: frame, action))
    }

    mutating func finish() -> CompiledSession {
        var end = frames(document.duration)
        if !document.durationIsExplicit { end = max(end, lastSoundEnd) }
        let fade = min(frames(SessionCompiler.endFadeDuration), end)
        add(end - fade, .stopAll(fadeOutFrames: fade))
        // Stable sort by frame keeps document order for commands at the same frame.
        let sorted = commands.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map { $0.element }
        var compiled = CompiledSession(title: document.title, sampleRate: config.sampleRate, config: config, commands: sorted,
                                       marks: marks, haptics: haptics, hapticPatterns: hapticPatterns,
                                       durationFrames: end, warnings: warnings, stations: stations)
        compiled.loudness = loudness
        compiled.hapticLayers = hapticLayers
        compiled.focus = focus
        return compiled
    }
}
