import CabinAudio

extension CompiledSession {
    /// The same session from `frame` on, as a session of its own that starts there: the
    /// state the timeline had reached at `frame` (which layers play, with which sound and
    /// fade level, parameter, bus and master values) is set up at its frame 0 with a short
    /// fade-in, and every later command, mark and haptic cue moves back by `frame`. Bus
    /// effects start at the values their parameters had reached (written into the config),
    /// and a move still under way goes on from there to its end.
    ///
    /// Parameters start at the values they had reached (written into the config, so nothing
    /// ramps from a stale value, and a cue due exactly at `frame` moves on from the right
    /// one), and a parameter ramp still under way goes on from there to its end.
    ///
    /// This is how a player seeks without rendering everything before the target. What it
    /// does not carry over: one-shots still ringing at `frame`, gain and fade ramps still
    /// moving (their end value is used), and where inside its loop a layer was (loops
    /// restart).
    ///
    /// Thread: pure; control thread (allocates).
    public func starting(at frame: FrameTime, fadeIn seconds: Double = 0.05) -> CompiledSession {
        let target = max(0, min(frame, durationFrames))
        var state = TimelineState(config: config)
        var later: [MixerCommand] = []
        for command in commands {
            if command.time < target { state.apply(command.action, at: command.time, until: target) } else {
                later.append(MixerCommand(at: command.time - target, command.action))
            }
        }
        var copy = self
        copy.commands = state.restoringCommands(fadeIn: config.frames(seconds))
            + state.restoringParameters(into: &copy.config, at: target)
            + state.restoringEffects(into: &copy.config, at: target) + later
        copy.marks = marks.filter { $0.frame >= target }.map { Mark(frame: $0.frame - target, name: $0.name, title: $0.title) }
        copy.haptics = haptics.filter { $0.frame >= target }.map { HapticCue(frame: $0.frame - target, pattern: $0.pattern) }
        copy.durationFrames = durationFrames - target
        // Haptic layers keep every event, earlier ones at negative frames, so a layer playing
        // at the target plays on from where its loop had got to.
        copy.hapticLayers = hapticLayers.map { layer in
            var moved = layer
            moved.events = layer.events.map { .init(frame: $0.frame - target, action: $0.action) }
            return moved
        }
        return copy
    }

    /// A parameter's value on the timeline at `frame` (a ramp still moving counts at the
    /// value it has reached).
    public func parameterValue(_ name: String, at frame: FrameTime) -> Double? {
        guard let id = config.parameter(named: name) else { return nil }
        var state = TimelineState(config: config)
        for command in commands where command.time < frame { state.apply(command.action, at: command.time, until: frame) }
        return state.parameterValue(Int(id.index), at: frame)
    }

    /// The name of the last mark at or before `frame` (the segment the session is in).
    public func mark(at frame: FrameTime) -> String? {
        marks.last { $0.frame <= frame }?.name
    }

    /// The segment the session is in at `frame` as people see it: the last mark's title, or
    /// its name when it has none.
    public func segment(at frame: FrameTime) -> String? {
        marks.last { $0.frame <= frame }?.label
    }
}

/// What the timeline's commands have set up by some frame, tracked on the control side.
struct TimelineState {
    struct LayerState {
        var isPlaying = false
        var source: SoundSource
        var bus: BusID
        var gain: Decibels
        var isLooping: Bool
        var level: Decibels = 0
    }

    var layers: [LayerState]
    /// Each parameter's initial value, and its last move.
    var parameters: [Double]
    var parameterMoves: [Int: Move] = [:]
    var busGains: [Decibels]
    var masterGain: Decibels
    var touchedBuses = Set<Int>()
    var masterTouched = false
    /// The last move of each effect parameter: (bus, effect, parameter) → move.
    var effectMoves: [[Int]: EffectMove] = [:]
    let effectStarts: [[any BusEffectDescription]]
    let minimumRampFrames: FrameTime

    /// A value moving linearly from `from` (at `start`) to `to` over `frames`.
    struct Move {
        var from: Double, to: Double
        var start: FrameTime, frames: FrameTime

        func progress(at frame: FrameTime) -> Double { frames <= 0 ? 1 : min(1, Double(frame - start) / Double(frames)) }
        func value(at frame: FrameTime) -> Double { from + (to - from) * progress(at: frame) }
    }

    /// An effect parameter moving from `from` (at `start`) to `to` over `frames`, in the
    /// effect's own way (`BusEffectDescription.interpolate`).
    struct EffectMove {
        var description: any BusEffectDescription
        var parameter: Int
        var move: Move

        func value(at frame: FrameTime) -> Double {
            description.interpolate(parameter: parameter, from: move.from, to: move.to, progress: move.progress(at: frame))
        }
    }

    init(config: MixerConfig) {
        layers = config.layers.map { LayerState(source: $0.source, bus: $0.bus, gain: $0.gain, isLooping: $0.isLooping) }
        parameters = config.parameters.map(\.value)
        busGains = config.buses.map(\.gain)
        masterGain = config.masterGain
        effectStarts = config.buses.map(\.effects)
        minimumRampFrames = max(1, config.frames(config.minimumRampDuration))
    }

    /// Applies an action issued at `time`; a ramp still running at `until` counts at the
    /// value it has reached by then.
    mutating func apply(_ action: MixerCommand.Action, at time: FrameTime, until: FrameTime) {
        switch action {
        case .startLayer(let id, _):
            layers[Int(id.index)].isPlaying = true
            layers[Int(id.index)].level = 0
        case .startLayerWith(let id, let source, let bus, let gain, let isLooping, _):
            layers[Int(id.index)] = LayerState(isPlaying: true, source: source, bus: bus, gain: gain, isLooping: isLooping)
        case .stopLayer(let id, _):
            layers[Int(id.index)].isPlaying = false
        case .fadeLayer(let id, let to, _):
            layers[Int(id.index)].level = to
        case .crossfadeLayer(let id, let to, _):
            layers[Int(id.index)].source = to
        case .setParameter(let id, let to, let over):
            let p = Int(id.index)
            parameterMoves[p] = Move(from: parameterValue(p, at: time), to: to, start: time, frames: max(over, minimumRampFrames))
        case .playOneShot:
            break
        case .setBusGain(let bus, let to, _):
            busGains[Int(bus.index)] = to
            touchedBuses.insert(Int(bus.index))
        case .setEffectParameter(let bus, let effect, let parameter, let to, let over):
            let (b, e, p) = (Int(bus.index), Int(effect), Int(parameter))
            guard b < effectStarts.count, e < effectStarts[b].count, p < effectStarts[b][e].parameters.count else { break }
            let description = effectStarts[b][e]
            let from = effectMoves[[b, e, p]]?.value(at: time) ?? description.parameters[p]
            effectMoves[[b, e, p]] = EffectMove(description: description, parameter: p,
                                                move: Move(from: from, to: to, start: time, frames: max(over, minimumRampFrames)))
        case .setMasterGain(let to, _):
            masterGain = to
            masterTouched = true
        case .stopAll:
            for i in layers.indices { layers[i].isPlaying = false }
        }
    }

    /// Parameter `p`'s value at `frame`, after the moves applied so far.
    func parameterValue(_ p: Int, at frame: FrameTime) -> Double {
        parameterMoves[p]?.value(at: frame) ?? parameters[p]
    }

    /// Writes each parameter's value at `frame` into `config` (the mixer starts there), and
    /// returns the commands that finish the ramps still under way.
    func restoringParameters(into config: inout MixerConfig, at frame: FrameTime) -> [MixerCommand] {
        var out: [MixerCommand] = []
        for p in config.parameters.indices {
            let range = config.parameters[p].range
            config.parameters[p].value = min(max(parameterValue(p, at: frame), range.lowerBound), range.upperBound)
            if let move = parameterMoves[p], move.progress(at: frame) < 1 {
                out.append(MixerCommand(at: 0, .setParameter(ParameterID(index: Int32(p)), to: move.to,
                                                             overFrames: move.start + move.frames - frame)))
            }
        }
        return out
    }

    /// Commands at frame 0 that recreate the layers, bus and master gains.
    func restoringCommands(fadeIn: FrameTime) -> [MixerCommand] {
        var out: [MixerCommand] = []
        for bus in touchedBuses.sorted() {
            out.append(MixerCommand(at: 0, .setBusGain(BusID(index: Int32(bus)), to: busGains[bus], overFrames: 0)))
        }
        if masterTouched { out.append(MixerCommand(at: 0, .setMasterGain(to: masterGain, overFrames: 0))) }
        for (i, layer) in layers.enumerated() where layer.isPlaying {
            let id = LayerID(index: Int32(i))
            out.append(MixerCommand(at: 0, .startLayerWith(id, source: layer.source, bus: layer.bus, gain: layer.gain,
                                                           isLooping: layer.isLooping, fadeInFrames: fadeIn)))
            if layer.level != 0 { out.append(MixerCommand(at: 0, .fadeLayer(id, to: layer.level, overFrames: 0))) }
        }
        return out
    }

    /// Writes each moved effect parameter's value at `frame` into `config` (the effect
    /// starts there), and returns the commands that finish the moves still under way.
    func restoringEffects(into config: inout MixerConfig, at frame: FrameTime) -> [MixerCommand] {
        var out: [MixerCommand] = []
        for (key, move) in effectMoves.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            let (b, e, p) = (key[0], key[1], key[2])
            config.buses[b].effects[e].parameters[p] = move.value(at: frame)
            if move.move.progress(at: frame) < 1 {
                out.append(MixerCommand(at: 0, .setEffectParameter(BusID(index: Int32(b)), effect: Int32(e), parameter: Int32(p),
                                                                   to: move.move.to, overFrames: move.move.start + move.move.frames - frame)))
            }
        }
        return out
    }
}
