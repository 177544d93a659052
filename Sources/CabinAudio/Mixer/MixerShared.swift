import Synchronization

/// What the control side and the audio thread share: the command ring, the live parameter
/// slots, the counters and the asset table. Made once by `MixerConfig.make()`.
///
/// Thread: every member is either immutable or atomic; see each member.
final class MixerShared: Sendable {
    let ring: CommandRing
    let assets: AssetTable
    let counters = MixerCounterCells()
    let live: LiveParameterCells

    init(config: MixerConfig) {
        ring = CommandRing(capacity: config.commandCapacity)
        assets = AssetTable(assets: config.assets, sampleRate: config.sampleRate)
        live = LiveParameterCells(initial: config.parameters.map(\.value))
    }
}

/// Latest-value-wins parameter slots: one atomic per parameter (the `Double`'s bits) and a
/// generation counter bumped after every store, so the audio thread checks one atomic per
/// block and reads the values only when something changed.
///
/// Thread: `store` control thread; `generation`/`value` render thread: safe.
final class LiveParameterCells: @unchecked Sendable {
    // @unchecked Sendable: `cells` points to atomics allocated in init and freed in deinit;
    // all access goes through the atomics.
    let count: Int
    private let cells: UnsafeMutablePointer<Atomic<UInt64>>
    private let generationCell = Atomic<UInt64>(0)

    init(initial: [Double]) {
        count = initial.count
        cells = .allocate(capacity: max(1, count))
        for i in 0..<count { (cells + i).initialize(to: Atomic(initial[i].bitPattern)) }
    }

    deinit {
        cells.deinitialize(count: count)
        cells.deallocate()
    }

    func store(_ index: Int, _ value: Double) {
        cells[index].store(value.bitPattern, ordering: .relaxed)
        generationCell.add(1, ordering: .releasing)
    }

    @inline(__always) var generation: UInt64 { generationCell.load(ordering: .acquiring) }

    @inline(__always) func value(_ index: Int) -> Double {
        Double(bitPattern: cells[index].load(ordering: .relaxed))
    }
}

/// Counters the audio thread bumps and the control side reads.
///
/// Thread: `add`/`set` render thread: safe; reads any thread.
final class MixerCounterCells: Sendable {
    let lateCommands = Atomic<Int>(0)
    let invalidCommands = Atomic<Int>(0)
    let deferredCommands = Atomic<Int>(0)
    let stolenVoices = Atomic<Int>(0)
    let droppedVoices = Atomic<Int>(0)
    let activeVoices = Atomic<Int>(0)
    let renderedFrames = Atomic<Int64>(0)
    let rejectedCommands = Atomic<Int>(0)  // control side: the ring was full
    let limiterMinimumGainBits = Atomic<UInt64>(1.0.bitPattern)
}

/// A snapshot of the mixer's counters, read on the control side.
///
/// Thread: a plain value; any thread.
public struct MixerCounters: Sendable, Equatable {
    /// Commands refused by `MixerHandle.send` because the ring was full.
    public var rejectedCommands: Int
    /// Commands that arrived after their frame had passed (they acted at once).
    public var lateCommands: Int
    /// Commands naming an unknown bus, layer, parameter or asset (ignored).
    public var invalidCommands: Int
    /// Times the audio thread left commands in the ring because its pending queue was full.
    public var deferredCommands: Int
    /// Voices stolen (faded out quickly) to respect a bus's polyphony.
    public var stolenVoices: Int
    /// Voices that could not start because every slot was busy even after stealing.
    public var droppedVoices: Int
    /// Voices sounding at the end of the last block.
    public var activeVoices: Int
    /// Frames rendered so far: the engine clock.
    public var renderedFrames: FrameTime
    /// Lowest limiter gain reached so far (1 = never limited).
    public var limiterMinimumGain: Double
}
