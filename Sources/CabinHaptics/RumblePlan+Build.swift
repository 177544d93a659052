extension RumblePlan {
    /// Plans `compiled` for a rumble device (see the type for the rules).
    public init(_ compiled: CompiledHaptics, options: RumblePlanOptions = .init()) {
        let sampled = compiled.sampled(rate: 1000)
        let pulses = Self.transientPulses(sampled, options)
        var steps: [Step] = []
        var end = 0

        // Continuous track: steps → runs → pieces.
        let step = options.stepMilliseconds
        var levels: [(start: Int, end: Int, magnitudes: RumbleMagnitudes)] = []
        var start = 0
        while start < sampled.frameCount {
            let stop = min(sampled.frameCount, start + step)
            var sum = 0.0, weighted = 0.0
            for k in start..<stop {
                sum += Double(sampled.intensity[k])
                weighted += Double(sampled.intensity[k]) * Double(sampled.sharpness[k])
            }
            var m = options.mapping.magnitudes(intensity: sum / Double(stop - start),
                                               sharpness: sum > 0 ? weighted / sum : 0)
            if options.transientVoices == 0 {
                for pulse in pulses where pulse.time < stop && pulse.time + pulse.length > start {
                    m = RumbleMagnitudes(strong: max(m.strong, pulse.magnitudes.strong),
                                         weak: max(m.weak, pulse.magnitudes.weak))
                }
            }
            if let last = levels.last, last.magnitudes == m, last.end == start {
                levels[levels.count - 1].end = stop
            } else {
                levels.append((start, stop, m))
            }
            start = stop
        }
        for (index, level) in levels.enumerated() where !level.magnitudes.isZero {
            var pieceStart = level.start
            while pieceStart < level.end {
                let length = min(options.refreshMilliseconds, level.end - pieceStart)
                steps.append(Step(time: pieceStart, action: .play(
                    voice: 0, magnitudes: level.magnitudes, lengthMilliseconds: length + options.slackMilliseconds)))
                pieceStart += length
            }
            let next = index + 1 < levels.count ? levels[index + 1] : nil
            if next == nil || next!.magnitudes.isZero {
                steps.append(Step(time: level.end, action: .stop(voice: 0)))
            }
            end = max(end, level.end)
        }

        // Transients on their own voices.
        if options.transientVoices > 0 {
            var freeAt = [Int](repeating: 0, count: options.transientVoices)
            for pulse in pulses {
                let voice = freeAt.firstIndex { $0 <= pulse.time }
                    ?? freeAt.indices.min { freeAt[$0] < freeAt[$1] }!
                freeAt[voice] = pulse.time + pulse.length
                steps.append(Step(time: pulse.time, action: .play(
                    voice: voice + 1, magnitudes: pulse.magnitudes, lengthMilliseconds: pulse.length)))
                end = max(end, pulse.time + pulse.length)
            }
        }

        // Stable: by time, stops before plays, then the order added (continuous first).
        let sorted = steps.enumerated().sorted { a, b in
            let ka = (a.element.time, a.element.isStop ? 0 : 1, a.offset)
            let kb = (b.element.time, b.element.isStop ? 0 : 1, b.offset)
            return ka < kb
        }.map(\.element)
        self.init(steps: sorted, voiceCount: 1 + options.transientVoices, durationMilliseconds: end)
    }

    /// Transients as pulses: start (ms), length (≥ the minimum), magnitudes; silent ones dropped.
    static func transientPulses(_ sampled: SampledHaptics, _ options: RumblePlanOptions)
        -> [(time: Int, length: Int, magnitudes: RumbleMagnitudes)] {
        sampled.transients.compactMap { t in
            let m = options.mapping.magnitudes(intensity: Double(t.intensity), sharpness: Double(t.sharpness))
            return m.isZero ? nil : (t.frame, options.minimumTransientMilliseconds, m)
        }
    }
}

extension RumblePlan.Step {
    var isStop: Bool {
        if case .stop = action { return true }
        return false
    }
}
