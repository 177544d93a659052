/// The audio thread's commands waiting for their frame: a fixed-capacity binary min-heap
/// ordered by (due frame, arrival order), so commands due at the same frame act in the
/// order they were sent.
///
/// Thread: render thread only. Storage is allocated in `init` (control thread) and freed
/// in `deinit` — call `deallocate()`; nothing here allocates afterwards.
struct PendingQueue {
    private struct Entry: BitwiseCopyable {
        var command: MixerCommand
        var serial: UInt64
    }

    let capacity: Int
    private(set) var count = 0
    private var nextSerial: UInt64 = 0
    private let heap: UnsafeMutablePointer<Entry>

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        heap = .allocate(capacity: self.capacity)
    }

    func deallocate() { heap.deallocate() }

    var isFull: Bool { count >= capacity }

    /// The due frame of the earliest command, if any.
    @inline(__always) var nextTime: FrameTime? { count > 0 ? heap[0].command.time : nil }

    @inline(__always)
    private func before(_ a: Int, _ b: Int) -> Bool {
        let x = heap[a], y = heap[b]
        return x.command.time != y.command.time ? x.command.time < y.command.time : x.serial < y.serial
    }

    /// Adds a command; false if full.
    mutating func push(_ command: MixerCommand) -> Bool {
        guard count < capacity else { return false }
        heap[count] = Entry(command: command, serial: nextSerial)
        nextSerial &+= 1
        var i = count
        count += 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard before(i, parent) else { break }
            swapAt(i, parent)
            i = parent
        }
        return true
    }

    /// Removes and returns the earliest command.
    mutating func pop() -> MixerCommand? {
        guard count > 0 else { return nil }
        let top = heap[0].command
        count -= 1
        heap[0] = heap[count]
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < count && before(l, m) { m = l }
            if r < count && before(r, m) { m = r }
            if m == i { break }
            swapAt(i, m)
            i = m
        }
        return top
    }

    @inline(__always)
    private func swapAt(_ a: Int, _ b: Int) {
        let t = heap[a]
        heap[a] = heap[b]
        heap[b] = t
    }
}
