import CabinAudio
import CabinHaptics

/// The session's haptics as one intensity/sharpness signal: the haptic layers (looped,
/// faded, crossfaded, scaled by their `intensity` and offset by their `sharpness` maps
/// following the parameters on the timeline) and the haptic cues' patterns, combined as
/// Core Haptics combines players — intensities add, clipped to 1; sharpness is the
/// intensity-weighted mean (held where nothing is felt) — plus every transient with its
/// own intensity and sharpness.
///
/// The continuous signal is evaluated on a 1 kHz grid (each pattern sampled once at 1 kHz,
/// `CompiledHaptics.sampled`); a layer's fades and maps apply at each grid point, so a
/// slow parameter ramp moves the level smoothly. Transients land on their exact times.
///
/// Thread: `init` on the control thread (allocates); a `Sweep` evaluates it without
/// allocating, on any one thread at a time.
public struct SessionHapticSignal: Sendable {
    /// Grid points a second.
    public static let controlRate = 1000.0

    struct Pattern: Sendable {
        var intensity: [Float]
        var sharpness: [Float]
        var transients: [SampledHaptics.Transient]
        /// The loop's length in grid points (the pattern's duration).
        var loopLength: Int
    }

    /// One pattern instance: from `start` to `end` (seconds, `end` exclusive), its time 0 at
    /// `origin`, scaled by `envelope` (linear between knots, held beyond) and the maps.
    struct Segment: Sendable {
        var pattern: Int
        var origin: Double
        var start: Double
        var end: Double
        var isLooping: Bool
        var envelope: [(time: Double, gain: Double)]
        var intensity: (parameter: Int, map: LayerMap)?
        var sharpness: (parameter: Int, map: LayerMap)?

        func gain(at t: Double) -> Double {
            guard let first = envelope.first else { return 1 }
            if t <= first.time { return first.gain }
            for i in 1..<envelope.count where t < envelope[i].time {
                let a = envelope[i - 1], b = envelope[i]
                return a.gain + (b.gain - a.gain) * (t - a.time) / (b.time - a.time)
            }
            return envelope[envelope.count - 1].gain
        }
    }

    /// A transient on the session's timeline.
    public struct Transient: Sendable, Equatable {
        /// Seconds from the session's start.
        public var time: Double
        /// Its intensity 0…1, after the layer's `intensity` map (clipped to 1).
        public var intensity: Double
        /// Its sharpness 0…1, after the layer's `sharpness` offset (clamped).
        public var sharpness: Double
    }

    var patterns: [Pattern]
    /// Each pattern's text (the key of `CompiledSession.hapticPatterns`), as `patterns`.
    var patternNames: [String]
    var segments: [Segment]
    /// Each parameter's value over time: (seconds, value) knots, linear between them.
    let parameters: [[(time: Double, value: Double)]]
    /// Every transient, sorted by time.
    public let transients: [Transient]
    /// Seconds of the session.
    public let duration: Double

    /// The signal of `session`'s haptic layers and haptic cues (nil when the session has no
    /// haptic layer: its cues alone play as they always have, each pattern on its own).
    public init?(_ session: CompiledSession) {
        guard !session.hapticLayers.isEmpty else { return nil }
        self.init(building: session)
    }

    /// The signal of every haptic cue and layer, also when there is no layer (what a live
    /// player follows: ``LiveHapticSignal``).
    package init(building session: CompiledSession) {
        let rate = session.sampleRate
        duration = session.duration
        var patternIndex: [String: Int] = [:]
        var patterns: [Pattern] = []
        var names: [String] = []
        /// A looping layer's pattern is sampled as a loop (`CompiledHaptics.looped`: its
        /// last release over its start), under a name no cue can give.
        func pattern(_ text: String, looping: Bool = false) -> Int? {
            let key = looping ? "loop:" + text : text
            if let i = patternIndex[key] { return i }
            guard let compiled = session.hapticPatterns[text] else { return nil }
            patterns.append(Self.pattern(looping ? compiled.looped() : compiled))
            patternIndex[key] = patterns.count - 1
            names.append(looping ? "\u{0}" + key : text)
            return patterns.count - 1
        }
        func mapped(_ map: LayerMap?) -> (parameter: Int, map: LayerMap)? {
            guard let map, let id = session.config.parameter(named: map.parameter) else { return nil }
            return (Int(id.index), map)
        }
        var segments: [Segment] = []
        for cue in session.haptics {
            guard let p = pattern(cue.pattern) else { continue }
            let t = Double(cue.frame) / rate
            segments.append(Segment(pattern: p, origin: t, start: t,
                                    end: t + Double(patterns[p].intensity.count) / Self.controlRate,
                                    isLooping: false, envelope: [], intensity: nil, sharpness: nil))
        }
        for layer in session.hapticLayers {
            var current: Int?
            var text = layer.pattern
            func open(_ name: String, at t: Double, fade: Double) {
                guard let p = pattern(name, looping: layer.isLooping) else { return }
                segments.append(Segment(pattern: p, origin: t, start: t, end: .infinity, isLooping: layer.isLooping,
                                        envelope: fade > 0 ? [(t, 0), (t + fade, 1)] : [(t, 1)],
                                        intensity: mapped(layer.intensity), sharpness: mapped(layer.sharpness)))
                current = segments.count - 1
            }
            func close(at t: Double, fade: Double) {
                guard let c = current else { return }
                let g = segments[c].gain(at: t)
                segments[c].envelope.removeAll { $0.time >= t }
                segments[c].envelope += fade > 0 ? [(t, g), (t + fade, 0)] : [(t, 0)]
                segments[c].end = t + fade
                current = nil
            }
            for event in layer.events {
                let t = Double(event.frame) / rate
                switch event.action {
                case .start(let fade):
                    if current == nil { open(text, at: t, fade: Double(fade) / rate) }
                case .stop(let fade):
                    close(at: t, fade: Double(fade) / rate)
                case .crossfade(let to, let over):
                    text = to
                    if current != nil {
                        close(at: t, fade: Double(over) / rate)
                        open(to, at: t, fade: Double(over) / rate)
                    }
                }
            }
        }
        for i in segments.indices where !segments[i].isLooping {
            segments[i].end = min(segments[i].end, segments[i].origin + Double(patterns[segments[i].pattern].intensity.count) / Self.controlRate)
        }
        self.patterns = patterns
        self.patternNames = names
        self.segments = segments
        self.parameters = Self.parameterCurves(session)
        var transients: [Transient] = []
        let curves = parameters, until = duration
        for segment in segments {
            Self.forEachTransient(of: segment, pattern: patterns[segment.pattern], until: until) { t, intensity, sharpness in
                let (scale, offset) = Self.maps(segment, at: t, parameters: curves)
                let level = intensity * scale
                guard level > 0 else { return }
                transients.append(Transient(time: t, intensity: min(level, 1), sharpness: min(max(sharpness + offset, 0), 1)))
            }
        }
        self.transients = transients.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// A compiled pattern on the 1 kHz grid.
    static func pattern(_ compiled: CompiledHaptics) -> Pattern {
        let sampled = compiled.sampled(rate: Self.controlRate)
        return Pattern(intensity: sampled.intensity, sharpness: sampled.sharpness, transients: sampled.transients,
                       loopLength: max(1, Int((compiled.duration * Self.controlRate).rounded())))
    }

    /// The index of pattern `name` (added from `compiled` when it is new).
    mutating func pattern(named name: String, _ compiled: CompiledHaptics) -> Int {
        if let i = patternNames.firstIndex(of: name) { return i }
        patterns.append(Self.pattern(compiled))
        patternNames.append(name)
        return patterns.count - 1
    }

    /// Calls `body` with every transient `segment` plays (looping to `until`): its time, its
    /// intensity times the segment's fades, and its own sharpness (the maps not applied).
    static func forEachTransient(of segment: Segment, pattern: Pattern, until: Double,
                                 _ body: (_ time: Double, _ intensity: Double, _ sharpness: Double) -> Void) {
        var base = segment.origin
        repeat {
            for tr in pattern.transients where !segment.isLooping || tr.frame < pattern.loopLength {
                let t = base + Double(tr.frame) / Self.controlRate
                guard t >= segment.start, t < segment.end else { continue }
                body(t, Double(tr.intensity) * segment.gain(at: t), Double(tr.sharpness))
            }
            base += Double(pattern.loopLength) / Self.controlRate
        } while segment.isLooping && base < min(segment.end, until)
    }

    /// The parameters' trajectories from the session's `setParameter` commands.
    static func parameterCurves(_ session: CompiledSession) -> [[(time: Double, value: Double)]] {
        var curves = session.config.parameters.map { [(time: 0.0, value: $0.value)] }
        let rate = session.sampleRate
        for command in session.commands {
            guard case .setParameter(let id, let to, let over) = command.action, Int(id.index) < curves.count else { continue }
            let t = Double(command.time) / rate
            let p = Int(id.index)
            let now = value(curves[p], at: t)
            curves[p].removeAll { $0.time >= t }
            curves[p].append((t, now))
            curves[p].append((t + Double(max(over, 0)) / rate, to))
        }
        return curves
    }

    static func value(_ knots: [(time: Double, value: Double)], at t: Double) -> Double {
        guard let first = knots.first else { return 0 }
        if t <= first.time { return first.value }
        var lo = 0, hi = knots.count - 1
        if t >= knots[hi].time { return knots[hi].value }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if knots[mid].time <= t { lo = mid } else { hi = mid }
        }
        let a = knots[lo], b = knots[hi]
        return b.time == a.time ? b.value : a.value + (b.value - a.value) * (t - a.time) / (b.time - a.time)
    }

    /// A segment's intensity factor and sharpness offset at `t`.
    static func maps(_ segment: Segment, at t: Double, parameters: [[(time: Double, value: Double)]]) -> (Double, Double) {
        maps(segment) { value(parameters[$0], at: t) }
    }

    /// A segment's intensity factor and sharpness offset with parameter `p` at `parameter(p)`.
    @inline(__always)
    static func maps(_ segment: Segment, parameter: (Int) -> Double) -> (Double, Double) {
        let scale = segment.intensity.map { min(max($0.map.value(at: parameter($0.parameter)), 0), 1) } ?? 1
        let offset = segment.sharpness.map { $0.map.value(at: parameter($0.parameter)) } ?? 0
        return (scale, offset)
    }

    /// Intensity and sharpness of the continuous signal at `t` seconds; `heldSharpness` is
    /// returned where nothing is felt.
    public func value(at t: Double, heldSharpness: Double = 0) -> (intensity: Double, sharpness: Double) {
        value(at: t, heldSharpness: heldSharpness, among: segments.indices)
    }

    /// The number of segments (pattern instances: cues and stretches of layers).
    package var segmentCount: Int { segments.count }

    /// Writes the indices of the segments that sound somewhere in `from..<to` (seconds) into
    /// `buffer` (at least `segmentCount` long) and returns how many. Allocation-free.
    func overlapping(from: Double, to: Double, into buffer: UnsafeMutableBufferPointer<Int>) -> Int {
        var n = 0
        for i in segments.indices where segments[i].start < to && segments[i].end > from {
            buffer[n] = i
            n += 1
        }
        return n
    }

    /// ``value(at:heldSharpness:)`` over the segments `indices` only (those that may sound at
    /// `t`: a long session evaluates a window's few instead of all). Allocation-free.
    func value<Indices: Sequence<Int>>(at t: Double, heldSharpness: Double,
                                       among indices: Indices) -> (intensity: Double, sharpness: Double) {
        value(at: t, heldSharpness: heldSharpness, among: indices) { Self.value(parameters[$0], at: t) }
    }

    /// The same with parameter `p` at `parameter(p)` (a live player's values).
    func value<Indices: Sequence<Int>>(at t: Double, heldSharpness: Double, among indices: Indices,
                                       parameter: (Int) -> Double) -> (intensity: Double, sharpness: Double) {
        var sum = 0.0, weighted = 0.0
        accumulate(at: t, among: indices, parameter: parameter, sum: &sum, weighted: &weighted)
        return sum > 0 ? (min(sum, 1), weighted / sum) : (0, heldSharpness)
    }

    /// Adds the levels of the segments `indices` at `t` to `sum` and their levels times
    /// their sharpness to `weighted`. Allocation-free.
    @inline(__always)
    func accumulate<Indices: Sequence<Int>>(at t: Double, among indices: Indices, parameter: (Int) -> Double,
                                            sum: inout Double, weighted: inout Double) {
        for i in indices {
            let segment = segments[i]
            guard t >= segment.start && t < segment.end else { continue }
            let pattern = patterns[segment.pattern]
            var k = Int(((t - segment.origin) * Self.controlRate).rounded())
            if segment.isLooping { k %= pattern.loopLength }
            guard k >= 0, k < pattern.intensity.count else { continue }
            let (scale, offset) = Self.maps(segment, parameter: parameter)
            let level = Double(pattern.intensity[k]) * segment.gain(at: t) * scale
            guard level > 0 else { continue }
            sum += level
            weighted += level * min(max(Double(pattern.sharpness[k]) + offset, 0), 1)
        }
    }

    /// Adds pattern `p` played from `origin` (seconds; no fades, no maps: a live event's cue)
    /// at `t`, as ``accumulate(at:among:parameter:sum:weighted:)``. Allocation-free.
    @inline(__always)
    func accumulate(pattern p: Int, origin: Double, at t: Double, sum: inout Double, weighted: inout Double) {
        let pattern = patterns[p]
        let k = Int(((t - origin) * Self.controlRate).rounded())
        guard t >= origin, k >= 0, k < pattern.intensity.count else { return }
        let level = Double(pattern.intensity[k])
        guard level > 0 else { return }
        sum += level
        weighted += level * min(max(Double(pattern.sharpness[k]), 0), 1)
    }

    /// Every transient of every segment before its layer's maps (those a live player maps
    /// with the parameters as they are when it is felt), sorted by time: its time, segment,
    /// intensity times the segment's fades, and its own sharpness.
    func unmappedTransients() -> [(time: Double, segment: Int, intensity: Double, sharpness: Double)] {
        var all: [(time: Double, segment: Int, intensity: Double, sharpness: Double)] = []
        for (i, segment) in segments.enumerated() {
            Self.forEachTransient(of: segment, pattern: patterns[segment.pattern], until: duration) { t, intensity, sharpness in
                if intensity > 0 { all.append((t, i, intensity, sharpness)) }
            }
        }
        return all.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The signal on the 1 kHz grid from grid point `start` for `count` points, as a
    /// `SampledHaptics` whose frame 0 is `start` (for rumble plans, in pieces).
    public func sampled(from start: Int, count: Int) -> SampledHaptics {
        var intensity = [Float](repeating: 0, count: count)
        var sharpness = [Float](repeating: 0, count: count)
        var held = 0.0
        let window = segments.indices.filter {
            segments[$0].start < Double(start + count + 1) / Self.controlRate && segments[$0].end > Double(start) / Self.controlRate
        }
        for k in 0..<count {
            let v = value(at: Double(start + k) / Self.controlRate, heldSharpness: held, among: window)
            intensity[k] = Float(v.intensity)
            sharpness[k] = Float(v.sharpness)
            held = v.sharpness
        }
        let lower = Double(start) / Self.controlRate, upper = Double(start + count) / Self.controlRate
        let inside = transients.filter { $0.time >= lower && $0.time < upper }.map {
            SampledHaptics.Transient(frame: Int(($0.time * Self.controlRate).rounded()) - start,
                                     intensity: Float($0.intensity), sharpness: Float($0.sharpness))
        }.filter { $0.frame < count }
        return SampledHaptics(sampleRate: Self.controlRate, intensity: intensity, sharpness: sharpness, transients: inside)
    }
}
