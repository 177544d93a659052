/// The mixer's immutable copy of every registered asset, in one allocation, addressed by
/// `AssetID` index.
///
/// Why: the render thread must never release the last reference to anything. Assets are
/// copied here once, on the control thread, when the mixer is made; voices hold only an
/// index and read raw pointers, so playing a sound never touches a reference count.
///
/// Thread: built on the control thread; afterwards read-only from any thread.
final class AssetTable: @unchecked Sendable {
    // @unchecked Sendable: the storage is written only in `init` and never mutated after,
    // so concurrent reads are safe; it is freed in `deinit`, when no thread holds it.

    /// One asset as the renderer sees it.
    struct Slot: BitwiseCopyable {
        var samples: UnsafePointer<Float>
        var frameCount: Int
        var channelCount: Int
        var trim: Float
        var loopStart: Int
        var loopEnd: Int
        /// Asset frames advanced per output frame at pitch ratio 1 (assetRate / mixerRate).
        var baseRate: Double
    }

    let slots: UnsafeMutableBufferPointer<Slot>
    private let storage: UnsafeMutableBufferPointer<Float>

    init(assets: [SoundAsset], sampleRate: Double) {
        let total = assets.reduce(0) { $0 + $1.buffer.samples.count }
        storage = .allocate(capacity: max(1, total))
        storage.initialize(repeating: 0)
        slots = .allocate(capacity: max(1, assets.count))
        var offset = 0
        for (i, asset) in assets.enumerated() {
            let base = storage.baseAddress! + offset
            var samples = asset.buffer.samples
            var loop = asset.loop ?? LoopPoints(start: 0, end: max(1, asset.buffer.frameCount))
            if asset.buffer.frameCount > 0, asset.seamCrossfadeFrames > 0 {
                loop = AssetTable.bakeSeam(&samples, channelCount: asset.buffer.channelCount,
                                           loop: loop, frames: asset.seamCrossfadeFrames)
            }
            _ = UnsafeMutableBufferPointer(start: base, count: samples.count).initialize(from: samples)
            slots.baseAddress!.advanced(by: i).initialize(to: Slot(
                samples: UnsafePointer(base), frameCount: asset.buffer.frameCount,
                channelCount: asset.buffer.channelCount, trim: Float(asset.trim.linearGain),
                loopStart: loop.start, loopEnd: loop.end,
                baseRate: asset.buffer.sampleRate / sampleRate))
            offset += samples.count
        }
        count = assets.count
    }

    /// Number of assets.
    let count: Int

    deinit {
        storage.deallocate()
        slots.deallocate()
    }

    /// Bakes a linear crossfade across the loop seam into `samples` and returns the loop
    /// points to use. With material before the loop start, the loop's last frames fade into
    /// the frames that precede the start; otherwise the loop's first frames fade from the
    /// frames before its end, and the loop is shortened by the crossfade length.
    static func bakeSeam(_ samples: inout [Float], channelCount: Int, loop: LoopPoints,
                         frames: Int) -> LoopPoints {
        let n = min(frames, (loop.end - loop.start) / 2)
        guard n > 0 else { return loop }
        let original = samples
        let c = channelCount
        if loop.start >= n {
            for k in 0..<n {
                let w = Float(k + 1) / Float(n + 1)
                for ch in 0..<c {
                    let dst = (loop.end - n + k) * c + ch, src = (loop.start - n + k) * c + ch
                    samples[dst] = original[dst] * (1 - w) + original[src] * w
                }
            }
            return loop
        }
        for k in 0..<n {
            let w = Float(k + 1) / Float(n + 1)
            for ch in 0..<c {
                let dst = (loop.start + k) * c + ch, src = (loop.end - n + k) * c + ch
                samples[dst] = original[dst] * w + original[src] * (1 - w)
            }
        }
        return LoopPoints(start: loop.start, end: loop.end - n)
    }
}
