import Synchronization

/// What the control side and the audio thread share: the command ring, the live parameter
/// slots, the counters, the asset table and the stream table. Made once by `MixerConfig.make()`; the handle
/// and the mixer both keep it alive, and the render thread reaches its parts only through
/// raw-pointer views, so it never touches a reference count.
///
/// Thread: every member is either immutable or atomic; see each member.
final class MixerShared: Sendable {
    let ring: CommandRing
    let assets: AssetTable
    let streams: StreamTable
    let scatters: ScatterTable
    let cells: AtomicCells

    init(config: MixerConfig) {
        ring = CommandRing(capacity: config.commandCapacity)
        assets = AssetTable(assets: config.assets, sampleRate: config.sampleRate)
        streams = StreamTable(streams: config.streams)
        scatters = ScatterTable(scatters: config.scatters, sampleRate: config.sampleRate)
        cells = AtomicCells(parameters: config.parameters.map(\.value), busCount: config.buses.count)
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

    init(parameters: [Double], busCount: Int) {
        // Counters, generation, parameters, bus meters, bus volumes and the master volume.
        let count = MixerCells.firstParameterCell + parameters.count + 2 * busCount + 1
        let cells = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: count)
        for i in 0..<count { (cells + i).initialize(to: Atomic(0)) }
        view = MixerCells(cells: cells, count: count, parameterCount: parameters.count, busCount: busCount)
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

/// Raw view of the shared atomics: counters, then the generation, then one cell per
/// parameter, per bus meter, per bus volume, and the master volume.
///
/// Thread: counters — render thread writes, any thread reads; parameters — control thread
/// writes (`setParameter`), render thread reads once per block after the generation moved.
struct MixerCells: @unchecked Sendable {
    // @unchecked Sendable: a view of atomics owned by `AtomicCells`.
    let cells: UnsafeMutablePointer<Atomic<UInt64>>
    let count: Int
    let parameterCount: Int
    let busCount: Int

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

    /// The peak meter cell of bus `index` (a `Float`'s bits): the render thread raises it,
    /// the control thread reads and clears it.
    @inline(__always) func busMeterCell(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        cells + MixerCells.firstParameterCell + parameterCount + index
    }

    /// The listener's volume cell (a `Double`'s bits, dB) of bus `index`, or of the master
    /// when `index == busCount`: the control thread writes (`storeVolume`), the render
    /// thread reads once per block after the generation moved. 0 (0 dB) until set.
    @inline(__always) func volumeCell(_ index: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        cells + MixerCells.firstParameterCell + parameterCount + busCount + index
    }

    /// Stores a volume (bus `index`, or the master at `busCount`) and bumps the generation.
    /// Control thread.
    func storeVolume(_ index: Int, _ decibels: Double) {
        volumeCell(index).pointee.store(decibels.bitPattern, ordering: .relaxed)
        generationCell.pointee.add(1, ordering: .releasing)
    }

    /// A volume in dB. Render thread: safe.
    @inline(__always) func volume(_ index: Int) -> Double {
        Double(bitPattern: volumeCell(index).pointee.load(ordering: .relaxed))
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
