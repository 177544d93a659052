import Synchronization

/// The mixer's view of every registered stream, addressed by `StreamID` index: raw pointers
/// into each `AudioStream`'s ring, which the table keeps alive, and the render thread's own
/// per-segment bookkeeping.
///
/// Why: as with `AssetTable`, voices hold only an index, so playing a stream never touches a
/// reference count; the streams are released with the table, on the control side.
///
/// Thread: built on the control thread when the mixer is made; afterwards the slots belong
/// to the render thread (the counters they point to are atomics shared with the producer).
final class StreamTable: @unchecked Sendable {
    // @unchecked Sendable: the slots are written in `init`, then only by the one render
    // thread that owns the mixer; they are freed in `deinit`, when no thread holds them.

    /// One stream as the renderer sees it.
    struct Slot: BitwiseCopyable {
        var samples: UnsafeMutablePointer<Float>
        var capacity: Int
        var counters: UnsafeMutablePointer<Atomic<Int>>
        /// Frames read so far (the consumer's copy of the `read` counter).
        var position: Int
        /// Frames the ring holds for the current segment (a snapshot taken before the voices).
        var readable = 0
        /// The most frames any voice played of it in the current segment.
        var sounded = 0
    }

    let slots: UnsafeMutableBufferPointer<Slot>
    let count: Int
    /// Keeps the rings alive as long as the table.
    private let streams: [AudioStream]

    init(streams: [AudioStream]) {
        self.streams = streams
        count = streams.count
        slots = .allocate(capacity: max(1, streams.count))
        for (i, stream) in streams.enumerated() {
            slots.baseAddress!.advanced(by: i).initialize(to: Slot(
                samples: stream.samples, capacity: stream.capacityFrames, counters: stream.counters,
                position: stream.playedFrames))
        }
    }

    deinit {
        slots.deallocate()
    }
}

extension StreamTable.Slot {
    /// Takes the segment's snapshot of the frames written, after jumping over a splice the
    /// producer asked for once it is reached. Render thread: safe.
    @inline(__always)
    mutating func processSnapshot() {
        let from = counters[StreamCounter.spliceFrom].load(ordering: .acquiring)
        if from > 0 && position >= from - 1 {
            // The producer's splice: skip what it wrote ahead and no longer wants (once what
            // continues from here is written).
            let target = counters[StreamCounter.spliceTo].load(ordering: .relaxed) + (position - (from - 1))
            if counters[StreamCounter.written].load(ordering: .acquiring) >= target {
                position = target
                counters[StreamCounter.read].store(position, ordering: .releasing)
                counters[StreamCounter.spliceFrom].store(0, ordering: .releasing)
            }
        }
        readable = counters[StreamCounter.written].load(ordering: .acquiring) - position
        sounded = 0
    }

    /// Consumes the frames the voices played this segment and counts those they played as
    /// silence. Render thread: safe.
    @inline(__always)
    mutating func processAdvance() {
        guard sounded > 0 else { return }
        let consumed = min(readable, sounded)
        position += consumed
        counters[StreamCounter.read].store(position, ordering: .releasing)
        if sounded > consumed { counters[StreamCounter.underflow].add(sounded - consumed, ordering: .relaxed) }
        sounded = 0
    }
}
