/// A voice's room for its synthesized kind's running state (`SynthKind.State`): one fixed
/// block of bytes that each kind reads and writes as its own type, so a voice holds the
/// state of the kind it plays, not a field for every kind (a noise generator, an engine's
/// filters and a motor's wander are never in one voice at once).
///
/// A new kind with state of its own adds nothing to `Voice` while its state fits
/// `capacity` bytes (16-byte aligned); `SynthKinds.catalogue()` refuses a kind whose state
/// does not, so a kind too large is found when the table is first read, not on the render
/// thread.
///
/// Thread: a plain value inside a voice. Render thread: safe (no allocation, no locks).
struct SynthState: BitwiseCopyable {
    /// The bytes a kind's state may take.
    static var capacity: Int { MemoryLayout<Storage>.size }

    /// Whether a state type fits the block (its size and its alignment).
    static func fits<State: BitwiseCopyable>(_ type: State.Type) -> Bool {
        MemoryLayout<State>.size <= capacity && MemoryLayout<State>.alignment <= MemoryLayout<Storage>.alignment
    }

    private typealias Storage = (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>,
                                 SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>,
                                 SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>,
                                 SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)
    private var storage: Storage = (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero,
                                    .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)

    /// The state as `State` (what the kind's `start` stored last).
    @inline(__always)
    func load<State: BitwiseCopyable>(_ type: State.Type) -> State {
        precondition(SynthState.fits(State.self), "a synth kind's state is larger than SynthState.capacity")
        return withUnsafeBytes(of: storage) { $0.load(as: State.self) }
    }

    /// Keeps `state` as the voice's kind state.
    @inline(__always)
    mutating func store<State: BitwiseCopyable>(_ state: State) {
        precondition(SynthState.fits(State.self), "a synth kind's state is larger than SynthState.capacity")
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: state, as: State.self) }
    }
}

/// The state of a kind that keeps none between calls.
struct NoSynthState: BitwiseCopyable {}
