import CabinAudio
import Synchronization

/// What a running session tells the haptic players that follow it live (a rumble device
/// under `cabin play --rumble`): the render thread publishes, after every block it renders,
/// the session frame it reached and the values its parameters had there (timeline ramps,
/// `+`/`−` keys, `cabin ctl set`, a `leave-focus` fall — whatever moved them); the control
/// thread adds the haptic cues live events make (`leave-focus`'s speed-bump) at their
/// session frame. A player reads both on its own thread and evaluates the session's haptic
/// signal where the listener is (`SessionHapticSignal/liveValue(at:heldSharpness:parameters:)`).
///
/// The parameter states travel in a fixed-capacity single-producer single-consumer ring of
/// plain values (head and tail are acquire/release counters, as the mixer's command ring);
/// the render thread writes only while a player listens (``isListening``), never waits, and
/// counts what did not fit (``droppedStates``). Every parameter the session's haptics read
/// (the `intensity` and `sharpness` maps of its haptic layers: ``carriedParameters(of:)``)
/// is carried, however many the session has; the ring is sized for them when the feed is
/// made, so publishing never allocates.
///
/// Thread: ``View/publish(frame:values:)`` from the render thread only (safe: no
/// allocation, no locks); ``drainStates(_:)`` from one consumer thread at a time;
/// ``trigger(pattern:frame:)`` from the control thread; ``takeTriggers()`` from the consumer.
public final class HapticFeed: @unchecked Sendable {
    // @unchecked Sendable: the ring's memory is reached only through `View`, whose protocol
    // is safe for one producer and one consumer; the triggers are behind a mutex.
    /// One published state: the session frame a block ended at and the carried parameters
    /// there (`values[i]` is parameter ``HapticFeed/parameters``[i]).
    public struct State: Sendable, Equatable {
        /// The session frame the block ended at.
        public var frame: FrameTime
        /// The carried parameters' values there, in the order of ``HapticFeed/parameters``.
        public var values: [Double]
    }

    /// The ring's producer side, which the render thread holds and publishes through.
    public let view: View
    /// The session parameters each state carries, by index, in slot order.
    public let parameters: [Int]
    private let triggers = Mutex<[(frame: FrameTime, pattern: String)]>([])

    /// The parameters `session`'s haptics read: those its haptic layers' `intensity` and
    /// `sharpness` maps follow (sorted, each once).
    public static func carriedParameters(of session: CompiledSession) -> [Int] {
        var read = Set<Int>()
        for layer in session.hapticLayers {
            for map in [layer.intensity, layer.sharpness] {
                if let map, let id = session.config.parameter(named: map.parameter) { read.insert(Int(id.index)) }
            }
        }
        return read.sorted()
    }

    /// A feed for `session`: carries every parameter its haptics read.
    public convenience init(_ session: CompiledSession, capacity: Int = 1024) {
        self.init(parameters: Self.carriedParameters(of: session), capacity: capacity)
    }

    /// A ring for `capacity` states (the default holds several seconds of 10 ms blocks) of
    /// the parameters `parameters` (session parameter indices).
    public init(parameters: [Int] = [], capacity: Int = 1024) {
        precondition(capacity > 0)
        self.parameters = parameters
        let width = max(1, parameters.count)
        let frames = UnsafeMutablePointer<FrameTime>.allocate(capacity: capacity)
        frames.initialize(repeating: 0, count: capacity)
        let values = UnsafeMutablePointer<Double>.allocate(capacity: capacity * width)
        values.initialize(repeating: 0, count: capacity * width)
        let indices = UnsafeMutablePointer<Int>.allocate(capacity: width)
        indices.initialize(repeating: 0, count: width)
        for (i, p) in parameters.enumerated() { indices[i] = p }
        let counters = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 4)
        for i in 0..<4 { (counters + i).initialize(to: Atomic(0)) }
        view = View(capacity: capacity, width: parameters.count, indices: indices, frames: frames, values: values,
                    counters: counters)
    }

    deinit {
        view.frames.deallocate()
        view.values.deallocate()
        view.indices.deallocate()
        view.counters.deinitialize(count: 4)
        view.counters.deallocate()
    }

    /// Whether a player reads the feed (the render thread publishes only then).
    public var isListening: Bool {
        get { view.counters[View.listening].load(ordering: .acquiring) != 0 }
        set { view.counters[View.listening].store(newValue ? 1 : 0, ordering: .releasing) }
    }

    /// States that did not fit in the ring (the player fell behind by seconds).
    public var droppedStates: Int { view.counters[View.dropped].load(ordering: .acquiring) }

    /// Hands every state published since the last call to `body`, oldest first.
    /// Consumer thread.
    public func drainStates(_ body: (State) -> Void) {
        let head = view.counters[View.head].load(ordering: .relaxed)
        let tail = view.counters[View.tail].load(ordering: .acquiring)
        let width = view.width
        var values = [Double](repeating: 0, count: width)
        for i in head..<tail {
            let slot = i % view.capacity
            for p in 0..<width { values[p] = view.values[slot * width + p] }
            body(State(frame: view.frames[slot], values: values))
        }
        view.counters[View.head].store(tail, ordering: .releasing)
    }

    /// A haptic cue a live event started at session frame `frame`. Control thread.
    public func trigger(pattern: String, frame: FrameTime) {
        triggers.withLock { $0.append((frame, pattern)) }
    }

    /// The cues triggered since the last call, in the order they were sent. Consumer thread.
    public func takeTriggers() -> [(frame: FrameTime, pattern: String)] {
        triggers.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }

    /// Raw access to the ring (what the render thread holds).
    public struct View: @unchecked Sendable {
        // @unchecked Sendable: a slot is written by the producer before it publishes `tail`
        // (release) and read by the consumer after it observes it (acquire).
        static let head = 0, tail = 1, listening = 2, dropped = 3
        let capacity: Int
        /// Parameters per state, and their session indices.
        let width: Int
        let indices: UnsafeMutablePointer<Int>
        let frames: UnsafeMutablePointer<FrameTime>
        let values: UnsafeMutablePointer<Double>
        let counters: UnsafeMutablePointer<Atomic<Int>>

        /// Whether a player listens (one relaxed load).
        @inline(__always) public var isListening: Bool { counters[Self.listening].load(ordering: .relaxed) != 0 }

        /// Publishes the state at `frame`: `values(p)` for each carried parameter `p` (a
        /// session parameter index). Drops it (and counts) when the ring is full.
        ///
        /// Render thread: safe.
        @inline(__always)
        public func publish(frame: FrameTime, values: (Int) -> Double) {
            let t = counters[Self.tail].load(ordering: .relaxed)
            let h = counters[Self.head].load(ordering: .acquiring)
            guard t - h < capacity else {
                counters[Self.dropped].add(1, ordering: .relaxed)
                return
            }
            let slot = t % capacity
            frames[slot] = frame
            for i in 0..<width { self.values[slot * width + i] = values(indices[i]) }
            counters[Self.tail].store(t + 1, ordering: .releasing)
        }
    }
}
