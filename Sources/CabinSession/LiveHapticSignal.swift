import CabinAudio
import CabinHaptics

/// The session's haptic signal as it plays live: ``SessionHapticSignal``'s layers and cues,
/// with the parameters the render thread published (``HapticFeed``) in place of the
/// timeline's curves — so a `+`/`−` speed change, `cabin ctl set` or a `leave-focus` fall
/// moves a layer's intensity as it moves the engine — and the haptic cues live events
/// made added where they were sent. What a live haptic player (`SessionRumble`) feels.
///
/// A parameter value at time `t` is the last published state at or before `t` (blocks are a
/// few milliseconds apart); before the first state, or for a parameter the feed does not
/// carry (one no haptic layer reads), the timeline's own curve.
///
/// Thread: one consumer thread (allocates: not for the render thread).
public struct LiveHapticSignal {
    var signal: SessionHapticSignal
    let hapticPatterns: [String: CompiledHaptics]
    let sampleRate: Double
    /// Published states, by frame (a jump back — a seek — drops those after it).
    var states: [HapticFeed.State] = []
    /// Every transient with its segment, its intensity before the maps and its own
    /// sharpness, sorted by time.
    public private(set) var transients: [Pending] = []
    /// Segments that live events added (forgotten when the session jumps back before them).
    var liveSegments: Set<Int> = []
    /// Each session parameter's slot in the feed's states (−1: not carried).
    let slots: [Int]

    /// A transient whose maps apply when it is felt.
    public struct Pending: Sendable {
        /// When it is felt, in seconds from the session's start.
        public var time: Double
        var segment: Int
        var intensity: Double
        var sharpness: Double
    }

    /// The signal of `session`, reading states of a feed that carries `carried` (by default
    /// what ``HapticFeed/init(_:capacity:)`` carries for it).
    public init(_ session: CompiledSession, carried: [Int]? = nil) {
        var slots = [Int](repeating: -1, count: session.config.parameters.count)
        for (i, p) in (carried ?? HapticFeed.carriedParameters(of: session)).enumerated() where p < slots.count { slots[p] = i }
        self.slots = slots
        signal = SessionHapticSignal(building: session)
        hapticPatterns = session.hapticPatterns
        sampleRate = session.sampleRate
        var all: [Pending] = []
        for i in signal.segments.indices { all += pending(segment: i) }
        transients = all.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// Seconds of the session.
    public var duration: Double { signal.duration }

    private func pending(segment i: Int) -> [Pending] {
        var list: [Pending] = []
        let segment = signal.segments[i]
        SessionHapticSignal.forEachTransient(of: segment, pattern: signal.patterns[segment.pattern],
                                             until: signal.duration) { t, intensity, sharpness in
            if intensity > 0 { list.append(Pending(time: t, segment: i, intensity: intensity, sharpness: sharpness)) }
        }
        return list
    }

    /// Takes a state the render thread published.
    public mutating func receive(_ state: HapticFeed.State) {
        while let last = states.last, last.frame >= state.frame { states.removeLast() }
        states.append(state)
    }

    /// Forgets states older than `t` seconds (keeping the one in force at `t`).
    public mutating func forget(before t: Double) {
        let frame = FrameTime(t * sampleRate)
        var keep = 0
        while keep + 1 < states.count && states[keep + 1].frame <= frame { keep += 1 }
        if keep > 0 { states.removeFirst(keep) }
    }

    /// The session jumped back to `t` (a seek): live cues after it and states past it are
    /// forgotten, as they belong to a stretch of the timeline that will play again.
    public mutating func jumped(back t: Double) {
        let frame = FrameTime(t * sampleRate)
        states.removeAll { $0.frame > frame }
        let forgotten = liveSegments.filter { signal.segments[$0].origin > t }
        guard !forgotten.isEmpty else { return }
        for i in forgotten {
            signal.segments[i].end = signal.segments[i].start  // silent from now on
            liveSegments.remove(i)
        }
        transients.removeAll { forgotten.contains($0.segment) }
    }

    /// A haptic cue a live event started at session frame `frame` (`leave-focus`): the
    /// pattern plays from there, added to the rest. False when the session has no such
    /// pattern.
    @discardableResult
    public mutating func trigger(pattern name: String, frame: FrameTime) -> Bool {
        guard let compiled = hapticPatterns[name] else { return false }
        let p = signal.pattern(named: name, compiled)
        let t = Double(frame) / sampleRate
        signal.segments.append(.init(pattern: p, origin: t, start: t,
                                     end: t + Double(signal.patterns[p].intensity.count) / SessionHapticSignal.controlRate,
                                     isLooping: false, envelope: [], intensity: nil, sharpness: nil))
        let i = signal.segments.count - 1
        liveSegments.insert(i)
        let added = pending(segment: i)
        guard !added.isEmpty else { return true }
        let merged = (transients + added).enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        transients = merged.map(\.element)
        return true
    }

    /// Parameter `p` at `t` seconds: the last published state at or before `t`, else the
    /// timeline's curve.
    public func parameter(_ p: Int, at t: Double) -> Double {
        let frame = FrameTime((t * sampleRate).rounded())
        if p < slots.count, slots[p] >= 0 {
            let slot = slots[p]
            var lo = 0, hi = states.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if states[mid].frame <= frame { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { return states[lo - 1].values[slot] }
            if let first = states.first, first.frame - frame < FrameTime(sampleRate) { return first.values[slot] }
        }
        return p < signal.parameters.count ? SessionHapticSignal.value(signal.parameters[p], at: t) : 0
    }

    /// The continuous signal at `t` seconds with the live parameters; `heldSharpness` where
    /// nothing is felt.
    public func value(at t: Double, heldSharpness: Double) -> (intensity: Double, sharpness: Double) {
        signal.value(at: t, heldSharpness: heldSharpness, among: signal.segments.indices) { parameter($0, at: t) }
    }

    /// The continuous signal on the 1 kHz grid for `count` points from millisecond `start`
    /// (intensity, sharpness). The instances that sound in the stretch are picked once, so
    /// each point evaluates those few, not every cue of the session.
    public func sampled(fromMilliseconds start: Int, count: Int, heldSharpness: Double) -> (intensity: [Float], sharpness: [Float]) {
        var intensity = [Float](repeating: 0, count: count), sharpness = [Float](repeating: 0, count: count)
        var held = heldSharpness
        let from = Double(start - 1) / SessionHapticSignal.controlRate, to = Double(start + count + 1) / SessionHapticSignal.controlRate
        let window = signal.segments.indices.filter { signal.segments[$0].start < to && signal.segments[$0].end > from }
        for k in 0..<count {
            let t = Double(start + k) / SessionHapticSignal.controlRate
            let v = signal.value(at: t, heldSharpness: held, among: window) { parameter($0, at: t) }
            intensity[k] = Float(v.intensity)
            sharpness[k] = Float(v.sharpness)
            held = v.sharpness
        }
        return (intensity, sharpness)
    }

    /// Transient `index` as felt now: its intensity and sharpness with the maps of its
    /// layer at the live parameters (nil when it is not felt).
    public func felt(_ index: Int) -> SessionHapticSignal.Transient? {
        let pending = transients[index]
        let segment = signal.segments[pending.segment]
        guard pending.time < segment.end else { return nil }
        let (scale, offset) = SessionHapticSignal.maps(segment) { parameter($0, at: pending.time) }
        let level = pending.intensity * scale
        guard level > 0 else { return nil }
        return .init(time: pending.time, intensity: min(level, 1), sharpness: min(max(pending.sharpness + offset, 0), 1))
    }

    /// The index of the first transient after `t` seconds.
    public func firstTransient(after t: Double) -> Int {
        var lo = 0, hi = transients.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if transients[mid].time <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
