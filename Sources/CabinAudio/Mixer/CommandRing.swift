import Synchronization

/// A fixed-capacity, lock-free single-producer / single-consumer ring of `MixerCommand`s.
///
/// The control thread pushes, the audio thread pops. A full ring makes `push` return
/// false at once — the caller reports it; nobody ever waits. Head and tail are
/// monotonically increasing counters (acquire/release atomics), so the ring holds exactly
/// `capacity` elements.
///
/// The class owns the memory; both sides work through its `View`, a struct of raw
/// pointers, so the render thread touches no reference count.
///
/// Thread: `push` from one producer thread only; `pop` from one consumer thread only
/// (render thread: safe — no allocation, no locks).
final class CommandRing: @unchecked Sendable {
    // @unchecked Sendable: the memory is allocated in init and freed in deinit; in between
    // it is only reached through `View`, whose protocol is safe for one producer and one
    // consumer.
    let view: View

    init(capacity: Int) {
        precondition(capacity > 0)
        let slots = UnsafeMutablePointer<MixerCommand>.allocate(capacity: capacity)
        slots.initialize(repeating: MixerCommand(at: 0, .setMasterGain(to: 0, overFrames: 0)), count: capacity)
        let counters = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 2)
        counters.initialize(to: Atomic(0))
        (counters + 1).initialize(to: Atomic(0))
        view = View(capacity: capacity, slots: slots, head: counters, tail: counters + 1)
    }

    deinit {
        view.slots.deallocate()
        view.head.deinitialize(count: 2)
        view.head.deallocate()
    }

    var capacity: Int { view.capacity }

    /// Raw access to the ring.
    struct View: @unchecked Sendable {
        // @unchecked Sendable: slots are written only by the producer before it publishes
        // `tail` (release) and read only by the consumer after it observes `tail`
        // (acquire); `head` hands slots back the same way.
        let capacity: Int
        let slots: UnsafeMutablePointer<MixerCommand>
        let head: UnsafeMutablePointer<Atomic<Int>>  // next slot to read; consumer writes
        let tail: UnsafeMutablePointer<Atomic<Int>>  // next slot to write; producer writes

        /// Appends `element`; false when the ring is full. Producer thread only.
        func push(_ element: MixerCommand) -> Bool {
            let t = tail.pointee.load(ordering: .relaxed)
            let h = head.pointee.load(ordering: .acquiring)
            if t - h >= capacity { return false }
            slots[t % capacity] = element
            tail.pointee.store(t + 1, ordering: .releasing)
            return true
        }

        /// Removes the oldest element, or nil when empty. Consumer thread only.
        @inline(__always)
        func pop() -> MixerCommand? {
            let h = head.pointee.load(ordering: .relaxed)
            let t = tail.pointee.load(ordering: .acquiring)
            if h == t { return nil }
            let element = slots[h % capacity]
            head.pointee.store(h + 1, ordering: .releasing)
            return element
        }

        /// Elements waiting (a snapshot; any thread).
        var count: Int { tail.pointee.load(ordering: .acquiring) - head.pointee.load(ordering: .acquiring) }
    }
}
