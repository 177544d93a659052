/// Receiving commands and live parameters on the audio thread, and acting on them.
extension Mixer {
    /// Reads the live parameters and the listener's volumes if their generation moved,
    /// ramping each changed one.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func processLiveParameters() {
        let generation = cells.generation
        guard generation != liveGeneration else { return }
        liveGeneration = generation
        for p in 0..<parameterCount {
            let value = parameters[p].clamped(cells.parameter(p))
            if value != parameters[p].ramp.target {
                parameters[p].ramp.start(to: value, frames: liveRampFrames)
            }
        }
        for b in 0..<busCount {
            let volume = max(cells.volume(b), DecibelRamp.floor)
            if volume != buses[b].volume.targetDecibels { buses[b].volume.start(to: volume, frames: liveRampFrames) }
        }
        let volume = max(cells.volume(busCount), DecibelRamp.floor)
        if volume != masterVolume.targetDecibels { masterVolume.start(to: volume, frames: liveRampFrames) }
    }

    /// Moves commands from the ring into the pending queue while it has room.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func processCommandRing() {
        while !pending.isFull {
            guard let command = ring.pop() else { return }
            _ = pending.push(command)
        }
        if ring.count > 0 { deferredCount += 1 }
    }

    /// Applies every pending command due at or before the clock.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func processDueCommands() {
        while let time = pending.nextTime, time <= clock {
            guard let command = pending.pop() else { return }
            if time < clock { lateCount += 1 }
            process(command.action)
        }
    }

    /// A ramp length: at least the minimum ramp (a step in gain is a click).
    @inline(__always) func ramp(_ frames: Int64) -> Int64 { max(frames, minimumRampFrames) }

    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func process(_ action: MixerCommand.Action) {
        switch action {
        case .startLayer(let id, let fadeIn):
            guard let l = layerIndex(id) else { return }
            let layer = layers[l]
            processStartLayer(l, source: layer.source, gain: layer.gain, isLooping: layer.isLooping,
                       fadeIn: ramp(fadeIn), shape: .linear)
        case .startLayerWith(let id, let source, let bus, let gain, let isLooping, let fadeIn):
            guard let l = layerIndex(id), isValid(source) else { return }
            guard isIndex(Int(bus.index), busCount) else { invalidCount += 1; return }
            layers[l].bus = bus.index
            layers[l].source = source
            layers[l].gain = gain.value
            layers[l].isLooping = isLooping
            processStartLayer(l, source: source, gain: gain.value, isLooping: isLooping,
                       fadeIn: ramp(fadeIn), shape: .linear)
        case .stopLayer(let id, let fadeOut):
            guard let l = layerIndex(id) else { return }
            let v = Int(layers[l].voice)
            if v >= 0 { voices[v].processRelease(frames: ramp(fadeOut)) }
            layers[l].voice = -1
        case .fadeLayer(let id, let to, let over):
            guard let l = layerIndex(id) else { return }
            let v = Int(layers[l].voice)
            if v >= 0 { voices[v].level.start(to: to.value, frames: ramp(over)) }
        case .crossfadeLayer(let id, let to, let over):
            guard let l = layerIndex(id), isValid(to) else { return }
            layers[l].source = to
            let layer = layers[l]
            let old = Int(layer.voice)
            let level = old >= 0 ? voices[old].level.decibels : 0
            if old >= 0 { voices[old].processRelease(frames: ramp(over), shape: .equalPowerOut) }
            layers[l].voice = -1
            processStartLayer(l, source: to, gain: layer.gain, isLooping: layer.isLooping,
                       fadeIn: ramp(over), shape: .equalPowerIn, level: level)
        case .setParameter(let id, let to, let over):
            let p = Int(id.index)
            guard isIndex(p, parameterCount) else { invalidCount += 1; return }
            parameters[p].ramp.start(to: parameters[p].clamped(to), frames: ramp(over))
        case .playOneShot(let source, let bus, let gain):
            let b = Int(bus.index)
            guard isIndex(b, busCount) else { invalidCount += 1; return }
            guard isValid(source) else { return }
            guard let v = processAllocateVoice(bus: b) else { return }
            processStartVoice(v, bus: b, source: source, gain: gain.value, isLooping: false)
            voices[v].envelope.set(1)
        case .setBusGain(let bus, let to, let over):
            let b = Int(bus.index)
            guard isIndex(b, busCount) else { invalidCount += 1; return }
            buses[b].gain.start(to: to.value, frames: ramp(over))
        case .setEffectParameter(let bus, let effect, let parameter, let to, let over):
            processSetEffectParameter(bus: bus, effect: effect, parameter: parameter, to: to, frames: ramp(over))
        case .setMasterGain(let to, let over):
            master.start(to: to.value, frames: ramp(over))
        case .stopAll(let fadeOut):
            for v in 0..<voiceCount where voices[v].phase == .playing {
                voices[v].processRelease(frames: ramp(fadeOut))
            }
            for l in 0..<layerCount { layers[l].voice = -1 }
        }
    }

    private func layerIndex(_ id: LayerID) -> Int? {
        let l = Int(id.index)
        // No `&&` with `self` on its right: its autoclosure would retain `self`.
        var valid = l >= 0
        if valid { valid = l < layerCount }
        if valid { valid = layers[l].bus >= 0 }
        if valid { valid = Int(layers[l].bus) < busCount }
        if !valid { invalidCount += 1 }
        return valid ? l : nil
    }

    /// Whether `source` names a registered asset or stream, or a kind in the table.
    private func isValid(_ source: SoundSource) -> Bool {
        var valid: Bool
        switch source {
        case .asset(let id): valid = isIndex(Int(id.index), context.assetCount)
        case .stream(let id): valid = isIndex(Int(id.index), context.streamCount)
        case .scatter(let id): valid = isIndex(Int(id.index), context.scatterCount)
        case .synth(let synth):
            var exists = SynthExists()
            valid = SynthKinds.visit(Int(synth.kindIndex), &exists) != nil
        }
        if !valid { invalidCount += 1 }
        return valid
    }

    /// (Re)starts layer `l`: a voice already playing it fades out as the new one fades in.
    private func processStartLayer(_ l: Int, source: SoundSource, gain: Double, isLooping: Bool,
                            fadeIn: Int64, shape: Ramp.Shape, level: Double = 0) {
        let old = Int(layers[l].voice)
        if old >= 0 { voices[old].processRelease(frames: fadeIn, shape: shape == .linear ? .linear : .equalPowerOut) }
        layers[l].voice = -1
        let b = Int(layers[l].bus)
        guard let v = processAllocateVoice(bus: b) else { return }
        processStartVoice(v, bus: b, source: source, gain: gain, isLooping: isLooping)
        voices[v].owner = Int32(l)
        voices[v].mapLayer = Int32(l)
        voices[v].level = DecibelRamp(level)
        voices[v].envelope.start(to: 1, frames: fadeIn, shape: shape)
        layers[l].voice = Int32(v)
    }
}

/// 0 ≤ index < count. (A function rather than `&&` with a property on its right, whose
/// autoclosure would capture and retain `self`; free, since naming the `Mixer` type in a
/// static call trips the metadata check.)
@inline(__always) private func isIndex(_ index: Int, _ count: Int) -> Bool { index >= 0 && index < count }
