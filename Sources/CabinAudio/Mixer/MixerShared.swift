import Synchronization

/// What the control side and the audio thread share: the command ring, the live parameter
/// slots, the counters and the asset table. Made once by `MixerConfig.make()`; the handle
/// and the mixer both keep it alive, and the render thread reaches its parts only through
/// raw-pointer views, so it never touches a reference count.
///
/// Thread: every member is either immutable or atomic; see each member.
final class MixerShared: Sendable {
    let ring: CommandRing
    let assets: AssetTable
    let cells: AtomicCells

    init(config: MixerConfig) {
        ring = CommandRing(capacity: config.commandCapacity)
        assets = AssetTable(assets: config.assets, sampleRate: config.sampleRate)
        cells = AtomicCells(parameters: config.parameters.map(\.value))
    }
}

/// Memory for every atomic the two sides share: the counters, the live parameter values
/// (a `Double`'s bits each) and their generation counter.
///
/// Thread: the class only owns the memory; use `view`.
final class AtomicCells: @unchecked Sendable {
    // @unchecked Sendable: memory allocated in init, freed in deinit; all access in between
    // goes through atomics.
    let view: MixerCells

    init(parameters: [Double]) {
        let count = MixerCells.firstParameterCell + parameters.count
        let cells = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: count)
        for i in 0..<count { (cells + i).initialize(to: Atomic(0)) }
        view = MixerCells(cells: cells, count: count, parameterCount: parameters.count)
        view.store(.limiterMinimumGain, 1.0.bitPattern)
        for (p, value) in parameters.enumerated() {
            view.parameterCell(p).pointee.store(value.bitPattern, ordering: .relaxed)
        }
    }

    deinit {
        view.cells.deinitialize(count: view.count)
        view.cells.deallocate()
    }
}

/// Raw view of the shared atomics: counters, then the parameter generation, then one cell
/// per parameter.
///
/// Thread: counters — render thread writes, any thread reads; parameters — control thread
/// writes (`setParameter`), render thread reads once per block after the generation moved.
struct MixerCells: @unchecked Sendable {
    // @unchecked Sendable: a view of atomics owned by `AtomicCells`.
    let cells: UnsafeMutablePointer<Atomic<UInt64>>
    let count: Int
    let parameterCount: Int

    enum Counter: Int, CaseIterable {
        case lateCommands, invalidCommands, deferredCommands, stolenVoices, droppedVoices
        case activeVoices, renderedFrames, rejectedCommands, limiterMinimumGain
    }

    @inline(__always) func store(_ counter: Counter, _ value: UInt64) {
        cells[counter.rawValue].store(value, ordering: .releasing)
    }

    @inline(__always) func load(_ counter: Counter) -> UInt64 {
        cells[counter.rawValue].load(ordering: .acquiring)
    }

    @inline(__always) func add(_ counter: Counter, _ value: UInt64) {
        cells[counter.rawValue].add(value, ordering: .relaxed)
    }

    /// Index of the generation cell (after the counters); parameters follow it.
    @inline(__always) static var generationCell: Int { Counter.limiterMinimumGain.rawValue + 1 }
    @inline(__always) static var firstParameterCell: Int { generationCell + 1 }

    @inline(__always) private var generationCell: UnsafeMutablePointer<Atomic<UInt64>> {
        cells + MixerCells.generationCell
    }

    @inline(__always) func parameterCell(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        cells + MixerCells.firstParameterCell + index
    }

    /// Stores a live parameter value and bumps the generation. Control thread.
    func storeParameter(_ index: Int, _ value: Double) {
        parameterCell(index).pointee.store(value.bitPattern, ordering: .relaxed)
        generationCell.pointee.add(1, ordering: .releasing)
    }

    /// The generation: changes after every `storeParameter`. Render thread: safe.
    @inline(__always) var generation: UInt64 { generationCell.pointee.load(ordering: .acquiring) }

    /// A live parameter value. Render thread: safe.
    @inline(__always) func parameter(_ index: Int) -> Double {
        Double(bitPattern: parameterCell(index).pointee.load(ordering: .relaxed))
    }
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
    /// Voices that could not start because the bus had no slot at all.
    public var droppedVoices: Int
    /// Voices sounding at the end of the last block.
    public var activeVoices: Int
    /// Frames rendered so far: the engine clock.
    public var renderedFrames: FrameTime
    /// Lowest limiter gain reached so far (1 = never limited).
    public var limiterMinimumGain: Double
}
