/// Bus insert effects: built when the mixer is made, run on the render thread between the
/// voices and the bus gains.
extension Mixer {
    /// Builds and prepares every bus's effects from their descriptions, bus after bus, and
    /// records each bus's range in `buses`.
    ///
    /// Control thread (the mixer's `init`): the only place effects allocate.
    static func makeEffects(_ config: MixerConfig, buses: UnsafeMutablePointer<BusState>)
        -> (UnsafeMutablePointer<any BusEffect>, Int)
    {
        var built: [any BusEffect] = []
        for (b, bus) in config.buses.enumerated() {
            buses[b].firstEffect = built.count
            buses[b].effectCount = bus.effects.count
            for description in bus.effects {
                let effect = description.makeEffect()
                effect.prepare(sampleRate: config.sampleRate, maximumBlockFrames: config.maxBlockFrames)
                built.append(effect)
            }
            buses[b].effectsHaveTail = bus.effects.count > 0
        }
        let table = UnsafeMutablePointer<any BusEffect>.allocate(capacity: max(1, built.count))
        table.initialize(from: built, count: built.count)
        return (table, built.count)
    }

    /// Runs each bus's effects, in order, on its buffer, when the bus sounded in this
    /// segment or an effect still has a tail; a bus with neither stays idle (its buffer is
    /// neither cleared nor summed). A bus whose voices fell silent is cleared and keeps
    /// running while its tail rings out.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func renderEffects(frameCount n: Int) {
        guard effectCount > 0 else { return }
        for b in 0..<busCount where buses[b].effectCount > 0 {
            // No `||` with `self` on its right: its autoclosure would retain `self`.
            var due = buses[b].soundingFrames > 0
            if !due { due = buses[b].effectsHaveTail }
            guard due else { continue }
            let buffer = busBuffers + b * 2 * maxBlockFrames
            if !buses[b].isBufferCleared {
                buffer.update(repeating: 0, count: 2 * n)
                buses[b].isBufferCleared = true
            }
            buses[b].effectsHaveTail = processEffects(effects + buses[b].firstEffect, buses[b].effectCount,
                                                      buffer: buffer, frameCount: n)
            buses[b].isEffectRendered = true
        }
    }

    /// The `setEffectParameter` command: effect number `effect` of `bus` moves its
    /// parameter; the bus then counts as having a tail until the effect says otherwise.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func processSetEffectParameter(bus: BusID, effect: Int32, parameter: Int32, to value: Double, frames: Int64) {
        let b = Int(bus.index), e = Int(effect)
        var valid = b >= 0
        if valid { valid = b < busCount }
        if valid { valid = e >= 0 }
        if valid { valid = e < buses[b].effectCount }
        guard valid else { invalidCount += 1; return }
        setEffectParameter(effects + buses[b].firstEffect + e, Int(parameter), value, frames)
        buses[b].effectsHaveTail = true
    }

    // The two calls into effects' code. A protocol call's callee is not known at compile
    // time (effects may come from other modules), so the compiler's `@_noAllocation
    // @_noLocks` check cannot follow it and it is excluded here; each effect's render
    // methods carry the annotations themselves, and `cabin-alloc-check` counts the mallocs
    // of a scene with an effect moving.

    // (Free functions of raw pointers: a closure capturing `self` would retain it.)
}

/// Processes `count` effects from `first` on, in order; true if any still has a tail.
private func processEffects(_ first: UnsafeMutablePointer<any BusEffect>, _ count: Int,
                            buffer: UnsafeMutablePointer<Float>, frameCount n: Int) -> Bool {
    _unsafePerformance {
        var tail = false
        for e in 0..<count {
            first[e].process(buffer, frameCount: n)
            if first[e].hasTail { tail = true }
        }
        return tail
    }
}

private func setEffectParameter(_ effect: UnsafeMutablePointer<any BusEffect>, _ parameter: Int, _ value: Double,
                                _ frames: Int64) {
    _unsafePerformance { effect.pointee.setParameter(parameter, to: value, overFrames: frames) }
}
