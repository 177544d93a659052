import Synchronization

/// The mixer's view of every registered asset, addressed by `AssetID` index: raw pointers
/// into each asset's `SampleStorage`, which the table keeps alive.
///
/// Why: the render thread must never release the last reference to anything. Voices hold
/// only an index and read raw pointers, so playing a sound never touches a reference
/// count; the storages are released with the table, on the control side.
///
/// Thread: built on the control thread; afterwards read-only from any thread (the ready
/// counts it points to are atomics).
final class AssetTable: @unchecked Sendable {
    // @unchecked Sendable: the slots are written only in `init` and never mutated after,
    // so concurrent reads are safe; they are freed in `deinit`, when no thread holds them.

    /// One asset as the renderer sees it.
    struct Slot: BitwiseCopyable {
        /// `Int16` samples when `isInt16`, else `Float`; interleaved.
        var samples: UnsafeRawPointer
        var isInt16: Bool
        /// Frames written so far (the storage may still be loading).
        var ready: UnsafePointer<Atomic<Int>>
        var frameCount: Int
        var channelCount: Int
        var trim: Float
        var loopStart: Int
        var loopEnd: Int
        /// Asset frames advanced per output frame at pitch ratio 1 (assetRate / mixerRate).
        var baseRate: Double
    }

    let slots: UnsafeMutableBufferPointer<Slot>
    /// Keeps the samples alive as long as the table.
    private let storages: [SampleStorage]

    init(assets: [SoundAsset], sampleRate: Double) {
        storages = assets.map(\.samples)
        slots = .allocate(capacity: max(1, assets.count))
        for (i, asset) in assets.enumerated() {
            let storage = asset.samples
            let loop = asset.loop ?? LoopPoints(start: 0, end: max(1, storage.frameCount))
            slots.baseAddress!.advanced(by: i).initialize(to: Slot(
                samples: UnsafeRawPointer(storage.raw), isInt16: storage.format == .int16,
                ready: UnsafePointer(storage.ready), frameCount: storage.frameCount,
                channelCount: storage.channelCount, trim: Float(asset.trim.linearGain),
                loopStart: loop.start, loopEnd: loop.end,
                baseRate: storage.sampleRate / sampleRate))
        }
        count = assets.count
    }

    /// Number of assets.
    let count: Int

    deinit {
        slots.deallocate()
    }
}
