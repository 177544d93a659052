/// The table of synthesized source kinds: the one place a kind is registered.
///
/// Adding a kind is one new file and one line here: the file declares a type conforming to
/// `SynthKind` (its name after `synth:`, its options, its running state, how a voice starts
/// it, and its render kernel, usually a `Voice` extension beside it) and a constructor on
/// `Synth`; the line below gives it the next index. Its state lives in the voice's
/// `SynthState` block, so a kind with state of its own does not touch `Voice`. Everything else reads this table: the session reader's
/// names, options and messages, the compiler, the mixer's voice start and render dispatch.
///
/// Dispatch is a `switch` on the kind's index, once per voice and segment, to a generic
/// call specialised for each kind (no function pointers, no existentials: the render path
/// stays checkable by `@_noAllocation @_noLocks`); the per-sample loop is the kind's own.
///
/// Thread: `visit` is render-thread safe (no allocation, no locks) when the visitor is;
/// `catalogue` allocates (control side).
enum SynthKinds {
    /// Calls `visitor` with the kind at `index`; nil if no kind has that index.
    @inline(__always)
    static func visit<Visitor: SynthKindVisitor>(_ index: Int, _ visitor: inout Visitor) -> Visitor.Result? {
        switch index {
        case 0: visitor.visit(WhiteNoiseSynth.self)
        case 1: visitor.visit(PinkNoiseSynth.self)
        case 2: visitor.visit(BrownNoiseSynth.self)
        case 3: visitor.visit(SineSynth.self)
        case 4: visitor.visit(BinauralSynth.self)
        case 5: visitor.visit(IsochronicSynth.self)
        case 6: visitor.visit(EngineSynth.self)
        case 7: visitor.visit(MotorSynth.self)
        default: nil
        }
    }

    /// Every kind's description, in index order.
    static func catalogue() -> [SynthKindInfo] {
        var describe = Describe()
        var kinds: [SynthKindInfo] = []
        while var info = visit(kinds.count, &describe) {
            precondition(info.options.count <= 4, "synth:\(info.name): a kind takes at most 4 options")
            info.index = kinds.count
            kinds.append(info)
        }
        return kinds
    }

    private struct Describe: SynthKindVisitor {
        func visit<Kind: SynthKind>(_ kind: Kind.Type) -> SynthKindInfo {
            precondition(SynthState.fits(Kind.State.self), "synth:\(Kind.name): its state is larger than SynthState.capacity")
            return SynthKindInfo(index: 0, name: Kind.name, summary: Kind.summary, options: Kind.options,
                                 isSeeded: Kind.isSeeded)
        }
    }
}

/// A synthesized source kind: what documents call it, the options it takes, and how a
/// voice plays it. Register a conforming type in `SynthKinds`.
///
/// A kind keeps its running state in its own `State` (a noise generator, oscillator phases,
/// an engine's filters), made by `start` and handed to each `render` call; the voice keeps
/// it between calls in its `SynthState` block. `render` must add exactly what it plays into
/// the bus through `Voice.emit` (or, while `m.hasFixedGain`, scaled by `m.fixedGain`),
/// evolve per sample only (output independent of block size), and stop the voice when
/// `emit` says its fade-out ended.
///
/// Thread: `render` and `start` run on the render thread: no allocation, locks or I/O.
protocol SynthKind {
    /// The running state a voice keeps for it between render calls (default: none). It must
    /// fit `SynthState.capacity`.
    associatedtype State: BitwiseCopyable = NoSynthState
    /// The name after `synth:`.
    static var name: String { get }
    /// One line on what it sounds like.
    static var summary: String { get }
    /// The options it takes, in the order of `Synth.values` (default: none).
    static var options: [SynthOption] { get }
    /// Whether it plays seeded noise (default: false).
    static var isSeeded: Bool { get }
    /// The state a voice starts `synth` from, at its beginning.
    static func start(_ synth: Synth) -> State
    /// Adds `frameCount` frames into interleaved stereo `bus`; returns the frames sounded
    /// (fewer when the voice's fade-out ended; then it is idle).
    static func render(_ voice: inout Voice, _ state: inout State, _ synth: Synth,
                       into bus: UnsafeMutablePointer<Float>, frameCount: Int,
                       _ m: Voice.Modulation, _ c: VoiceRenderContext) -> Int
}

extension SynthKind {
    static var options: [SynthOption] { [] }
    static var isSeeded: Bool { false }
}

extension SynthKind where State == NoSynthState {
    @inline(__always) static func start(_ synth: Synth) -> NoSynthState { NoSynthState() }
}

/// Something done with a kind's type, chosen by index (`SynthKinds.visit`).
protocol SynthKindVisitor {
    associatedtype Result
    mutating func visit<Kind: SynthKind>(_ kind: Kind.Type) -> Result
}

/// Starts a voice's synthesized kind (`Mixer.processStartVoice`). Render thread: safe.
struct SynthStart: SynthKindVisitor {
    let voice: UnsafeMutablePointer<Voice>
    let synth: Synth

    @inline(__always) func visit<Kind: SynthKind>(_ kind: Kind.Type) {
        voice.pointee.synthState.store(Kind.start(synth))
    }
}

/// Renders a voice's synthesized kind (`Voice.render`). Render thread: safe.
struct SynthRender: SynthKindVisitor {
    let voice: UnsafeMutablePointer<Voice>
    let synth: Synth
    let bus: UnsafeMutablePointer<Float>
    let frameCount: Int
    let modulation: Voice.Modulation
    let context: VoiceRenderContext

    @inline(__always) func visit<Kind: SynthKind>(_ kind: Kind.Type) -> Int {
        // The kind's state out of the voice for the call (a copy in registers and on the
        // stack, so the kernel's loop reads no memory through the voice), and back after it.
        var state = voice.pointee.synthState.load(Kind.State.self)
        let sounded = Kind.render(&voice.pointee, &state, synth, into: bus, frameCount: frameCount, modulation, context)
        voice.pointee.synthState.store(state)
        return sounded
    }
}

/// Whether a kind index is in the table (`Mixer.isValid`). Render thread: safe.
struct SynthExists: SynthKindVisitor {
    @inline(__always) func visit<Kind: SynthKind>(_ kind: Kind.Type) {}
}
