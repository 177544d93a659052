import Dispatch
import Glibc
import Synchronization

/// Text for a descriptor (stdout) written on a thread of its own through a bounded buffer,
/// so the thread that produces it never waits on whoever reads it: `cabin play`'s event
/// lines and status block. When the reader stops reading (a `--json` pipe nobody drains, a
/// terminal stopped with Ctrl-S), what does not fit in `capacity` is dropped whole and
/// counted, never half-written; the producer goes on at once.
///
/// ```swift
/// let out = StreamWriter()
/// out.write("{\"event\":\"mark\"}\n")
/// _ = out.drain(timeoutSeconds: 2)          // at the end, a bounded wait
/// if out.droppedCount > 0 { /* say so */ }
/// ```
///
/// Thread: `write`, `drain` and the counts from one thread (the control thread); the writes
/// happen on the writer's own queue. The corresponding C function is `write`.
package final class StreamWriter: @unchecked Sendable {
    package let descriptor: Int32
    /// Bytes that may wait to be written; a text that would go past it is dropped.
    package let capacity: Int

    private struct Counts {
        var queuedBytes = 0
        /// Counted texts queued and not yet written.
        var queued = 0
        var dropped = 0
        /// A write failed (the reader is gone): nothing more is written.
        var failed = false
    }

    private let counts = Mutex(Counts())
    private let queue = DispatchQueue(label: "cabin-output", qos: .utility)

    package init(descriptor: Int32 = STDOUT_FILENO, capacity: Int = 256 * 1024) {
        self.descriptor = descriptor
        self.capacity = capacity
    }

    /// Queues `text` to be written whole, or drops it when `capacity` bytes already wait
    /// (`counted`: it then counts in `droppedCount`, and while queued in `unwrittenCount`).
    /// Whether it was queued.
    @discardableResult
    package func write(_ text: String, counted: Bool = true) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return true }
        let accepted = counts.withLock { c in
            guard !c.failed, c.queuedBytes + bytes.count <= capacity else {
                if counted { c.dropped += 1 }
                return false
            }
            c.queuedBytes += bytes.count
            if counted { c.queued += 1 }
            return true
        }
        guard accepted else { return false }
        queue.async { [self] in
            let written = writeAll(bytes)
            counts.withLock { c in
                c.queuedBytes -= bytes.count
                if counted { c.queued -= 1 }
                if !written { c.failed = true }
            }
        }
        return true
    }

    /// Counted texts dropped because the buffer was full.
    package var droppedCount: Int { counts.withLock { $0.dropped } }

    /// Counted texts queued and not written yet.
    package var unwrittenCount: Int { counts.withLock { $0.queued } }

    /// Whether nothing waits to be written.
    package var isDrained: Bool { counts.withLock { $0.queuedBytes == 0 } }

    /// Waits at most `timeoutSeconds` until everything queued is written; whether it was.
    package func drain(timeoutSeconds: Double) -> Bool {
        let start = MonotonicClock.seconds()
        while !isDrained {
            if MonotonicClock.seconds() - start >= timeoutSeconds { return false }
            ThreadSleep.microseconds(2000)
        }
        return true
    }

    /// Writes all of `bytes` (blocking, on the queue); false when the descriptor fails.
    private func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }
}
