import CabinAudio
import Glibc

/// Where a station's decoded audio waits before the mixer's stream ring, and the live-stream
/// policy that moves it there: start once `highWaterSeconds` is buffered; keep the ring fed;
/// when the ring falls below `lowWaterSeconds` with nothing new, conceal (Opus PLC, through
/// `conceal`) for up to `maximumConcealSeconds`, then fade the last held-back frames to
/// silence and buffer again; the first frames after a (re)start fade in. A connection that
/// ends while the ring still plays (a reconnection faster than the buffer runs dry) fades
/// out at its last frame and the next connection's audio fades in after it (`resumed`),
/// so the splice of two streams never clicks.
///
/// Pure apart from the ring it writes to (`RadioRing`): tests drive it with a plain counter.
///
/// Thread: the station's thread only.
public struct RadioBuffer: Sendable {
    /// Whether the buffer is waiting for `highWaterSeconds` of audio or handing audio to the ring.
    public enum State: Sendable, Equatable {
        /// Waiting until `highWaterSeconds` of audio are pending (nothing goes to the ring).
        case buffering
        /// Handing audio to the ring as it has room.
        case playing
    }
    /// A change of `state` that `step` reports, for the station's events.
    public enum Transition: Sendable, Equatable {
        /// Playing from buffering (the first audio, or after the ring ran dry).
        case started
        /// The ring ran dry: faded out, buffering again.
        case starved
        /// A new connection's audio follows the last one's without the ring running dry.
        case resumed
    }

    /// Frames a second, of what is appended and what goes to the ring.
    public let sampleRate: Double
    /// Seconds buffered before playing starts (and again after the ring ran dry).
    public var highWaterSeconds = 1.0
    /// Below this many seconds in the ring with nothing new pending, the gap is concealed.
    public var lowWaterSeconds = 0.15
    /// The most seconds concealed (Opus packet-loss concealment) before fading out to buffer again.
    public var maximumConcealSeconds = 0.2
    /// Frames kept back from the ring while playing, to fade out if the stream stops.
    public var holdbackSeconds = 0.02
    /// Length of the fades in and out.
    public var fadeSeconds = 0.02
    /// Pending audio beyond this is dropped (oldest first): nobody is playing the stream.
    public var maximumPendingSeconds = 20.0

    /// Buffering or playing (see `step`).
    public private(set) var state = State.buffering
    /// Interleaved stereo frames not yet in the ring, from `start`.
    private var pending: [Float] = []
    private var start = 0
    private var concealed = 0
    /// The next audio appended is a new connection's, after a faded-out end (`connectionEnded`).
    private var splicing = false
    private var resumed = false
    /// Frames dropped because the ring and the pending buffer were full.
    public private(set) var droppedFrames = 0

    /// An empty buffer, buffering, for audio at `sampleRate`.
    public init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// Frames appended and not yet handed to the ring.
    public var pendingFrames: Int { (pending.count - start) / 2 }
    private func frames(_ seconds: Double) -> Int { Int(seconds * sampleRate) }

    /// Adds decoded frames (at `sampleRate`); real audio ends any concealment.
    public mutating func append(_ frames: UnsafeBufferPointer<Float>) {
        guard frames.count >= 2 else { return }
        let offset = pendingFrames
        pending.append(contentsOf: frames.prefix(frames.count & ~1))
        concealed = 0
        if splicing {
            splicing = false
            resumed = true
            fade(from: offset, count: self.frames(fadeSeconds), rising: true)
        }
        let excess = pendingFrames - self.frames(maximumPendingSeconds)
        if excess > 0 {
            start += 2 * excess
            droppedFrames += excess
        }
        compact()
    }

    /// Adds decoded frames (interleaved stereo, at `sampleRate`); real audio ends any concealment.
    public mutating func append(_ frames: [Float]) { frames.withUnsafeBufferPointer { append($0) } }

    /// Drops what is pending and starts buffering afresh (a new connection).
    public mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        start = 0
        concealed = 0
        splicing = false
        resumed = false
        state = .buffering
    }

    /// The connection ended (it will be retried). Playing: what is held back fades out into
    /// the ring now, and the next connection's first audio fades in (`step` then says
    /// `.resumed`). Buffering: its audio is stale, so it is dropped.
    public mutating func connectionEnded(_ ring: some RadioRing) {
        guard state == .playing else {
            reset()
            return
        }
        fade(from: max(0, pendingFrames - frames(fadeSeconds)), count: frames(fadeSeconds), rising: false)
        write(to: ring, keeping: 0)
        // Whatever the ring could not take is dropped: it would end in the middle of the fade.
        pending.removeAll(keepingCapacity: true)
        start = 0
        splicing = true
        resumed = false
    }

    /// One step: moves what may go to `ring`; `conceal(frames)` returns made-up frames for a
    /// gap (empty when the codec cannot). Returns what changed.
    ///
    /// `isHeard` false (no voice has played the stream yet: a layer that starts later in the
    /// session): nothing goes to the ring and only the newest `highWaterSeconds` (plus 0.1 s)
    /// are kept, so the layer starts near the live edge instead of on stale audio.
    public mutating func step(_ ring: some RadioRing, isHeard: Bool = true, conceal: (Int) -> [Float]) -> Transition? {
        var transition: Transition?
        if state == .buffering {
            if !isHeard {
                let excess = pendingFrames - frames(highWaterSeconds + 0.1)
                if excess > 0 { start += 2 * excess; compact() }
                return nil
            }
            guard pendingFrames >= frames(highWaterSeconds) else { return nil }
            fade(from: 0, count: frames(fadeSeconds), rising: true)
            state = .playing
            transition = .started
        }
        write(to: ring, keeping: frames(holdbackSeconds))
        if resumed {
            resumed = false
            transition = .resumed
        }
        if ring.availableFrames < frames(lowWaterSeconds) && pendingFrames <= frames(holdbackSeconds) {
            let budget = frames(maximumConcealSeconds) - concealed
            let made = budget > 0 ? conceal(min(budget, frames(0.02))) : []
            if !made.isEmpty {
                let before = concealed
                append(made)
                concealed = before + made.count / 2
                write(to: ring, keeping: frames(holdbackSeconds))
            } else {
                // Fade out what is held back, hand it over, and buffer again.
                fade(from: max(0, pendingFrames - frames(fadeSeconds)), count: frames(fadeSeconds), rising: false)
                write(to: ring, keeping: 0)
                reset()
                transition = .starved
            }
        }
        return transition
    }

    private mutating func write(to ring: some RadioRing, keeping: Int) {
        let count = pendingFrames - keeping
        guard count > 0 else { return }
        let written = pending.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[start..<(start + 2 * count)])) }
        start += 2 * written
        compact()
    }

    private mutating func compact() {
        if start > 0 && start >= pending.count / 2 {
            pending.removeSubrange(0..<start)
            start = 0
        }
    }

    /// An equal-power (sin/cos) ramp over `count` pending frames from frame `offset`.
    private mutating func fade(from offset: Int, count: Int, rising: Bool) {
        let n = min(count, pendingFrames - offset)
        guard n > 0 else { return }
        for i in 0..<n {
            let t = (Double(i) + 0.5) / Double(n)
            let g = Float(rising ? sin(t * .pi / 2) : cos(t * .pi / 2))
            pending[start + 2 * (offset + i)] *= g
            pending[start + 2 * (offset + i) + 1] *= g
        }
    }
}

/// Where a station's frames go: the mixer's `AudioStream` (or a test's stand-in).
///
/// Thread: the station's own thread writes (one producer at a time); `availableFrames` may be
/// read from any thread.
public protocol RadioRing {
    /// Frames written and not yet read.
    var availableFrames: Int { get }
    /// Writes what fits of `frames` (interleaved stereo) and returns the frames written.
    func write(_ frames: UnsafeBufferPointer<Float>) -> Int
}

extension AudioStream: RadioRing {}
