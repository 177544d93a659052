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
        var m = modulation(context: c)
        // While nothing moves the gain (no ramp, no moving gain map, not fading out), it is
        // the same product for every frame: computed once, bit-identical to per frame.
        if phase == .playing && !level.isActive && !envelope.isActive && m.gainRow == nil {
            let gain = baseGain * level.gain * envelope.value * m.gainConstant
            lastGain = gain
            m.fixedGain = Float(gain)
            m.hasFixedGain = true
        }
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
        case .whiteNoise where m.hasFixedGain:
            renderFixedNoise(into: bus, frameCount: frameCount, gain: m.fixedGain) { $0.nextWhite() }
        case .pinkNoise where m.hasFixedGain:
            renderFixedNoise(into: bus, frameCount: frameCount, gain: m.fixedGain) { $0.nextPink() }
        case .brownNoise where m.hasFixedGain:
            let brown = c.brown
            renderFixedNoise(into: bus, frameCount: frameCount, gain: m.fixedGain) { $0.nextBrown(brown) }
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
        if m.hasFixedGain && m.pitchRow == nil && a.slot.baseRate * m.pitchConstant == 1
            && position == Double(Int(position)) {
            return copyAsset(a, into: bus, frameCount: frameCount, gain: m.fixedGain)
        }
        if m.hasFixedGain && m.pitchRow == nil {
            return resampleAsset(a, into: bus, frameCount: frameCount,
                                 step: min(max(a.slot.baseRate * m.pitchConstant, 0), 64), gain: m.fixedGain)
        }
        let end = Double(a.slot.frameCount)
        for i in 0..<frameCount {
            if !isLooping && position >= end { return stop(at: i) }
            let (left, right) = readAsset(a)
            advance(by: a.slot.baseRate * m.pitch(i), in: a.slot)
            if emit(left, right, at: i, into: bus, m) { return stop(at: i + 1) }
        }
        return frameCount
    }

    /// `renderAsset` at rate 1 from a whole frame with a fixed gain: every read lands on a
    /// sample (where the Hermite reader returns that sample), so the asset is added into the
    /// bus as a scaled copy, span by span between the loop seam, the end and the frames not
    /// yet loaded — a loop the compiler vectorizes.
    @inline(__always)
    private mutating func copyAsset<S: AssetSample>(_ a: AssetReader<S>, into bus: UnsafeMutablePointer<Float>,
                                                    frameCount: Int, gain g: Float) -> Int {
        let slot = a.slot
        let end = isLooping ? slot.loopEnd : slot.frameCount
        var done = 0
        while done < frameCount {
            let j = Int(position)
            if j >= end {
                if !isLooping { return stop(at: done) }
                wrapLoop(slot)
                continue
            }
            let n = min(frameCount - done, end - j)
            let loaded = max(0, min(n, a.ready - j))  // frames past `ready` are silent
            let out = bus + 2 * done
            if slot.channelCount == 1 {
                let p = a.samples + j
                for k in 0..<loaded {
                    let v = p[k].float * g
                    out[2 * k] += v
                    out[2 * k + 1] += v
                }
            } else {
                let p = a.samples + 2 * j
                for k in 0..<(2 * loaded) { out[k] += p[k].float * g }
            }
            done += n
            position += Double(n)
            if isLooping { wrapLoop(slot) }
        }
        return frameCount
    }

    /// A noise source with a fixed gain: the generator kept in registers for the call.
    @inline(__always)
    private mutating func renderFixedNoise(into bus: UnsafeMutablePointer<Float>, frameCount: Int, gain g: Float,
                                           _ next: (inout NoiseGenerator) -> Float) {
        var generator = noise
        for i in 0..<frameCount {
            let x = next(&generator)
            bus[2 * i] += x * g
            bus[2 * i + 1] += x * g
        }
        noise = generator
    }

    /// `renderAsset` at a steady rate with a fixed gain: the same reads and steps as frame by
    /// frame, with the position kept in registers for the whole call.
    @inline(__always)
    private mutating func resampleAsset<S: AssetSample>(_ a: AssetReader<S>, into bus: UnsafeMutablePointer<Float>,
                                                        frameCount: Int, step: Double, gain g: Float) -> Int {
        let looping = isLooping
        var pos = position, wrapped = hasWrapped
        let end = Double(a.slot.frameCount)
        for i in 0..<frameCount {
            if !looping && pos >= end {
                position = pos
                return stop(at: i)
            }
            let (left, right) = Voice.read(a, at: pos, looping: looping, wrapped: wrapped)
            pos += step
            if looping { Voice.wrap(&pos, &wrapped, a.slot) }
            bus[2 * i] += left * g
            bus[2 * i + 1] += right * g
        }
        position = pos
        hasWrapped = wrapped
        return frameCount
    }

    /// Applies this frame's gain to (left, right), adds it into the bus, and tells whether
    /// the voice has just finished fading out.
    @inline(__always)
    private mutating func emit(_ left: Float, _ right: Float, at i: Int, into bus: UnsafeMutablePointer<Float>,
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
    struct Modulation {
        var pitchRow: UnsafeMutablePointer<Double>?
        var pitchConstant = 1.0
        var pitchPoints: UnsafeMutablePointer<Double>
        var pitchCount = 0
        var gainRow: UnsafeMutablePointer<Double>?
        var gainConstant = 1.0
        var gainPoints: UnsafeMutablePointer<Double>
        var gainCount = 0
        /// Set when the voice's gain is the same for every frame of the call.
        var hasFixedGain = false
        var fixedGain: Float = 0

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
