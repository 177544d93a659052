import CabinAudio
import CabinHaptics
import Synchronization

/// What a haptic track rendered on the render thread beside the session (a DualSense's
/// channels 3–4) knows of the running session that the timeline does not: the parameters
/// its haptic layers read, as the mixer has them after each period (a `+`/`−` key,
/// `cabin ctl set`, a `leave-focus` fall), and the haptic cues live events start
/// (`leave-focus`'s speed-bump) at the session frame they were sent.
///
/// Within a period a parameter is the straight line from its value where the period began
/// to its value where it ended (a ramp on the timeline is a straight line, so inside a ramp
/// that is exact; a change that begins or ends inside a period is spread over it), and it
/// goes on along that line for up to one period past its end (the 1 kHz grid point ahead
/// of the period), then holds. The parameters carried are ``HapticFeed/carriedParameters(of:)``:
/// every one the haptic layers read, however many.
///
/// Live cues travel from the control thread in a fixed ring (``triggerCapacity``; one that
/// does not fit is dropped and counted: ``droppedTriggers``) and play from a fixed table of
/// ``instanceCapacity`` instances (an instance over it is dropped and counted too); both are
/// allocated when the track is made.
///
/// Thread: `init` on the control thread (allocates); ``trigger(pattern:frame:)`` from one
/// control thread; `process…` on the render thread only (no allocation, locks or I/O).
public final class LiveHapticState: @unchecked Sendable {
    // @unchecked Sendable: the parameter values and the instance table are the render
    // thread's; the ring is single-producer single-consumer on acquire/release counters.
    /// Live cues that may wait in the ring.
    public static let triggerCapacity = 64
    /// Live cues that may play at once.
    public static let instanceCapacity = 32

    let sampleRate: Double
    /// Session parameters carried (by slot), and each session parameter's slot (−1: not carried).
    let carried: UnsafeMutableBufferPointer<Int>
    let slots: UnsafeMutableBufferPointer<Int>
    /// Values at `beforeTime` and `afterTime` (seconds), by slot.
    let before: UnsafeMutableBufferPointer<Double>
    let after: UnsafeMutableBufferPointer<Double>
    var beforeTime = 0.0
    var afterTime = 0.0
    /// The patterns live events may start: name, and the index the track plays it by
    /// (a pattern of the combined signal, or a clip), and its length in seconds.
    let triggers: [(name: String, index: Int, length: Double)]
    /// Playing live cues: origin frame and trigger index.
    let origins: UnsafeMutableBufferPointer<FrameTime>
    let kinds: UnsafeMutableBufferPointer<Int>
    var instanceCount = 0
    private let ringFrames: UnsafeMutableBufferPointer<FrameTime>
    private let ringKinds: UnsafeMutableBufferPointer<Int>
    private let head = Atomic<Int>(0)
    private let tail = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    /// The next session frame the render thread expects (a different one is a jump).
    private var expected: FrameTime = -1

    init(_ session: CompiledSession, triggers: [(name: String, index: Int, length: Double)]) {
        sampleRate = session.sampleRate
        self.triggers = triggers
        let carriedList = HapticFeed.carriedParameters(of: session)
        carried = .allocate(capacity: max(1, carriedList.count))
        carried.initialize(repeating: 0)
        for (i, p) in carriedList.enumerated() { carried[i] = p }
        slots = .allocate(capacity: max(1, session.config.parameters.count))
        slots.initialize(repeating: -1)
        for (i, p) in carriedList.enumerated() { slots[p] = i }
        before = .allocate(capacity: carried.count)
        before.initialize(repeating: 0)
        after = .allocate(capacity: carried.count)
        after.initialize(repeating: 0)
        carriedCount = carriedList.count
        parameterCount = session.config.parameters.count
        origins = .allocate(capacity: Self.instanceCapacity)
        origins.initialize(repeating: 0)
        kinds = .allocate(capacity: Self.instanceCapacity)
        kinds.initialize(repeating: 0)
        ringFrames = .allocate(capacity: Self.triggerCapacity)
        ringFrames.initialize(repeating: 0)
        ringKinds = .allocate(capacity: Self.triggerCapacity)
        ringKinds.initialize(repeating: 0)
    }

    private let carriedCount: Int
    private let parameterCount: Int

    deinit {
        for buffer in [carried, slots, kinds, ringKinds] { buffer.deallocate() }
        before.deallocate()
        after.deallocate()
        origins.deallocate()
        ringFrames.deallocate()
    }

    /// Live cues that did not fit (the ring or the table was full).
    public var droppedTriggers: Int { dropped.load(ordering: .acquiring) }

    /// A live event started pattern `name` at session frame `frame`. False when the session
    /// has no such pattern (or the ring is full). Control thread (one at a time).
    @discardableResult
    public func trigger(pattern name: String, frame: FrameTime) -> Bool {
        guard let kind = triggers.firstIndex(where: { $0.name == name }) else { return false }
        let t = tail.load(ordering: .relaxed), h = head.load(ordering: .acquiring)
        guard t - h < Self.triggerCapacity else {
            dropped.add(1, ordering: .relaxed)
            return false
        }
        ringFrames[t % Self.triggerCapacity] = frame
        ringKinds[t % Self.triggerCapacity] = kind
        tail.store(t + 1, ordering: .releasing)
        return true
    }

    /// Takes in a period of `advanced` session frames from `from` that the session has just
    /// rendered: the parameters as they are now (`parameter(p)`, a session parameter index,
    /// as the mixer has it `lead` frames ahead of the output: its look-ahead) become the
    /// period's end, the values at its start are those of the last period's end
    /// (or, after a jump, the same as its end); a jump back (a seek) forgets the live cues
    /// after the new place; the live cues sent since are added.
    ///
    /// Render thread: safe.
    public func processPeriod(from: FrameTime, advanced: Int, lead: Int = 0, parameter: (Int) -> Double) {
        let jumped = from != expected
        for i in 0..<carriedCount {
            let now = parameter(carried[i])
            before[i] = jumped ? now : after[i]
            after[i] = now
        }
        beforeTime = Double(from + FrameTime(lead)) / sampleRate
        afterTime = Double(from + FrameTime(advanced + lead)) / sampleRate
        let back = from < expected
        expected = from + FrameTime(advanced)
        if back {
            var kept = 0
            for i in 0..<instanceCount where origins[i] <= from {
                origins[kept] = origins[i]
                kinds[kept] = kinds[i]
                kept += 1
            }
            instanceCount = kept
        }
        // Instances long over are let go.
        var kept = 0
        let now = Double(from) / sampleRate
        for i in 0..<instanceCount where Double(origins[i]) / sampleRate + triggers[kinds[i]].length + 0.1 > now {
            origins[kept] = origins[i]
            kinds[kept] = kinds[i]
            kept += 1
        }
        instanceCount = kept
        let h = head.load(ordering: .relaxed), t = tail.load(ordering: .acquiring)
        for i in h..<t {
            guard instanceCount < Self.instanceCapacity else { dropped.add(1, ordering: .relaxed); continue }
            origins[instanceCount] = ringFrames[i % Self.triggerCapacity]
            kinds[instanceCount] = ringKinds[i % Self.triggerCapacity]
            instanceCount += 1
        }
        head.store(t, ordering: .releasing)
    }

    /// Parameter `p` at `t` seconds as the session has it live, or `timeline(p)` for one the
    /// haptics do not read. Render thread: safe.
    @inline(__always)
    func parameter(_ p: Int, at t: Double, timeline: (Int) -> Double) -> Double {
        let slot = p < parameterCount ? slots[p] : -1
        guard slot >= 0 else { return timeline(p) }
        let span = afterTime - beforeTime
        if span <= 0 { return after[slot] }
        if t <= beforeTime { return before[slot] }
        let x = min(t, afterTime + span)
        return before[slot] + (after[slot] - before[slot]) * (x - beforeTime) / span
    }
}
