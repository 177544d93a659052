/// The scatter source (`ScatterConfig`): a voice that plays its scatter's one-shots as they
/// fall due, summed, then through the voice's gain like any source.
extension Voice {
    /// The scatter kernel: per frame, starts the event that falls due, adds every sound
    /// playing (cubic-Hermite read at its pitch, with its gain and pan), and emits the sum.
    /// Per-frame state only, so the output does not depend on block size.
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func renderScatter(_ id: ScatterID, into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                                _ m: Modulation, _ c: VoiceRenderContext) -> Int {
        let index = Int(id.index)
        guard index >= 0 && index < c.scatterCount else { return stop(at: 0) }
        let slot = c.scatters + index
        // Grains that may sound this frame; while none does (most of the time: the pieces
        // are far apart), a frame is silence and skips the grains and the map's gain.
        var active = Voice.countGrains(slot)
        for i in 0..<frameCount {
            if slot.pointee.countdown <= 0 {
                Voice.processEvent(slot, c)
                slot.pointee.countdown = slot.pointee.processGap(sampleRate: c.sampleRate)
                active = Voice.countGrains(slot)
            }
            slot.pointee.countdown -= 1
            if active == 0 {
                if emitSilence(at: i, into: bus, m, isLast: i == frameCount - 1) { return stop(at: i + 1) }
                continue
            }
            var left: Float = 0, right: Float = 0
            var playing = 0
            for g in 0..<ScatterConfig.maximumOverlap {
                let grain = slot.pointee.grains + g
                guard grain.pointee.asset >= 0 else { continue }
                let a = c.assets[Int(grain.pointee.asset)]
                let ready = a.ready.pointee.load(ordering: .relaxed)
                if grain.pointee.position >= Double(a.frameCount) {
                    grain.pointee.asset = -1
                    continue
                }
                let (l, r): (Float, Float)
                if a.isInt16 {
                    let reader = AssetReader(samples: a.samples.assumingMemoryBound(to: Int16.self), slot: a, ready: ready)
                    (l, r) = Voice.read(reader, at: grain.pointee.position, looping: false, wrapped: false)
                } else {
                    let reader = AssetReader(samples: a.samples.assumingMemoryBound(to: Float.self), slot: a, ready: ready)
                    (l, r) = Voice.read(reader, at: grain.pointee.position, looping: false, wrapped: false)
                }
                // 10 ms linear fades at both ends: a sound cut from a loop starts and ends
                // without a step.
                let pos = grain.pointee.position
                let edge = Float(min(1, min(pos, Double(a.frameCount) - pos) * c.scatterFadeRate))
                left += l * grain.pointee.gainLeft * edge
                right += r * grain.pointee.gainRight * edge
                grain.pointee.position += grain.pointee.step
                playing += 1
            }
            active = playing
            if emit(left, right, at: i, into: bus, m) { return stop(at: i + 1) }
        }
        return frameCount
    }

    /// How many grains of `slot` hold a sound. Render thread: safe.
    @inline(__always)
    static func countGrains(_ slot: UnsafeMutablePointer<ScatterTable.Slot>) -> Int {
        var n = 0
        for g in 0..<ScatterConfig.maximumOverlap where slot.pointee.grains[g].asset >= 0 { n += 1 }
        return n
    }

    /// `emit(0, 0, at: i, …)`, bit for bit, without the gain map's exponential on every
    /// frame: zero times the gain adds a zero of the gain's sign, which the product of the
    /// voice's own ramps already has (a map's gain is never negative). The full gain is
    /// worked out where `lastGain` is read: at the call's last frame and at the end of a
    /// release. Render thread: safe.
    @inline(__always)
    mutating func emitSilence(at i: Int, into bus: UnsafeMutablePointer<Float>, _ m: Modulation, isLast: Bool) -> Bool {
        if m.hasFixedGain {
            let zero: Float = 0 * m.fixedGain
            bus[2 * i] += zero
            bus[2 * i + 1] += zero
            return false
        }
        let partial = baseGain * level.next() * envelope.next()
        let ends = phase == .releasing && !envelope.isActive
        var zero: Float = 0 * Float(partial)
        if isLast || ends {
            let gain = partial * m.gain(i)
            lastGain = gain
            zero = 0 * Float(gain)
        }
        bus[2 * i] += zero
        bus[2 * i + 1] += zero
        return ends
    }

    /// Draws one event (sound, gain, pan, pitch) and starts it in a free grain. The draws
    /// happen whether or not a grain is free, so a skipped event leaves the sequence as it
    /// was. Render thread: safe.
    @inline(__always)
    static func processEvent(_ slot: UnsafeMutablePointer<ScatterTable.Slot>, _ c: VoiceRenderContext) {
        let n = slot.pointee.soundCount
        var pick: Int
        if n > 1 && slot.pointee.last >= 0 {
            pick = Int(slot.pointee.random.next() % UInt64(n - 1))
            if pick >= slot.pointee.last { pick += 1 }
        } else {
            pick = Int(slot.pointee.random.next() % UInt64(n))
        }
        let db = slot.pointee.random.uniform(slot.pointee.gain)
        let pan = slot.pointee.random.uniform(slot.pointee.pan)
        let semitones = slot.pointee.random.uniform(slot.pointee.pitch)
        slot.pointee.last = pick
        let asset = Int(slot.pointee.sounds[pick])
        guard asset >= 0 && asset < c.assetCount else { return }
        for g in 0..<ScatterConfig.maximumOverlap where slot.pointee.grains[g].asset < 0 {
            let a = c.assets[asset]
            // Equal-power pan, unity in the centre (as a centred one-shot plays).
            let angle = (pan + 1) * Double.pi / 4  // 0 … π/2
            let gain = MixerMath.gain(decibels: db) * Double(a.trim) * 1.4142135623730951
            slot.pointee.grains[g] = ScatterTable.Grain(
                asset: Int32(asset), position: 0, step: min(64, a.baseRate * MixerMath.exp(semitones * 0.057762265046662105)),
                gainLeft: Float(gain * MixerMath.sine(angle + Double.pi / 2)), gainRight: Float(gain * MixerMath.sine(angle)))
            return
        }
    }
}
