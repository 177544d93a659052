extension RumblePlan {
    /// Plans `compiled` for a rumble device (see the type for the rules).
    public init(_ compiled: CompiledHaptics, options: RumblePlanOptions = .init()) {
        self.init(placed: [(0, compiled)], options: options)
    }

    /// Plans several patterns placed on one timeline — a session's haptic cues, each
    /// starting at `startMilliseconds`. Each pattern is stepped on its own 50 ms grid from
    /// its start; where continuous tracks overlap, their magnitudes add per motor (clamped
    /// to 0xFFFF, as the kernel's memless driver sums simultaneous effects); transients
    /// share the transient voices in time order.
    public init(placed: [(startMilliseconds: Int, pattern: CompiledHaptics)], options: RumblePlanOptions = .init()) {
        self.init(sampledPieces: placed.lazy.map { ($0.startMilliseconds, $0.pattern.sampled(rate: 1000)) }, options: options)
    }

    /// Plans streams already sampled at 1 kHz, each starting at `startMilliseconds` (a
    /// session's combined haptic signal in pieces: pieces that start on the 50 ms grid and
    /// follow one another step exactly as one stream would). Rules as for `init(placed:)`.
    public init<Pieces: Sequence>(sampledPieces: Pieces, options: RumblePlanOptions = .init())
    where Pieces.Element == (Int, SampledHaptics) {
        var levels: [Level] = []
        var pulses: [Pulse] = []
        for (offset, sampled) in sampledPieces {
            let own = Self.transientPulses(sampled, options)
            let merged = options.transientVoices == 0 ? own : []
            levels += Self.continuousLevels(sampled, mergedPulses: merged, options).map {
                Level(start: $0.start + offset, end: $0.end + offset, magnitudes: $0.magnitudes)
            }
            if options.transientVoices > 0 {
                pulses += own.map { Pulse(time: $0.time + offset, length: $0.length, magnitudes: $0.magnitudes) }
            }
        }
        var steps: [Step] = []
        var end = 0
        let sum = Self.sum(levels)
        for (index, level) in sum.enumerated() {
            var pieceStart = level.start
            while pieceStart < level.end {
                let length = min(options.refreshMilliseconds, level.end - pieceStart)
                steps.append(Step(time: pieceStart, action: .play(
                    voice: 0, magnitudes: level.magnitudes, lengthMilliseconds: length + options.slackMilliseconds)))
                pieceStart += length
            }
            if index + 1 == sum.count || sum[index + 1].start != level.end {
                steps.append(Step(time: level.end, action: .stop(voice: 0)))
            }
            end = max(end, level.end)
        }
        if options.transientVoices > 0 {
            var freeAt = [Int](repeating: Int.min, count: options.transientVoices)
            for pulse in pulses.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }).map(\.element) {
                let voice = freeAt.firstIndex { $0 <= pulse.time } ?? freeAt.indices.min { freeAt[$0] < freeAt[$1] }!
                freeAt[voice] = pulse.time + pulse.length
                steps.append(Step(time: pulse.time, action: .play(
                    voice: voice + 1, magnitudes: pulse.magnitudes, lengthMilliseconds: pulse.length)))
                end = max(end, pulse.time + pulse.length)
            }
        }
        // Stable: by time, stops before plays, then the order added (continuous first).
        let sorted = steps.enumerated().sorted { a, b in
            (a.element.time, a.element.isStop ? 0 : 1, a.offset) < (b.element.time, b.element.isStop ? 0 : 1, b.offset)
        }.map(\.element)
        self.init(steps: sorted, voiceCount: 1 + options.transientVoices, durationMilliseconds: end)
    }

    /// A stretch of the continuous track at constant magnitudes, `start..<end` in ms.
    struct Level: Equatable {
        var start: Int
        var end: Int
        var magnitudes: RumbleMagnitudes
    }

    /// A transient pulse: start and length in ms.
    struct Pulse {
        var time: Int
        var length: Int
        var magnitudes: RumbleMagnitudes
    }

    /// The continuous track in steps, equal neighbours merged, silent stretches left out.
    /// `mergedPulses` (with no transient voices) raise each step they touch to at least
    /// their magnitudes, per motor.
    static func continuousLevels(_ sampled: SampledHaptics, mergedPulses: [Pulse], _ options: RumblePlanOptions) -> [Level] {
        var levels: [Level] = []
        var start = 0
        while start < sampled.frameCount {
            let stop = min(sampled.frameCount, start + options.stepMilliseconds)
            var m = stepMagnitudes(sampled.intensity[start..<stop], sampled.sharpness[start..<stop], options.mapping)
            for pulse in mergedPulses where pulse.time < stop && pulse.time + pulse.length > start {
                m = RumbleMagnitudes(strong: max(m.strong, pulse.magnitudes.strong), weak: max(m.weak, pulse.magnitudes.weak))
            }
            if let last = levels.last, last.magnitudes == m, last.end == start {
                levels[levels.count - 1].end = stop
            } else if !m.isZero {
                levels.append(Level(start: start, end: stop, magnitudes: m))
            }
            start = stop
        }
        return levels
    }

    /// A continuous step's magnitudes: its mean intensity and intensity-weighted mean
    /// sharpness through `mapping`.
    static func stepMagnitudes(_ intensity: ArraySlice<Float>, _ sharpness: ArraySlice<Float>,
                               _ mapping: RumbleMapping) -> RumbleMagnitudes {
        var sum = 0.0, weighted = 0.0
        for (i, s) in zip(intensity, sharpness) {
            sum += Double(i)
            weighted += Double(i) * Double(s)
        }
        return mapping.magnitudes(intensity: sum / Double(max(1, intensity.count)), sharpness: sum > 0 ? weighted / sum : 0)
    }

    /// Overlapping levels added per motor (saturating), equal neighbours merged.
    static func sum(_ levels: [Level]) -> [Level] {
        guard levels.count > 1 else { return levels }
        let edges = Array(Set(levels.flatMap { [$0.start, $0.end] })).sorted()
        let byStart = levels.sorted { $0.start < $1.start }
        var result: [Level] = []
        var active: [Level] = []
        var next = 0
        for (a, b) in zip(edges, edges.dropFirst()) {
            active.removeAll { $0.end <= a }
            while next < byStart.count && byStart[next].start <= a {
                if byStart[next].end > a { active.append(byStart[next]) }
                next += 1
            }
            guard !active.isEmpty else { continue }
            var strong = 0, weak = 0
            for level in active {
                strong += Int(level.magnitudes.strong)
                weak += Int(level.magnitudes.weak)
            }
            let m = RumbleMagnitudes(strong: UInt16(min(strong, 65535)), weak: UInt16(min(weak, 65535)))
            if let last = result.last, last.magnitudes == m, last.end == a {
                result[result.count - 1].end = b
            } else {
                result.append(Level(start: a, end: b, magnitudes: m))
            }
        }
        return result
    }

    /// Transients as pulses of at least the minimum length; silent ones dropped.
    static func transientPulses(_ sampled: SampledHaptics, _ options: RumblePlanOptions) -> [Pulse] {
        sampled.transients.compactMap { t in
            let m = options.mapping.magnitudes(intensity: Double(t.intensity), sharpness: Double(t.sharpness))
            return m.isZero ? nil : Pulse(time: t.frame, length: options.minimumTransientMilliseconds, magnitudes: m)
        }
    }
}

extension RumblePlan.Step {
    var isStop: Bool {
        if case .stop = action { return true }
        return false
    }
}
