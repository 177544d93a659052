import Synchronization

/// A fixed-capacity, lock-free single-producer / single-consumer ring of plain values.
///
/// The control thread pushes, the audio thread pops. A full ring makes `push` return
/// false at once — the caller reports it; nobody ever waits. Head and tail are
/// monotonically increasing counters (acquire/release atomics), so the ring holds exactly
/// `capacity` elements.
///
/// Thread: `push` from one producer thread only; `pop` from one consumer thread only
/// (render thread: safe — no allocation, no locks).
final class CommandRing: @unchecked Sendable {
    typealias Element = MixerCommand
    // @unchecked Sendable: slots are written only by the producer before it publishes
    // `tail` (release) and read only by the consumer after it observes `tail` (acquire);
    // `head` hands slots back the same way. One producer and one consumer by contract.

    let capacity: Int
    private let slots: UnsafeMutablePointer<Element>
    private let head = Atomic<Int>(0)  // next slot to read; written by the consumer
    private let tail = Atomic<Int>(0)  // next slot to write; written by the producer

    init(capacity: Int, filler: Element = MixerCommand(at: 0, .setMasterGain(to: 0, overFrames: 0))) {
        precondition(capacity > 0)
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: filler, count: capacity)
    }

    deinit { slots.deallocate() }

    /// Appends `element`; false when the ring is full. Producer thread only.
    func push(_ element: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        let h = head.load(ordering: .acquiring)
        if t - h >= capacity { return false }
        slots[t % capacity] = element
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// Removes the oldest element, or nil when empty. Consumer thread only.
    @inline(__always)
    func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        if h == t { return nil }
        let element = slots[h % capacity]
        head.store(h + 1, ordering: .releasing)
        return element
    }

    /// Elements waiting (a snapshot; any thread).
    var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }
}
