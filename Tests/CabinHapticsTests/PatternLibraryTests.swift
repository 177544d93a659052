import CabinHaptics
import CabinTestSupport
import Foundation
import Testing

/// The pattern library (`Patterns/haptics/`): every name the sessions need is there, reads
/// cleanly in strict mode, and its compiled stream does what its description says.
@Suite("Pattern library: names, strictness, shapes")
struct PatternLibraryTests {
    static let root = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics")

    static let required = [
        "seatbelt", "engine-start", "engine-start-v6", "engine-start-four", "engine-start-diesel", "engine-start-vintage",
        "engine-start-electric", "engine-off", "gear-shift", "turn-signal",
        "road-smooth", "road-rough", "speed-bump", "rest-stop", "arrival", "milestone",
        "focus-start", "break-start", "session-end", "toggle", "counter-step", "streak-success", "unlock",
        "warning", "breath-in", "breath-hold", "breath-out", "tick",
    ]

    static func compiled(_ name: String) throws -> CompiledHaptics {
        let bytes = Array(try Data(contentsOf: root.appendingPathComponent("\(name).ahap")))
        let result = HapticReader.read(bytes, file: "\(name).ahap", options: .strict)
        #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics)")
        return HapticCompiler.compile(try #require(result.pattern, "\(name) does not load"))
    }

    /// Intensities of the continuous track every millisecond over `range`.
    static func intensities(_ c: CompiledHaptics, _ range: ClosedRange<Double>) -> [Double] {
        stride(from: range.lowerBound, through: range.upperBound, by: 0.001).map { c.value(at: $0).intensity }
    }

    static func variance(_ xs: [Double]) -> Double {
        let mean = xs.reduce(0, +) / Double(xs.count)
        return xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
    }

    static func gaps(_ c: CompiledHaptics) -> [Double] {
        zip(c.transients.dropFirst(), c.transients).map { $0.time - $1.time }
    }

    @Test(arguments: required)
    func requiredPatternExistsAndReadsStrictlyClean(name: String) throws {
        let c = try Self.compiled(name)
        #expect(c.endTime > 0)
        #expect(c.transients.count + c.breakpoints.count > 0)
    }

    /// Transients sit within 10 ms of the onsets of the sound cued with the pattern
    /// (onsets measured from Sounds/ui/*.opus; they match the recipes' note times).
    @Test(arguments: [
        ("turn-signal", [0.005, 0.405]), ("seatbelt", [0.01, 0.075]), ("gear-shift", [0.005, 0.07]),
        ("milestone", [0, 0.12]), ("focus-start", [0, 0.14]), ("break-start", [0, 0.2]),
        ("session-end", [0, 0.15, 0.3, 0.45]), ("arrival", [0, 0.15, 0.3, 0.45]),
        ("streak-success", [0, 0.09, 0.18, 0.27]), ("unlock", [0.005, 0.05, 0.12]), ("toggle", [0]),
        ("counter-step", [0]),
    ])
    func transientsAreTimedToTheSoundsOnsets(name: String, onsets: [Double]) throws {
        let c = try Self.compiled(name)
        for onset in onsets {
            #expect(c.transients.contains { abs($0.time - onset) <= 0.010 }, "\(name): no transient within 10 ms of \(onset) s")
        }
        // Nothing strong happens before the sound does.
        #expect(c.transients.allSatisfy { $0.time >= onsets[0] - 0.010 })
    }

    @Test func turnSignalIsATickTockWhoseLengthIsItsPeriod() throws {
        let c = try Self.compiled("turn-signal")
        #expect(abs(c.duration - 0.8) < 1e-9, "the loop period is the relay's 0.8 s")
        #expect(c.transients.count == 2)
        let (tick, tock) = (c.transients[0], c.transients[1])
        #expect(abs(tock.time - tick.time - 0.4) < 0.005, "half a period apart")
        #expect(tick.sharpness > tock.sharpness + 0.2 && tick.intensity > tock.intensity, "tick crisp, tock dull")
        // Repeated at its length, the gap from the tock to the next tick is half a period too,
        // and nothing is felt past the end.
        #expect(abs((c.duration + tick.time) - tock.time - 0.4) < 0.005)
        #expect(c.transients.allSatisfy { $0.time + 0.02 <= c.duration })
        #expect(c.breakpoints.allSatisfy { $0.intensity == 0 }, "the period marker is silent")
    }

    @Test(arguments: ["road-smooth", "road-rough"])
    func roadTexturesLoopSeamlessly(name: String) throws {
        let c = try Self.compiled(name)
        #expect(abs(c.duration - 2.0) < 1e-9)
        let start = c.value(at: 0.003), end = c.value(at: c.duration - 0.001)
        #expect(abs(start.intensity - end.intensity) < 0.01, "\(name): level at the seam \(start) vs \(end)")
        #expect(abs(start.sharpness - end.sharpness) < 0.01)
        #expect(Self.intensities(c, 0.003...1.997).allSatisfy { $0 > 0.1 }, "\(name) never drops out")
        #expect(c.transients.allSatisfy { $0.time + 0.02 <= c.duration }, "nothing crosses the end")
    }

    /// Played twice back to back at its length (as a looping player does), a loopable
    /// pattern has no seam: the continuous track does not jump or dip where the repeat
    /// starts, and the transients keep their spacing across it.
    @Test(arguments: ["road-smooth", "road-rough", "turn-signal"])
    func loopablePatternsRepeatWithoutASeam(name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent("\(name).ahap")))
        let once = try #require(HapticReader.read(bytes, file: name, options: .strict).pattern)
        let period = once.duration
        var twice = once
        twice.events += once.events.map { var e = $0; e.time += period; return e }
        twice.parameterCurves += once.parameterCurves.map { var c = $0; c.time += period; return c }
        twice.dynamicParameters += once.dynamicParameters.map { var d = $0; d.time += period; return d }
        let single = HapticCompiler.compile(once), double = HapticCompiler.compile(twice)
        #expect(abs(double.duration - 2 * period) < 1e-9)
        let seam = stride(from: period - 0.05, through: period + 0.05, by: 0.0005).map { double.value(at: $0).intensity }
        let steps = zip(seam.dropFirst(), seam).map { abs($0 - $1) }
        #expect(steps.max()! < 0.02, "\(name): a jump of \(steps.max()!) at the seam")
        if single.breakpoints.contains(where: { $0.intensity > 0 }) {
            let level = single.value(at: 0.01).intensity
            #expect(seam.min()! > 0.9 * min(level, single.value(at: period - 0.01).intensity), "\(name) dips at the seam")
        }
        // The second pass starts where the first's rhythm says it should.
        #expect(double.transients.count == 2 * single.transients.count)
        let times = double.transients.map(\.time)
        #expect(zip(times.dropFirst(single.transients.count), times).allSatisfy { abs($0 - $1 - period) < 1e-9 })
        if name == "turn-signal" {
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            #expect(gaps.allSatisfy { abs($0 - 0.4) < 0.005 }, "tick, tock, tick, tock evenly: \(gaps)")
        }
    }

    @Test func roughRoadVariesMoreAndIsCoarserThanSmoothRoad() throws {
        let smooth = try Self.compiled("road-smooth"), rough = try Self.compiled("road-rough")
        let vs = Self.variance(Self.intensities(smooth, 0.003...1.997))
        let vr = Self.variance(Self.intensities(rough, 0.003...1.997))
        #expect(vr > 10 * vs, "rough \(vr) vs smooth \(vs)")
        #expect(smooth.transients.isEmpty && rough.transients.count >= 3, "jolts only on the rough road")
        #expect(rough.value(at: 1).sharpness > smooth.value(at: 1).sharpness + 0.15)
        #expect(Self.intensities(smooth, 0.003...1.997).allSatisfy { $0 < 0.35 }, "the smooth road stays faint")
    }

    @Test func speedBumpIsTwoStrongDullThumpsApart() throws {
        let c = try Self.compiled("speed-bump")
        #expect(c.transients.count == 2)
        let gap = c.transients[1].time - c.transients[0].time
        #expect((0.15...0.3).contains(gap), "front and rear wheels \(gap) s apart")
        #expect(c.transients.allSatisfy { $0.intensity >= 0.85 && $0.sharpness <= 0.4 })
    }

    @Test func warningIsStrongSharpAndNotASpeedBump() throws {
        let warning = try Self.compiled("warning"), bump = try Self.compiled("speed-bump")
        #expect(warning.transients.count >= 3)
        #expect(warning.transients.allSatisfy { $0.intensity >= 0.9 && $0.sharpness >= 0.7 })
        #expect(warning.transients.count != bump.transients.count)
    }

    @Test func breathHoldIsFlat() throws {
        let c = try Self.compiled("breath-hold")
        #expect(abs(c.duration - 4) < 1e-9, "as long as the preset's 4 s hold")
        let body = Self.intensities(c, 0.2...3.8)
        #expect(body.max()! - body.min()! < 0.01, "flat body")
        #expect(body.min()! > 0.3, "felt, not silent")
        let sharp = stride(from: 0.2, through: 3.8, by: 0.01).map { c.value(at: $0).sharpness }
        #expect(sharp.max()! - sharp.min()! < 0.01)
        #expect(c.transients.isEmpty)
    }

    @Test func pomodoroTransitionsAreDistinguishable() throws {
        let focus = try Self.compiled("focus-start"), rest = try Self.compiled("break-start")
        let end = try Self.compiled("session-end")
        func meanSharpness(_ c: CompiledHaptics) -> Double {
            c.transients.map(\.sharpness).reduce(0, +) / Double(c.transients.count)
        }
        // Focus: two crisp rising taps; break: two dull falling ones, further apart; end: four.
        #expect(focus.transients.count == 2 && rest.transients.count == 2 && end.transients.count == 4)
        #expect(focus.transients[1].intensity > focus.transients[0].intensity)
        #expect(rest.transients[1].intensity < rest.transients[0].intensity)
        #expect(abs(Self.gaps(focus)[0] - Self.gaps(rest)[0]) >= 0.05, "different rhythm")
        #expect(meanSharpness(focus) > meanSharpness(rest) + 0.4, "focus crisp, break soft")
        #expect(end.transients.map(\.intensity) == end.transients.map(\.intensity).sorted(), "the end climbs")
        #expect(Self.gaps(end).allSatisfy { abs($0 - 0.15) < 0.005 })
        // The break exhales: a felt continuous tail long after its taps.
        #expect(rest.value(at: 0.6).intensity > 0.1 && focus.value(at: 0.6).intensity == 0)
    }

    @Test func arrivalCelebratesBeyondTheSessionEnd() throws {
        let arrival = try Self.compiled("arrival"), end = try Self.compiled("session-end")
        // The arpeggio's four taps, then confetti: crisp 25 ms sparkles over the swell (no
        // taps: the sound has no onset there), each a step up of the continuous track, thinning out.
        #expect(arrival.transients.count == end.transients.count)
        // Where the track rises by more than 0.1 within 3 ms after the arpeggio: each sparkle's start.
        let track = arrival.sampled().intensity
        var rises: [(ms: Int, rise: Float)] = []
        for ms in 500..<(track.count - 3) where track[ms + 3] - track[ms] > 0.1 && (rises.last.map { ms - $0.ms > 10 } ?? true) {
            rises.append((ms, track[ms + 3] - track[ms]))
        }
        #expect(rises.count >= 5, "confetti after the arpeggio: \(rises.map(\.ms))")
        #expect(rises.last!.rise < rises.first!.rise, "the confetti thins out: \(rises.map(\.rise))")
    }

    @Test(arguments: ["toggle", "counter-step", "tick"])
    func uiTapsAreShort(name: String) throws {
        let c = try Self.compiled(name)
        #expect(c.endTime < 0.1, "\(name) lasts \(c.endTime) s")
        #expect(c.transients.count == 1)
    }

    @Test func uiTapsDifferFromEachOther() throws {
        let toggle = try Self.compiled("toggle").transients[0], step = try Self.compiled("counter-step").transients[0]
        #expect(toggle.sharpness > step.sharpness + 0.2, "the toggle is crisper than the counter's wooden step")
        #expect(step.intensity < toggle.intensity, "a run of steps stays light")
        let streak = try Self.compiled("streak-success")
        #expect(streak.transients.count >= 3)
        #expect(Array(streak.transients.prefix(3).map(\.intensity)) == streak.transients.prefix(3).map(\.intensity).sorted())
    }

    @Test func electricStartHasNoCrankingAndNoRumble() throws {
        let electric = try Self.compiled("engine-start-electric"), combustion = try Self.compiled("engine-start")
        #expect(electric.transients.count == 1, "one contactor click, no starter pulses")
        #expect(combustion.transients.count >= 5, "the combustion start cranks")
        let body = stride(from: 0.8, through: 2.0, by: 0.01)
        let sharpE = body.map { electric.value(at: $0).sharpness }.reduce(0, +)
        let sharpC = body.map { combustion.value(at: $0).sharpness }.reduce(0, +)
        #expect(sharpE > sharpC + 0.3 * Double(body.underestimatedCount), "a bright whir, not a low rumble")
    }

    @Test func engineOffAndRestStopWindDown() throws {
        let off = try Self.compiled("engine-off")
        #expect(off.value(at: 0.1).intensity > off.value(at: 1.0).intensity)
        #expect(off.value(at: 1.0).intensity > off.value(at: 2.0).intensity)
        #expect(off.transients.count == 1 && off.transients[0].time > 2, "the last shudder comes at the end")
        let rest = try Self.compiled("rest-stop")
        #expect(rest.value(at: 0.1).intensity > 3 * rest.value(at: 2.7).intensity, "the rumble slows and softens")
        let seams = Array(Self.gaps(rest).dropLast())
        #expect(seams == seams.sorted() && seams.count >= 3, "seams come slower and slower")
        #expect(rest.transients.last!.sharpness < 0.2, "the car settles with a soft nod")
    }
}
