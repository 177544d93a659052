/// The per-voice render kernel: reads or synthesizes samples, applies pitch and gain, and
/// adds the result into a bus buffer.
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
        let m = modulation(context: c)
        // One loop per kind of source, so the per-sample work has no switch in it.
        switch source {
        case .asset(let id):
            let index = Int(id.index)
            guard index >= 0 && index < c.assetCount else { return stop(at: 0) }
            let slot = c.assets[index]
            let ready = slot.ready.pointee.load(ordering: .acquiring)
            if slot.isInt16 {
                let reader = AssetReader(samples: slot.samples.assumingMemoryBound(to: Int16.self), slot: slot, ready: ready)
                return renderAsset(reader, into: bus, frameCount: frameCount, m)
            }
            let reader = AssetReader(samples: slot.samples.assumingMemoryBound(to: Float.self), slot: slot, ready: ready)
            return renderAsset(reader, into: bus, frameCount: frameCount, m)
        case .whiteNoise:
            for i in 0..<frameCount {
                let x = noise.nextWhite()
                if emit(x, x, at: i, into: bus, m) { return stop(at: i + 1) }
            }
        case .pinkNoise:
            for i in 0..<frameCount {
                let x = noise.nextPink()
                if emit(x, x, at: i, into: bus, m) { return stop(at: i + 1) }
            }
        case .brownNoise:
            for i in 0..<frameCount {
                let x = noise.nextBrown(c.brown)
                if emit(x, x, at: i, into: bus, m) { return stop(at: i + 1) }
            }
        case .sine(let frequency):
            let step = frequency * c.radiansPerHertz
            for i in 0..<frameCount {
                let x = Float(Voice.sineAmplitude * Voice.sine(phaseLeft))
                phaseLeft = Voice.wrap(phaseLeft + step * m.pitch(i))
                if emit(x, x, at: i, into: bus, m) { return stop(at: i + 1) }
            }
        case .binaural(let carrier, let beat):
            let stepLeft = (carrier - beat / 2) * c.radiansPerHertz
            let stepRight = (carrier + beat / 2) * c.radiansPerHertz
            for i in 0..<frameCount {
                let left = Float(Voice.sineAmplitude * Voice.sine(phaseLeft))
                let right = Float(Voice.sineAmplitude * Voice.sine(phaseRight))
                let ratio = m.pitch(i)
                phaseLeft = Voice.wrap(phaseLeft + stepLeft * ratio)
                phaseRight = Voice.wrap(phaseRight + stepRight * ratio)
                if emit(left, right, at: i, into: bus, m) { return stop(at: i + 1) }
            }
        }
        return frameCount
    }

    /// The asset loop of `render`, for one sample type.
    @inline(__always)
    private mutating func renderAsset<S: AssetSample>(_ a: AssetReader<S>, into bus: UnsafeMutablePointer<Float>,
                                                      frameCount: Int, _ m: Modulation) -> Int {
        let end = Double(a.slot.frameCount)
        for i in 0..<frameCount {
            if !isLooping && position >= end { return stop(at: i) }
            let (left, right) = readAsset(a)
            advance(by: a.slot.baseRate * m.pitch(i), in: a.slot)
            if emit(left, right, at: i, into: bus, m) { return stop(at: i + 1) }
        }
        return frameCount
    }

    /// Applies this frame's gain to (left, right), adds it into the bus, and tells whether
    /// the voice has just finished fading out.
    @inline(__always)
    private mutating func emit(_ left: Float, _ right: Float, at i: Int, into bus: UnsafeMutablePointer<Float>,
                               _ m: Modulation) -> Bool {
        let gain = baseGain * level.next() * envelope.next() * m.gain(i)
        lastGain = gain
        let g = Float(gain)
        bus[2 * i] += left * g
        bus[2 * i + 1] += right * g
        return phase == .releasing && !envelope.isActive
    }

    /// The pitch ratio and map gain for each frame of the segment: constants, unless the
    /// parameter behind a map moves during the segment.
    struct Modulation {
        var pitchRow: UnsafeMutablePointer<Double>?
        var pitchConstant = 1.0
        var pitchPoints: UnsafeMutablePointer<Double>
        var pitchCount = 0
        var gainRow: UnsafeMutablePointer<Double>?
        var gainConstant = 1.0
        var gainPoints: UnsafeMutablePointer<Double>
        var gainCount = 0

        @inline(__always) func pitch(_ i: Int) -> Double {
            guard let pitchRow else { return pitchConstant }
            return ParameterMap.evaluate(pitchPoints, count: pitchCount, at: pitchRow[i])
        }

        @inline(__always) func gain(_ i: Int) -> Double {
            guard let gainRow else { return gainConstant }
            return DecibelRamp.linear(ParameterMap.evaluate(gainPoints, count: gainCount, at: gainRow[i]))
        }
    }

    private func modulation(context c: VoiceRenderContext) -> Modulation {
        var m = Modulation(pitchPoints: c.mapPoints, gainPoints: c.mapPoints)
        guard mapLayer >= 0 else { return m }
        let maps = c.layerMaps[Int(mapLayer)]
        if maps.pitchParameter >= 0 {
            let p = Int(maps.pitchParameter)
            m.pitchPoints = c.mapPoints + Int(maps.pitchOffset)
            m.pitchCount = Int(maps.pitchCount)
            let row = c.parameterValues + p * c.stride
            if c.parameterMoving[p] { m.pitchRow = row } else {
                m.pitchConstant = ParameterMap.evaluate(m.pitchPoints, count: m.pitchCount, at: row[0])
            }
        }
        if maps.gainParameter >= 0 {
            let p = Int(maps.gainParameter)
            m.gainPoints = c.mapPoints + Int(maps.gainOffset)
            m.gainCount = Int(maps.gainCount)
            let row = c.parameterValues + p * c.stride
            if c.parameterMoving[p] { m.gainRow = row } else {
                m.gainConstant = DecibelRamp.linear(ParameterMap.evaluate(m.gainPoints, count: m.gainCount, at: row[0]))
            }
        }
        return m
    }

    /// Frees the voice and reports how many frames it sounded.
    @inline(__always)
    private mutating func stop(at frame: Int) -> Int {
        phase = .idle
        owner = -1
        return frame
    }

    /// Sine amplitude for the synth reference RMS (RMS·√2).
    static var sineAmplitude: Double { 0.25148668593658708 }

    @inline(__always)
    static func wrap(_ phase: Double) -> Double {
        var p = phase
        while p >= 2 * Double.pi { p -= 2 * Double.pi }
        return p
    }

    @inline(__always)
    static func sine(_ phase: Double) -> Double { MixerMath.sine(phase) }
}
