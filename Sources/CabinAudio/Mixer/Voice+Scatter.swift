/// The scatter source (`ScatterConfig`): a voice that plays its scatter's one-shots as they
/// fall due, summed, then through the voice's gain like any source.
extension Voice {
    /// The scatter kernel: starts each event as it falls due, adds every sound playing
    /// (cubic-Hermite read at its pitch, with its gain, pan and end fades), and emits the sum.
    /// Per-frame state only, so the output does not depend on block size.
    ///
    /// Between two events the set of grains only shrinks, so the stretch is summed grain by
    /// grain into `scatterSums` (each frame's additions in grain order, as a frame-by-frame
    /// loop makes them; a grain's frames four at a time through `hermite4` where they read
    /// inside the sound), then emitted frame by frame: the same samples as summing frame by
    /// frame (`MixerScatterTests`), without a scalar read per grain and frame.
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func renderScatter(_ id: ScatterID, into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                                _ m: Modulation, _ c: VoiceRenderContext) -> Int {
        let index = Int(id.index)
        guard index >= 0 && index < c.scatterCount else { return stop(at: 0) }
        let slot = c.scatters + index
        // One voice plays a scatter: a newer voice on it (the layer started again while this
        // one fades out) has taken its events and grains over, so this one ends.
        guard slot.pointee.owner == serial else { return stop(at: 0) }
        let sums = c.scatterSums
        var i = 0
        while i < frameCount {
            if slot.pointee.countdown <= 0 {
                Voice.processEvent(slot, c)
                slot.pointee.countdown = slot.pointee.processGap(sampleRate: c.sampleRate)
            }
            // The frames up to the next event, the countdown stepped as frame by frame.
            var n = 0
            repeat {
                slot.pointee.countdown -= 1
                n += 1
            } while i + n < frameCount && slot.pointee.countdown > 0
            // Frames i ..< sounded had a grain holding a sound the frame before (or are the
            // first): they emit the sum; the rest are silence (no grain, most of the time:
            // the pieces are far apart), which skips the grains and the map's gain.
            var sounded = i
            if Voice.countGrains(slot) > 0 {
                for k in 0..<(2 * n) { sums[k] = 0 }
                var last = 0  // frames of the stretch any grain played in
                for g in 0..<ScatterConfig.maximumOverlap {
                    let grain = slot.pointee.grains + g
                    guard grain.pointee.asset >= 0 else { continue }
                    let a = c.assets[Int(grain.pointee.asset)]
                    let ready = a.ready.pointee.load(ordering: .relaxed)
                    let played: Int
                    if a.isInt16 {
                        let reader = AssetReader(samples: a.samples.assumingMemoryBound(to: Int16.self), slot: a, ready: ready)
                        played = Voice.sumGrain(grain, reader, into: sums, frameCount: n, fadeRate: c.scatterFadeRate)
                    } else {
                        let reader = AssetReader(samples: a.samples.assumingMemoryBound(to: Float.self), slot: a, ready: ready)
                        played = Voice.sumGrain(grain, reader, into: sums, frameCount: n, fadeRate: c.scatterFadeRate)
                    }
                    last = max(last, played)
                }
                // A frame emits when some grain played in the frame before: up to and with
                // the first frame none did.
                sounded = i + min(n, last + 1)
                for k in i..<sounded {
                    if emit(sums[2 * (k - i)], sums[2 * (k - i) + 1], at: k, into: bus, m) { return stop(at: k + 1) }
                }
            }
            for k in sounded..<(i + n) {
                if emitSilence(at: k, into: bus, m, isLast: k == frameCount - 1) { return stop(at: k + 1) }
            }
            i += n
        }
        return frameCount
    }

    /// Adds up to `frameCount` frames of one grain into `sums` (interleaved, from 0): its
    /// sound at its position, times its gains and the 10 ms end fades; a grain at the end of
    /// its sound is freed there. Returns the frames it played. Four frames in a row that all
    /// read inside the sound go through `hermite4` (each lane `read`'s operations, positions
    /// stepped one by one), the rest through `read`. Render thread: safe.
    @inline(__always)
    static func sumGrain<S: AssetSample>(_ grain: UnsafeMutablePointer<ScatterTable.Grain>, _ a: AssetReader<S>,
                                         into sums: UnsafeMutablePointer<Float>, frameCount n: Int,
                                         fadeRate: Double) -> Int {
        a.slot.channelCount == 1
            ? sumGrain(grain, a, MonoAsset.self, into: sums, frameCount: n, fadeRate: fadeRate)
            : sumGrain(grain, a, StereoAsset.self, into: sums, frameCount: n, fadeRate: fadeRate)
    }

    private static func sumGrain<S: AssetSample, L: AssetLayout>(_ grain: UnsafeMutablePointer<ScatterTable.Grain>,
                                                                 _ a: AssetReader<S>, _ layout: L.Type,
                                                                 into sums: UnsafeMutablePointer<Float>, frameCount n: Int,
                                                                 fadeRate: Double) -> Int {
        let frames = Double(a.slot.frameCount)
        let step = grain.pointee.step
        let gainLeft = grain.pointee.gainLeft, gainRight = grain.pointee.gainRight
        let gains = SIMD8<Float>(gainLeft, gainRight, gainLeft, gainRight, gainLeft, gainRight, gainLeft, gainRight)
        // `read`'s fast path (no edge): Int(pos) − 1 ≥ 0 and Int(pos) + 2 < min(frames, ready).
        let safeHigh = Double(min(a.slot.frameCount, a.ready) - 2)
        @inline(__always) func edge(_ p: Double) -> Float { Float(min(1, min(p, frames - p) * fadeRate)) }
        var pos = grain.pointee.position
        var k = 0
        while k < n {
            if k + 4 <= n && pos >= 1 {
                let p1 = pos + step, p2 = p1 + step, p3 = p2 + step
                if p3 < safeHigh {
                    let h = Voice.hermite4(a, layout, pos, p1, p2, p3)
                    let e0 = edge(pos), e1 = edge(p1), e2 = edge(p2), e3 = edge(p3)
                    let edges = SIMD8<Float>(e0, e0, e1, e1, e2, e2, e3, e3)
                    let out = UnsafeMutableRawPointer(sums + 2 * k)
                    out.storeBytes(of: out.loadUnaligned(as: SIMD8<Float>.self) + h * gains * edges, as: SIMD8<Float>.self)
                    pos = p3 + step
                    k += 4
                    continue
                }
            }
            if pos >= frames {
                grain.pointee.asset = -1
                break
            }
            let (l, r) = Voice.read(a, at: pos, looping: false, wrapped: false)
            let e = edge(pos)
            sums[2 * k] += l * gainLeft * e
            sums[2 * k + 1] += r * gainRight * e
            pos += step
            k += 1
        }
        grain.pointee.position = pos
        return k
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

/// For tests: one grain of `asset` summed the way `renderScatter` sums it (`Voice.sumGrain`,
/// four frames at a time where it can) and frame by frame through `Voice.read`, as the kernel
/// before it did, from the same start; each with the frames it played and where it ended.
package enum ScatterGrainCheck {
    package struct Sums: Equatable, Sendable {
        /// Interleaved stereo, bit patterns (so −0 and +0, and NaNs, compare exactly).
        package var bits: [UInt32]
        package var played: Int
        package var endPosition: Double
    }

    /// `ready`: frames loaded (default: all).
    package static func sums(of asset: SoundAsset, position: Double, step: Double, gainLeft: Float, gainRight: Float,
                            frames n: Int, ready: Int? = nil, sampleRate: Double = 48_000)
        -> (grainMajor: Sums, frameByFrame: Sums) {
        let table = AssetTable(assets: [asset], sampleRate: sampleRate)
        let slot = table.slots[0]
        let loaded = min(slot.frameCount, ready ?? slot.frameCount)
        let fadeRate = 1 / (0.01 * sampleRate)
        func run<S: AssetSample>(_ reader: AssetReader<S>) -> (Sums, Sums) {
            var grain = ScatterTable.Grain(asset: 0, position: position, step: step, gainLeft: gainLeft, gainRight: gainRight)
            var sums = [Float](repeating: 0, count: 2 * n)
            let played = sums.withUnsafeMutableBufferPointer { out in
                Voice.sumGrain(&grain, reader, into: out.baseAddress!, frameCount: n, fadeRate: fadeRate)
            }
            let major = Sums(bits: sums.map(\.bitPattern), played: played, endPosition: grain.position)
            // Frame by frame.
            var reference = [Float](repeating: 0, count: 2 * n)
            var pos = position, k = 0
            let frames = Double(slot.frameCount)
            while k < n && pos < frames {
                let (l, r) = Voice.read(reader, at: pos, looping: false, wrapped: false)
                let edge = Float(min(1, min(pos, frames - pos) * fadeRate))
                reference[2 * k] += l * gainLeft * edge
                reference[2 * k + 1] += r * gainRight * edge
                pos += step
                k += 1
            }
            return (major, Sums(bits: reference.map(\.bitPattern), played: k, endPosition: pos))
        }
        if slot.isInt16 {
            return run(AssetReader(samples: slot.samples.assumingMemoryBound(to: Int16.self), slot: slot, ready: loaded))
        }
        return run(AssetReader(samples: slot.samples.assumingMemoryBound(to: Float.self), slot: slot, ready: loaded))
    }
}
