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
        // Pitch and gain maps: constant over the segment unless their parameter moves.
        var pitchRow: UnsafeMutablePointer<Double>? = nil
        var pitchConstant = 1.0
        var gainRow: UnsafeMutablePointer<Double>? = nil
        var gainConstant = 1.0
        var pitchPoints = c.mapPoints, gainPoints = c.mapPoints
        var pitchCount = 0, gainCount = 0
        if mapLayer >= 0 {
            let maps = c.layerMaps[Int(mapLayer)]
            if maps.pitchParameter >= 0 {
                let p = Int(maps.pitchParameter)
                pitchPoints = c.mapPoints + Int(maps.pitchOffset)
                pitchCount = Int(maps.pitchCount)
                let row = c.parameterValues + p * c.stride
                if c.parameterMoving[p] { pitchRow = row } else {
                    pitchConstant = ParameterMap.evaluate(pitchPoints, count: pitchCount, at: row[0])
                }
            }
            if maps.gainParameter >= 0 {
                let p = Int(maps.gainParameter)
                gainPoints = c.mapPoints + Int(maps.gainOffset)
                gainCount = Int(maps.gainCount)
                let row = c.parameterValues + p * c.stride
                if c.parameterMoving[p] { gainRow = row } else {
                    gainConstant = DecibelRamp.linear(
                        ParameterMap.evaluate(gainPoints, count: gainCount, at: row[0]))
                }
            }
        }

        for i in 0..<frameCount {
            var ratio = pitchConstant
            if let pitchRow { ratio = ParameterMap.evaluate(pitchPoints, count: pitchCount, at: pitchRow[i]) }
            var mapGain = gainConstant
            if let gainRow {
                mapGain = DecibelRamp.linear(ParameterMap.evaluate(gainPoints, count: gainCount, at: gainRow[i]))
            }
            let left: Float, right: Float
            switch source {
            case .asset(let id):
                let index = Int(id.index)
                guard index >= 0 && index < c.assetCount else { return stop(at: i) }
                let slot = c.assets[index]
                if !isLooping && position >= Double(slot.frameCount) { return stop(at: i) }
                (left, right) = readAsset(slot)
                advance(by: slot.baseRate * ratio, in: slot)
            case .whiteNoise:
                left = noise.nextWhite(); right = left
            case .pinkNoise:
                left = noise.nextPink(); right = left
            case .brownNoise:
                left = noise.nextBrown(c.brown); right = left
            case .sine(let frequency):
                left = Float(Voice.sineAmplitude * Voice.sine(phaseLeft)); right = left
                phaseLeft = Voice.wrap(phaseLeft + frequency * ratio * c.radiansPerHertz)
            case .binaural(let carrier, let beat):
                left = Float(Voice.sineAmplitude * Voice.sine(phaseLeft))
                right = Float(Voice.sineAmplitude * Voice.sine(phaseRight))
                phaseLeft = Voice.wrap(phaseLeft + (carrier - beat / 2) * ratio * c.radiansPerHertz)
                phaseRight = Voice.wrap(phaseRight + (carrier + beat / 2) * ratio * c.radiansPerHertz)
            }
            let gain = baseGain * level.next() * envelope.next() * mapGain
            lastGain = gain
            let g = Float(gain)
            bus[2 * i] += left * g
            bus[2 * i + 1] += right * g
            if phase == .releasing && !envelope.isActive { return stop(at: i + 1) }
        }
        return frameCount
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
