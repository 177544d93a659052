/// The per-voice render entry: works out the voice's gain and pitch for the call, then runs
/// the kernel of its source (`Voice+Asset`, the kinds in `SynthKinds`, `Voice+Stream`), which
/// adds what it plays into a bus buffer through `emit`.
///
/// Everything evolves per sample from the voice's own state, so the output does not depend
/// on where blocks are cut.
extension Voice {
    /// Adds `frameCount` frames of this voice into interleaved stereo `bus` and returns the
    /// number of frames it sounded: `frameCount`, or fewer if it ended (then it is idle).
    ///
    /// Render thread: safe (no allocation, no locks).
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func render(into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                         context c: VoiceRenderContext) -> Int {
        var m = modulation(context: c, frameCount: frameCount)
        // While nothing moves the gain (no ramp, no moving gain map, not fading out), it is
        // the same product for every frame: computed once, bit-identical to per frame.
        if phase == .playing && !level.isActive && !envelope.isActive && m.gains == nil {
            let gain = baseGain * level.gain * envelope.value * m.gainConstant
            lastGain = gain
            m.fixedGain = Float(gain)
            m.hasFixedGain = true
        }
        // One kernel per kind of source, chosen once per call: the per-sample loops are the
        // kernels' own, with no switch in them.
        switch source {
        case .asset(let id):
            return renderAsset(id, into: bus, frameCount: frameCount, m, c)
        case .synth(let synth):
            let sounded = withUnsafeMutablePointer(to: &self) { voice in
                var kernel = SynthRender(voice: voice, synth: synth, bus: bus, frameCount: frameCount,
                                         modulation: m, context: c)
                return SynthKinds.visit(Int(synth.kindIndex), &kernel)
            }
            return sounded ?? stop(at: 0)
        case .stream(let id):
            return renderStream(id, into: bus, frameCount: frameCount, m, c)
        case .scatter(let id):
            return renderScatter(id, into: bus, frameCount: frameCount, m, c)
        }
    }

    /// Applies this frame's gain to (left, right), adds it into the bus, and tells whether
    /// the voice has just finished fading out.
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func emit(_ left: Float, _ right: Float, at i: Int, into bus: UnsafeMutablePointer<Float>,
                       _ m: Modulation) -> Bool {
        if m.hasFixedGain {
            bus[2 * i] += left * m.fixedGain
            bus[2 * i + 1] += right * m.fixedGain
            return false
        }
        let gain = baseGain * level.next() * envelope.next() * m.gain(i)
        lastGain = gain
        let g = Float(gain)
        bus[2 * i] += left * g
        bus[2 * i + 1] += right * g
        return phase == .releasing && !envelope.isActive
    }

    /// The pitch ratio and map gain for each frame of the segment: constants, unless the
    /// parameter behind a map moves during the segment.
    ///
    /// Thread: render thread only.
    struct Modulation {
        /// The pitch map's ratio for each frame of the call, worked out block-wise
        /// (`ParameterMap.evaluate(_:count:row:…)`) while the parameter behind it moves.
        var pitches: UnsafeMutablePointer<Double>?
        var pitchConstant = 1.0
        /// The gain map's linear gain for each frame of the call, worked out block-wise
        /// (`Voice.mapGains`) while the parameter behind it moves.
        var gains: UnsafeMutablePointer<Double>?
        var gainConstant = 1.0
        /// Set when the voice's gain is the same for every frame of the call.
        var hasFixedGain = false
        var fixedGain: Float = 0

        @inline(__always) func pitch(_ i: Int) -> Double {
            guard let pitches else { return pitchConstant }
            return pitches[i]
        }

        @inline(__always) func gain(_ i: Int) -> Double {
            guard let gains else { return gainConstant }
            return gains[i]
        }
    }

    private func modulation(context c: VoiceRenderContext, frameCount: Int) -> Modulation {
        var m = Modulation()
        guard mapLayer >= 0 else { return m }
        let maps = c.layerMaps[Int(mapLayer)]
        if let r = Self.read(maps.pitchParameter, offset: maps.pitchOffset, count: maps.pitchCount, c) {
            if let row = r.row {
                m.pitches = c.pitchScratch
                ParameterMap.evaluate(r.points, count: r.count, row: row, frameCount: frameCount, into: c.pitchScratch)
            } else {
                m.pitchConstant = r.value
            }
        }
        if let r = Self.read(maps.gainParameter, offset: maps.gainOffset, count: maps.gainCount, c) {
            if let row = r.row {
                m.gains = c.gainScratch
                Self.mapGains(points: r.points, count: r.count, row: row, frameCount: frameCount, into: c.gainScratch)
            } else {
                m.gainConstant = DecibelRamp.linear(r.value)
            }
        }
        return m
    }

    /// `DecibelRamp.linear(ParameterMap.evaluate(points, count:, at: row[i]))` for each frame:
    /// the map's decibels frame by frame, then their linear gains four at a time
    /// (`MixerMath.exp` on SIMD lanes does the scalar arithmetic on each lane, so every gain
    /// is the scalar one, bit for bit). Render thread: safe.
    @inline(__always)
    static func mapGains(points: UnsafeMutablePointer<Double>, count: Int, row: UnsafeMutablePointer<Double>,
                         frameCount: Int, into gains: UnsafeMutablePointer<Double>) {
        ParameterMap.evaluate(points, count: count, row: row, frameCount: frameCount, into: gains)
        var i = 0
        while i + 4 <= frameCount {
            let raw = UnsafeMutableRawPointer(gains + i)
            let db = raw.loadUnaligned(as: SIMD4<Double>.self)
            let linear = MixerMath.exp(db * 0.11512925464970229)
            let silent = db .<= DecibelRamp.floor
            raw.storeBytes(of: SIMD4<Double>(repeating: 0).replacing(with: linear, where: .!silent), as: SIMD4<Double>.self)
            i += 4
        }
        while i < frameCount {
            gains[i] = DecibelRamp.linear(gains[i])
            i += 1
        }
    }

    /// Where a map reads its parameter in this segment: its points, and the parameter's row
    /// when it moves, else the map's one value (`nil`: the layer has no such map).
    @inline(__always)
    private static func read(_ parameter: Int32, offset: Int32, count: Int32, _ c: VoiceRenderContext)
        -> (points: UnsafeMutablePointer<Double>, count: Int, row: UnsafeMutablePointer<Double>?, value: Double)?
    {
        guard parameter >= 0 else { return nil }
        let p = Int(parameter)
        let points = c.mapPoints + Int(offset), n = Int(count)
        let row = c.parameterValues + p * c.stride
        if c.parameterMoving[p] { return (points, n, row, 0) }
        return (points, n, nil, ParameterMap.evaluate(points, count: n, at: row[0]))
    }

    /// Frees the voice and reports how many frames it sounded.
    @inline(__always)
    mutating func stop(at frame: Int) -> Int {
        phase = .idle
        owner = -1
        return frame
    }
}
