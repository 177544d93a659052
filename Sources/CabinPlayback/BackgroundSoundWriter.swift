import CabinIO
import Dispatch
import Synchronization

/// A `SoundFileWriter` fed from one thread and written on another: the offline renderer's
/// blocks are copied into a few large buffers, and each full buffer is converted and written
/// (libsndfile, the kernel's page cache) on a serial queue while the next one is mixed. The
/// file gets the same frames in the same order, so the same bytes.
///
/// A write that fails is reported by the next `append` or by `finish` (the rest is not
/// written). `finish` or `abandon` must be called before the writer is closed or its output
/// discarded: both wait until no write is running.
///
/// Thread: one producer thread (`append`, `finish`, `abandon`); the writes on the queue.
package final class BackgroundSoundWriter: @unchecked Sendable {
    /// What the queued writes use. The writes hold it, never the writer itself, so the
    /// writer always goes away on the producer's thread (its `deinit` waits for the queue,
    /// which on the queue would wait for itself).
    private final class Shared: @unchecked Sendable {
        let writer: SoundFileWriter
        let buffers: [UnsafeMutablePointer<Float>]
        /// Buffers not being filled or written (the producer takes one before it fills it).
        let free: DispatchSemaphore
        let failure = Mutex<SoundFileError?>(nil)

        init(writer: SoundFileWriter, bufferSamples: Int, bufferCount: Int) {
            self.writer = writer
            buffers = (0..<bufferCount).map { _ in .allocate(capacity: bufferSamples) }
            free = DispatchSemaphore(value: bufferCount)
        }

        deinit { for buffer in buffers { buffer.deallocate() } }

        /// Writes `count` samples of buffer `index` unless a write has failed; gives it back.
        func write(_ index: Int, count: Int) {
            if failure.withLock({ $0 == nil }) {
                do throws(SoundFileError) {
                    try writer.write(UnsafeBufferPointer(start: buffers[index], count: count))
                } catch {
                    failure.withLock { $0 = error }
                }
            }
            free.signal()
        }
    }

    private let shared: Shared
    private let queue = DispatchQueue(label: "cabin-write", qos: .userInitiated)
    private let capacity: Int
    private var current = 0, filled = 0
    private var holdsBuffer = false

    /// Buffers of `bufferSamples` samples (a whole number of frames), `bufferCount` of them.
    package init(_ writer: SoundFileWriter, bufferSamples: Int = 2 * 32_768, bufferCount: Int = 3) {
        precondition(bufferSamples % writer.channelCount == 0 && bufferCount >= 2)
        shared = Shared(writer: writer, bufferSamples: bufferSamples, bufferCount: bufferCount)
        capacity = bufferSamples
    }

    deinit {
        queue.sync {}
        // Give back the buffer being filled: libdispatch traps on freeing a semaphore below
        // its starting count.
        if holdsBuffer { shared.free.signal() }
    }

    /// Queues interleaved frames for writing.
    package func append(_ samples: UnsafeBufferPointer<Float>) throws(SoundFileError) {
        var done = 0
        while done < samples.count {
            if !holdsBuffer {
                shared.free.wait()
                holdsBuffer = true
                filled = 0
            }
            let n = min(capacity - filled, samples.count - done)
            (shared.buffers[current] + filled).update(from: samples.baseAddress! + done, count: n)
            filled += n
            done += n
            if filled == capacity { try submit() }
        }
    }

    /// Writes what is queued and waits for it; throws the first write's error.
    package func finish() throws(SoundFileError) {
        if holdsBuffer && filled > 0 { try submit() }
        queue.sync {}
        if let error = shared.failure.withLock({ $0 }) { throw error }
    }

    /// Waits for the write running, if any, and drops what is queued (a failed or cancelled
    /// render).
    package func abandon() {
        let path = shared.writer.path
        shared.failure.withLock { if $0 == nil { $0 = SoundFileError(.writeFailed, path: path, reason: "abandoned") } }
        queue.sync {}
    }

    /// Hands the current buffer to the queue and moves to the next one.
    private func submit() throws(SoundFileError) {
        let index = current, count = filled, shared = self.shared
        holdsBuffer = false
        current = (current + 1) % shared.buffers.count
        queue.async { shared.write(index, count: count) }
        if let error = shared.failure.withLock({ $0 }) { throw error }
    }
}
