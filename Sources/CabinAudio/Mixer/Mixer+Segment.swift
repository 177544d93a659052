/// Rendering one segment: a run of frames with no command inside it.
extension Mixer {
    /// Renders `n` frames (≤ `maxBlockFrames`) of interleaved stereo into `out`.
    ///
    /// Order per segment: parameter rows, stream snapshots, voices into bus buffers, streams
    /// moved on, bus effects, duck gains, band ducks' cuts on their buses, buses into the mix with their gains and volumes, master gain and volume and
    /// limiter into `out`. Every stage evolves
    /// per sample, so where the segment starts and ends does not change any sample.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func renderSegment(into out: UnsafeMutablePointer<Float>, frameCount n: Int) {
        renderParameters(frameCount: n)
        renderStreamSnapshots()
        renderVoices(frameCount: n)
        renderStreamAdvance()
        renderEffects(frameCount: n)
        renderDucking(frameCount: n)
        renderBandDucks(frameCount: n)
        renderBuses(frameCount: n)
        renderMaster(into: out, frameCount: n)
    }

    /// Fills each moving parameter's row with its per-frame values.
    private func renderParameters(frameCount n: Int) {
        for p in 0..<parameterCount {
            let row = parameterValues + p * maxBlockFrames
            if parameters[p].ramp.isActive {
                parameterMoving[p] = true
                for i in 0..<n { row[i] = parameters[p].ramp.next() }
            } else {
                parameterMoving[p] = false
                row[0] = parameters[p].ramp.value
            }
        }
    }

    /// Renders every voice into its bus buffer and notes how long each bus sounded.
    ///
    /// A bus buffer is cleared when its first voice of the segment is about to render, so
    /// idle buses cost nothing; `renderBuses` reads only buses that sounded (and so were
    /// cleared). Also counts the voices still active afterwards, for the published counters.
    private func renderVoices(frameCount n: Int) {
        for b in 0..<busCount {
            buses[b].soundingFrames = 0
            buses[b].isBufferCleared = false
            buses[b].isEffectRendered = false
        }
        var active = 0
        for s in 0..<voiceCount where voices[s].phase != .idle {
            // Through a pointer, so the voice is rendered in place, never copied.
            let voice = voices + s
            let b = Int(voice.pointee.bus)
            let owner = Int(voice.pointee.owner)
            let buffer = busBuffers + b * 2 * maxBlockFrames
            if !buses[b].isBufferCleared {
                buffer.update(repeating: 0, count: 2 * n)
                buses[b].isBufferCleared = true
            }
            let sounded = voice.pointee.render(into: buffer, frameCount: n, context: context)
            if voice.pointee.phase == .idle {
                if owner >= 0, layers[owner].voice == Int32(s) { layers[owner].voice = -1 }
            } else {
                active += 1
            }
            buses[b].soundingFrames = max(buses[b].soundingFrames, sounded)
        }
        activeVoiceCount = active
    }

    /// Moves each ducking rule's dB per frame (towards its depth while its `when` bus
    /// sounds, back towards 0 otherwise) and stores the per-frame linear gains.
    ///
    /// A rule at rest (already at the target it keeps for the whole segment) stores only
    /// `row[0]` and is marked not moving: the per-frame loop would write that same value on
    /// every frame and leave the rule unchanged.
    private func renderDucking(frameCount n: Int) {
        for r in 0..<duckCount {
            let row = duckGains + r * maxBlockFrames
            var d = ducks[r]
            let sounding = buses[d.when].soundingFrames
            if (sounding == 0 && d.decibels == 0) || (sounding >= n && d.decibels == d.depth) {
                duckMoving[r] = false
                row[0] = Float(d.gain)
                continue
            }
            duckMoving[r] = true
            for i in 0..<n {
                let target = i < sounding ? d.depth : 0
                if d.decibels != target {
                    d.decibels = target < d.decibels
                        ? max(target, d.decibels - d.attackStep)
                        : min(target, d.decibels + d.releaseStep)
                    d.gain = d.decibels == 0 ? 1 : d.decibels == d.depth ? d.depthGain
                        : DecibelRamp.linear(d.decibels)
                }
                row[i] = Float(d.gain)
            }
            ducks[r] = d
        }
    }

    /// Runs each band rule's bell cut on its bus, in place: `y = x + (g − 1)·(x − A(x))/2`
    /// per sample, `g` the rule's duck gain for that frame, `A` the all-pass. It runs while
    /// the bus sounds (or its effects ran) or the all-pass still rings — at rest too (`g` = 1
    /// passes `x` bit for bit), so the state is the same whatever the segments — and each
    /// channel's state below 1e-15 is set to zero on the sample, so a silent bus goes idle.
    private func renderBandDucks(frameCount n: Int) {
        for k in 0..<bandDuckCount {
            let b = bandDucks[k].bus, r = bandDucks[k].rule
            var due = buses[b].soundingFrames > 0
            if !due { due = buses[b].isEffectRendered }
            if !due { due = bandDucks[k].hasState }
            guard due else { continue }
            let buffer = busBuffers + b * 2 * maxBlockFrames
            if !buses[b].isBufferCleared {
                buffer.update(repeating: 0, count: 2 * n)
                buses[b].isBufferCleared = true
            }
            var cut = bandDucks[k]
            let row = duckGains + r * maxBlockFrames
            let moving = duckMoving[r]
            for i in 0..<n {
                let half = 0.5 * (Double(row[moving ? i : 0]) - 1)
                let xl = Double(buffer[2 * i]), xr = Double(buffer[2 * i + 1])
                let al = cut.left.process(xl), ar = cut.right.process(xr)
                cut.left.flush(below: 1e-15)
                cut.right.flush(below: 1e-15)
                if half != 0 {
                    buffer[2 * i] = Float(xl + half * (xl - al))
                    buffer[2 * i + 1] = Float(xr + half * (xr - ar))
                }
            }
            bandDucks[k] = cut
            buses[b].isEffectRendered = true
        }
    }

    /// Sums the buses into the mix buffer, each with its gain ramp and duck gains.
    ///
    /// A bus that did not sound (no voice, no effect tail) only advances its gain ramp. When neither its gain nor any
    /// duck rule on it moves during the segment, its per-frame gain is one constant — the
    /// same product, in the same order, that the per-frame loop forms on every frame — so the
    /// block is summed in one vectorized pass with identical samples.
    private func renderBuses(frameCount n: Int) {
        mixBuffer.update(repeating: 0, count: 2 * n)
        for b in 0..<busCount {
            if buses[b].soundingFrames == 0, !buses[b].isEffectRendered {
                buses[b].gain.advance(by: n)
                buses[b].volume.advance(by: n)
                continue
            }
            let buffer = busBuffers + b * 2 * maxBlockFrames
            var ducked = false, duckMoves = false
            for r in 0..<duckCount where duckAffects[r * busCount + b] {
                ducked = true
                if duckMoving[r] { duckMoves = true }
            }
            var peak: Float = 0
            // The volume is 1 unless the listener set one: multiplying by it changes no bit.
            // (No `&&` with `self` on its right: its autoclosure would retain `self`.)
            let bus = buses[b]
            if !bus.gain.isActive && !bus.volume.isActive && !duckMoves {
                var g = Float(buses[b].gain.gain * buses[b].volume.gain)
                if ducked {
                    for r in 0..<duckCount where duckAffects[r * busCount + b] { g *= duckGains[r * maxBlockFrames] }
                }
                peak = BlockMath.accumulate(buffer, scaledBy: g, into: mixBuffer, count: 2 * n)
            } else {
                for i in 0..<n {
                    var g = Float(buses[b].gain.next() * buses[b].volume.next())
                    if ducked {
                        for r in 0..<duckCount where duckAffects[r * busCount + b] {
                            g *= duckGains[r * maxBlockFrames + (duckMoving[r] ? i : 0)]
                        }
                    }
                    let l = buffer[2 * i] * g, r = buffer[2 * i + 1] * g
                    mixBuffer[2 * i] += l
                    mixBuffer[2 * i + 1] += r
                    peak = max(peak, max(abs(l), abs(r)))
                }
            }
            busPeaks[b] = max(busPeaks[b], peak)
        }
    }

    /// Applies the master gain and volume, then the limiter (or copies the plain sum).
    private func renderMaster(into out: UnsafeMutablePointer<Float>, frameCount n: Int) {
        let gain = master, volume = masterVolume
        let masterActive = gain.isActive || volume.isActive, masterGain = gain.gain * volume.gain
        if masterActive || masterGain != 1 {
            for i in 0..<n {
                let g = Float(master.next() * masterVolume.next())
                mixBuffer[2 * i] *= g
                mixBuffer[2 * i + 1] *= g
            }
        }
        if isLimiterEnabled {
            limiter.process(mixBuffer, into: out, frameCount: n)
        } else {
            for i in 0..<(2 * n) { out[i] = mixBuffer[i] }
        }
    }
}
