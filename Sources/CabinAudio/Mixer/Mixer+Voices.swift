/// Voice allocation with per-bus polyphony and stealing, and the counters the control side
/// reads.
extension Mixer {
    /// A free voice slot on bus `b`, stealing if the bus is at its polyphony.
    ///
    /// The victim is the oldest voice not owned by a layer (one-shots go first), else the
    /// oldest layer voice; ties go to the quietest. It fades out over `stealFadeDuration`
    /// in a spare slot (each bus has twice its polyphony in slots). If every spare slot is
    /// still fading, the quietest fading voice is cut. Nil only if the bus has no slots.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func processAllocateVoice(bus b: Int) -> Int? {
        let bus = buses[b]
        var playing = 0, free = -1, victim = -1, fading = -1
        for s in bus.firstSlot..<(bus.firstSlot + bus.slotCount) {
            let v = voices[s]
            switch v.phase {
            case .idle:
                if free < 0 { free = s }
            case .playing:
                playing += 1
                if victim < 0 { victim = s } else if isBetterVictim(s, than: victim) { victim = s }
            case .releasing:
                if fading < 0 { fading = s } else if v.lastGain < voices[fading].lastGain { fading = s }
            }
        }
        if playing >= bus.polyphony && victim >= 0 {
            let owner = Int(voices[victim].owner)
            if owner >= 0 { layers[owner].voice = -1 }
            voices[victim].processRelease(frames: stealFrames)
            stolenCount += 1
        }
        if free >= 0 { return free }
        if fading >= 0 {
            voices[fading].phase = .idle
            return fading
        }
        droppedCount += 1
        return nil
    }

    private func isBetterVictim(_ a: Int, than b: Int) -> Bool {
        let x = voices[a], y = voices[b]
        let xLayer = x.owner >= 0, yLayer = y.owner >= 0
        if xLayer != yLayer { return !xLayer }
        if x.serial != y.serial { return x.serial < y.serial }
        return x.lastGain < y.lastGain
    }

    /// Resets slot `v` to play `source` on bus `b` from the beginning, envelope at 0.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func processStartVoice(_ v: Int, bus b: Int, source: SoundSource, gain: Double, isLooping: Bool) {
        var voice = Voice()
        voice.phase = .playing
        voice.bus = Int32(b)
        voice.serial = nextVoiceSerial
        nextVoiceSerial += 1
        voice.source = source
        voice.isLooping = isLooping
        var trim = 1.0
        switch source {
        case .asset(let id): trim = Double(context.assets[Int(id.index)].trim)
        case .synth(let synth):
            withUnsafeMutablePointer(to: &voice) { voice in
                var start = SynthStart(voice: voice, synth: synth)
                _ = SynthKinds.visit(Int(synth.kindIndex), &start)
            }
        case .stream: break
        case .scatter(let id):
            let index = Int(id.index), count = context.scatterCount
            if index >= 0, index < count {
                context.scatters[index].processRestart(serial: voice.serial, sampleRate: context.sampleRate)
            }
        }
        voice.baseGain = DecibelRamp.linear(gain) * trim
        voices[v] = voice
    }

    /// Publishes the engine clock and counters for the control side.
    ///
    /// Render thread: safe (atomic stores).
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func processPublishCounters() {
        cells.store(.lateCommands, UInt64(lateCount))
        cells.store(.invalidCommands, UInt64(invalidCount))
        cells.store(.deferredCommands, UInt64(deferredCount))
        cells.store(.stolenVoices, UInt64(stolenCount))
        cells.store(.droppedVoices, UInt64(droppedCount))
        cells.store(.activeVoices, UInt64(activeVoiceCount))
        cells.store(.limiterMinimumGain, limiter.minimumGain.bitPattern)
        cells.store(.renderedFrames, UInt64(clock))
        // Bus meters: the highest peak since the control side last read (and cleared) it.
        for b in 0..<busCount {
            let cell = cells.busMeterCell(b)
            let old = Float(bitPattern: UInt32(truncatingIfNeeded: cell.pointee.load(ordering: .relaxed)))
            if busPeaks[b] > old { cell.pointee.store(UInt64(busPeaks[b].bitPattern), ordering: .relaxed) }
            busPeaks[b] = 0
        }
    }
}
