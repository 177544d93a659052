/// The stream source: a voice playing the frames a producer delivers through an
/// `AudioStream`, one per output frame, for as long as it plays.
///
/// Per segment the mixer snapshots each stream's written frames before the voices render
/// (`renderStreamSnapshots`), every voice playing the stream reads the same frames from its
/// read position (silence past the snapshot: an underflow), and afterwards the mixer moves
/// the read position by the frames played and counts the missing ones
/// (`renderStreamAdvance`). So the output depends only on what was written by each segment,
/// never on how many voices play the stream.
extension Voice {
    /// The stream kernel: adds the segment's frames of stream `id` (silence past what was
    /// written), through the voice's gain, fades and ducking; pitch does not apply. Never
    /// ends by itself.
    ///
    /// Render thread: safe.
    @inline(__always)
    mutating func renderStream(_ id: StreamID, into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                               _ m: Modulation, _ c: VoiceRenderContext) -> Int {
        let index = Int(id.index)
        guard index >= 0 && index < c.streamCount else { return stop(at: 0) }
        let slot = c.streams + index
        let ring = slot.pointee
        let readable = max(0, min(ring.readable, frameCount))
        let start = ring.position % ring.capacity
        let first = min(readable, ring.capacity - start)  // frames before the ring wraps
        var sounded = frameCount
        if m.hasFixedGain {
            let g = m.fixedGain
            let head = ring.samples + 2 * start
            for k in 0..<(2 * first) { bus[k] += head[k] * g }
            let rest = bus + 2 * first
            for k in 0..<(2 * (readable - first)) { rest[k] += ring.samples[k] * g }
        } else {
            var p = ring.samples + 2 * start
            for i in 0..<frameCount {
                if i == first { p = ring.samples }
                var left: Float = 0, right: Float = 0
                if i < readable {
                    left = p[0]
                    right = p[1]
                    p += 2
                }
                if emit(left, right, at: i, into: bus, m) {
                    sounded = i + 1
                    break
                }
            }
        }
        slot.pointee.sounded = max(slot.pointee.sounded, sounded)
        return sounded < frameCount ? stop(at: sounded) : frameCount
    }
}

extension Mixer {
    /// Before the voices of a segment: how many frames each stream holds for it (one
    /// snapshot, so every voice playing a stream reads the same frames).
    ///
    /// Render thread: safe (one atomic load per stream).
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func renderStreamSnapshots() {
        for s in 0..<context.streamCount { context.streams[s].processSnapshot() }
    }

    /// After the voices of a segment: each stream played moves on by the frames played, and
    /// the frames played past what it held are added to its underflow count.
    ///
    /// Render thread: safe (atomic stores only).
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    func renderStreamAdvance() {
        for s in 0..<context.streamCount { context.streams[s].processAdvance() }
    }
}
