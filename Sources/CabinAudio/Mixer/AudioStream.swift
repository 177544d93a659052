import Synchronization

/// A live source: interleaved stereo frames a producer thread delivers while the mixer plays
/// them, through a fixed-capacity lock-free single-producer / single-consumer ring.
///
/// The seam for sounds that are not in memory when playback starts (network radio, long
/// files decoded as they play): register the stream with `MixerConfig.addStream`, play it
/// like any source (`.stream(id)` as a layer's source, in a crossfade or as a one-shot; it
/// follows gain ramps, fades, crossfades and ducking like every voice), and keep writing.
///
/// ```swift
/// let (id, stream) = config.addStream(capacityFrames: 48_000)   // one second of headroom
/// let radio = config.addLayer(LayerConfig(name: "radio", bus: bus, source: .stream(id)))
/// // producer thread, at the mixer's rate:
/// let written = chunk.withUnsafeBufferPointer { stream.write($0) }   // never blocks
/// ```
///
/// - Rate: one stream frame per output frame. The producer delivers at the mixer's
///   `sampleRate`; the voice does not resample, so a layer's pitch map does not apply.
/// - Length: infinite. A voice playing a stream never ends by itself (stop or fade it);
///   looping means nothing.
/// - Underflow: frames the ring does not hold yet play as silence and are counted in
///   `underflowFrames`; frames written later play after them (nothing is skipped). The
///   mixer never waits and `write` never blocks: it takes what fits.
/// - Sharing: the stream moves on only while a voice plays it, by the frames played; all
///   voices playing it at once (a layer restarting over its own fade-out) hear the same frames.
/// - Splicing: a producer that has written ahead and changes its mind (a playlist switching
///   tracks) asks for `splice(from:to:)`: once the mixer has played up to frame `from`, at the
///   start of its next segment it jumps to `to` plus what it played past `from`, so the frames
///   written from `to` on continue frame `from` (a switch is heard within a few blocks, not
///   after everything queued).
///
/// Thread: `write` from one producer thread at a time; the one mixer made from the config is
/// the only consumer (render thread: it never allocates or locks); the counts from any thread.
public final class AudioStream: @unchecked Sendable {
    // @unchecked Sendable: the memory is allocated in init and freed in deinit; samples are
    // written only by the producer before it publishes `written` (release) and read only by
    // the consumer after it observes it (acquire); `read` hands frames back the same way.

    /// Frames the ring holds at most.
    public let capacityFrames: Int
    /// `2 * capacityFrames` interleaved samples.
    let samples: UnsafeMutablePointer<Float>
    /// The counters, each on its own cache line: frames read (consumer writes), frames written
    /// (producer writes), frames of underflow (consumer adds).
    let counters: UnsafeMutablePointer<Atomic<Int>>

    /// A stream holding up to `capacityFrames` frames, preallocated.
    public init(capacityFrames: Int) {
        precondition(capacityFrames > 0, "a stream holds at least one frame")
        self.capacityFrames = capacityFrames
        samples = .zeroed(2 * capacityFrames)
        counters = .allocate(capacity: 32)
        for i in 0..<32 { (counters + i).initialize(to: Atomic(0)) }
    }

    deinit {
        counters.deinitialize(count: 32)
        counters.deallocate()
        samples.deallocate()
    }

    /// Appends as many whole frames of interleaved stereo `frames` as fit and returns how many
    /// that was (0 when the ring is full); never blocks. Producer thread only.
    @discardableResult
    public func write(_ frames: UnsafeBufferPointer<Float>) -> Int {
        guard let source = frames.baseAddress else { return 0 }
        let written = counters[StreamCounter.written].load(ordering: .relaxed)
        let read = counters[StreamCounter.read].load(ordering: .acquiring)
        let count = min(frames.count / 2, capacityFrames - (written - read))
        guard count > 0 else { return 0 }
        let start = written % capacityFrames
        let first = min(count, capacityFrames - start)
        (samples + 2 * start).update(from: source, count: 2 * first)
        samples.update(from: source + 2 * first, count: 2 * (count - first))
        counters[StreamCounter.written].store(written + count, ordering: .releasing)
        return count
    }

    /// `write(_:)` from an array. Producer thread only.
    @discardableResult
    public func write(_ frames: [Float]) -> Int {
        frames.withUnsafeBufferPointer { write($0) }
    }

    /// Frames written and not yet played. Any thread (a snapshot).
    public var availableFrames: Int {
        let read = counters[StreamCounter.read].load(ordering: .acquiring)
        return counters[StreamCounter.written].load(ordering: .acquiring) - read
    }

    /// Frames `write` would take now. Any thread (a snapshot).
    public var freeFrames: Int { capacityFrames - availableFrames }

    /// Takes up to `frames` frames (interleaved stereo) out of the ring into `destination` and
    /// returns how many; never blocks. For a consumer that is not a mixer — a playlist relaying
    /// an internet station's stream into its own — and only for a stream no mixer plays (the
    /// ring has one consumer). Not on the render thread's path.
    public func read(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let read = counters[StreamCounter.read].load(ordering: .relaxed)
        let written = counters[StreamCounter.written].load(ordering: .acquiring)
        let count = min(frames, written - read)
        guard count > 0 else { return 0 }
        let start = read % capacityFrames
        let first = min(count, capacityFrames - start)
        destination.update(from: samples + 2 * start, count: 2 * first)
        (destination + 2 * first).update(from: samples, count: 2 * (count - first))
        counters[StreamCounter.read].store(read + count, ordering: .releasing)
        return count
    }

    /// Frames written so far. Producer thread (or a snapshot from any thread).
    public var writtenFrames: Int { counters[StreamCounter.written].load(ordering: .acquiring) }

    /// Asks the mixer to skip the frames written in `from..<to` that it has not played: once
    /// it has played up to frame `from` (it may play a block past it), it goes on at frame
    /// `to` plus what it played past `from`. `from` must not be below what has been played
    /// nor above `to`, and `to` at most what has been written; frames written after `to` are
    /// the continuation of frame `from`. False while an earlier splice is still pending.
    /// Producer thread only.
    @discardableResult
    public func splice(from: Int, to: Int) -> Bool {
        precondition(from <= to, "a splice skips forward")
        guard counters[StreamCounter.spliceFrom].load(ordering: .acquiring) == 0 else { return false }
        counters[StreamCounter.spliceTo].store(to, ordering: .relaxed)
        counters[StreamCounter.spliceFrom].store(from + 1, ordering: .releasing)
        return true
    }

    /// Whether a splice is waiting for the mixer to reach it. Any thread.
    public var isSplicePending: Bool { counters[StreamCounter.spliceFrom].load(ordering: .acquiring) != 0 }

    /// Frames played so far (read from the ring). Any thread.
    public var playedFrames: Int { counters[StreamCounter.read].load(ordering: .acquiring) }

    /// Frames a voice played as silence because the ring was empty. Any thread.
    public var underflowFrames: Int { counters[StreamCounter.underflow].load(ordering: .relaxed) }
}

/// Where each of a stream's counters sits in `AudioStream.counters` (64 bytes apart, so the
/// producer's and the consumer's counters never share a cache line).
enum StreamCounter {
    /// Frames read; the consumer stores it (release), the producer loads it (acquire).
    @inline(__always) static var read: Int { 0 }
    /// Frames written; the producer stores it (release), the consumer loads it (acquire).
    @inline(__always) static var written: Int { 8 }
    /// Frames played as silence; the consumer adds to it.
    @inline(__always) static var underflow: Int { 16 }
    /// A splice's first skipped frame + 1 (0: none); the producer sets it (release) when it
    /// is 0, the consumer clears it (release) once it has jumped.
    @inline(__always) static var spliceFrom: Int { 24 }
    /// Where a splice goes on; the producer stores it before `spliceFrom`.
    @inline(__always) static var spliceTo: Int { 25 }
}
