import CabinAudio
import CabinIO
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// The drive's engine, measured on renders of the preset's own engine layers and cues (the
/// other layers, one-shots and speech taken out) with the committed sound library: levels
/// per vehicle, idle against cruise, the bus through an acceleration and a slow-down, the
/// gear changes, load, and the electric motor's whine.
@Suite struct DriveEngineTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static let sampleRate = 48000.0

    /// The preset's engine alone: the `engine` bus's layers and the cues that move them.
    static func engineOnly(_ options: [String: String]) throws -> (SessionDocument, CompiledSession) {
        var doc = try SessionPresets.make("drive", options: options)
        let engine = Set(doc.layers.filter { $0.bus == "engine" }.map(\.name))
        doc.layers = doc.layers.filter { engine.contains($0.name) }
        doc.ducking = []
        // The gains as the preset writes them: the loudness target would bring each engine
        // alone to -20 LUFS (in the whole mix it sets the listening level, not the balance).
        doc.loudness = nil
        doc.cues = doc.cues.compactMap { cue in
            var c = cue
            c.play = nil
            c.say = nil
            c.haptic = nil
            c.crossfade = nil
            c.start = c.start.filter(engine.contains)
            c.stop = c.stop.filter(engine.contains)
            if let fade = c.fade, !engine.contains(fade.layer) { c.fade = nil }
            return c
        }
        let library = try SoundLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Sounds"))
        let sounds = SessionSoundLoader.load(doc, documentFolder: TestEnvironment.packageRoot, library: library,
                                             sampleRate: sampleRate)
        let compiled = SessionCompiler.compile(doc, sounds: sounds, sampleRate: sampleRate)
        #expect(compiled.warnings == [])
        return (doc, compiled)
    }

    /// Mono (the channels' mean) from `from` to `to` seconds.
    static func render(_ compiled: CompiledSession, from: Double, to: Double) -> [Float] {
        let start = FrameTime((from * sampleRate).rounded())
        let runner = SessionRunner(from == 0 ? compiled : compiled.starting(at: start, fadeIn: 0))
        let frames = Int(((to - from) * sampleRate).rounded())
        var stereo = [Float](repeating: 0, count: 2 * frames)
        var done = 0
        stereo.withUnsafeMutableBufferPointer { all in
            while done < frames {
                let n = min(512, frames - done)
                _ = runner.render(into: UnsafeMutableBufferPointer(rebasing: all[(2 * done)..<(2 * (done + n))]), frameCount: n)
                done += n
            }
        }
        return (0..<frames).map { (stereo[2 * $0] + stereo[2 * $0 + 1]) / 2 }
    }

    static func level(_ x: ArraySlice<Float>) -> Double { 20 * log10(SignalAnalysis.rms(x) + 1e-12) }

    /// Levels of consecutive windows of `window` seconds.
    static func levels(_ x: [Float], window: Double) -> [Double] {
        let n = Int(window * sampleRate)
        return stride(from: 0, to: x.count - n + 1, by: n).map { level(x[$0..<($0 + n)]) }
    }

    static func loudness(_ x: [Float]) throws -> Double {
        try #require(try LoudnessMeter.measure(AudioBuffer(samples: x, channelCount: 1, sampleRate: sampleRate)).integrated)
    }

    /// The firing frequency: the strongest autocorrelation lag for 40–300 Hz.
    static func firingFrequency(_ x: [Float], at t: Double, span: Double = 0.3) -> Double {
        let a = Int((t - span / 2) * sampleRate), n = Int(span * sampleRate)
        let seg = x[a..<(a + n)].map(Double.init)
        let lags = Int(sampleRate / 300)...Int(sampleRate / 40)
        let best = lags.max { l, m in
            var u = 0.0, v = 0.0
            for i in 0..<(n - lags.upperBound) { u += seg[i] * seg[i + l]; v += seg[i] * seg[i + m] }
            return u < v
        }!
        return sampleRate / Double(best)
    }

    /// The strongest frequency in `band` (Goertzel at every `step` Hz) over `span` at `t`.
    static func strongest(_ x: [Float], at t: Double, in band: ClosedRange<Double>, step: Double = 5, span: Double = 0.2) -> Double {
        let a = Int((t - span / 2) * sampleRate), n = Int(span * sampleRate)
        let seg = (0..<n).map { Double(x[a + $0]) * (0.5 - 0.5 * cos(2 * .pi * Double($0) / Double(n))) }
        return stride(from: band.lowerBound, through: band.upperBound, by: step).max { f, g in
            power(seg, f) < power(seg, g)
        }!
    }

    static func power(_ x: [Double], _ f: Double) -> Double {
        let w = 2 * cos(2 * .pi * f / sampleRate)
        var s1 = 0.0, s2 = 0.0
        for v in x { (s1, s2) = (v + w * s1 - s2, s1) }
        return s1 * s1 + s2 * s2 - w * s1 * s2
    }

    /// The first speed ramp: 0 → cruise from 8 s over 20 s.
    static func firstRamp(_ doc: SessionDocument) throws -> (Double, Double, Double) {
        let cue = try #require(doc.cues.first { $0.set?.parameter == "speed" })
        return (cue.time, try #require(cue.set).to, try #require(cue.set).over)
    }

    @Test(arguments: ["v8", "v6", "four", "diesel", "vintage"], ["loops", "live"])
    func idleIsTwelveDecibelsUnderCruise(_ vehicle: String, _ engine: String) throws {
        let (doc, compiled) = try Self.engineOnly(["vehicle": vehicle, "engine": engine])
        let (start, _, over) = try Self.firstRamp(doc)
        let idle = try Self.loudness(Self.render(compiled, from: start - 4, to: start))
        let cruise = try Self.loudness(Self.render(compiled, from: start + over + 8, to: start + over + 18))
        print("\(vehicle) (\(engine)): idle \(idle) LUFS, cruise \(cruise) LUFS: idle \(cruise - idle) dB under cruise")
        #expect(abs(idle - cruise + 12) <= 1.5, "\(vehicle) (\(engine)): idle \(idle) LUFS, cruise \(cruise) LUFS")
    }

    @Test(arguments: ["loops", "live"])
    func vehiclesHaveTheirOwnLevel(_ engine: String) throws {
        var cruise: [String: Double] = [:]
        for vehicle in ["v6", "v8", "electric"] {
            let (doc, compiled) = try Self.engineOnly(["vehicle": vehicle, "engine": engine])
            let (start, _, over) = try Self.firstRamp(doc)
            cruise[vehicle] = try Self.loudness(Self.render(compiled, from: start + over + 8, to: start + over + 18))
        }
        let v6 = try #require(cruise["v6"])
        print("\(engine): cruise loudness \(cruise) (against the V6: v8 \(cruise["v8"]! - v6), electric \(cruise["electric"]! - v6) dB)")
        #expect(abs(try #require(cruise["v8"]) - v6 - 3) <= 1, "\(cruise)")
        #expect(abs(try #require(cruise["electric"]) - v6 + 8) <= 1.5, "\(cruise)")
    }

    /// The idle and cruise loops hand over with equal power and the load comes in as the
    /// car pulls away: every half second of the acceleration is within 1 dB of the loudest
    /// before it. And each upshift drops the firing rate as a gearbox does (V6: first gear
    /// tops out at 2600 rpm, second takes over at ~1460).
    @Test(arguments: ["loops", "live"])
    func accelerationRisesWithoutAHoleAndShiftsGears(_ engine: String) throws {
        let (doc, compiled) = try Self.engineOnly(["vehicle": "v6", "engine": engine])
        let (start, _, over) = try Self.firstRamp(doc)
        let x = Self.render(compiled, from: 0, to: start + over + 2)
        let during = Self.levels(Array(x[Int((start + 0.5) * Self.sampleRate)..<Int((start + over) * Self.sampleRate)]), window: 0.5)
        let worst = during.indices.dropFirst().map { during[..<$0].max()! - during[$0] }.max()!
        let rise = during.last! - Self.level(x[Int((start - 3) * Self.sampleRate)..<Int(start * Self.sampleRate)])
        print("\(engine): accelerating, the deepest dip under the loudest before \(worst) dB; \(rise) dB over idle at the end")
        for (i, l) in during.enumerated().dropFirst() {
            #expect(l >= during[..<i].max()! - 1, "window \(i): \(l) dB after \(during[..<i].max()!) dB")
        }
        #expect(rise >= 10)
        // First → second gear at 16.9 mph: the speed reaches it 16.9 / 65 of the way up.
        let target = try #require(doc.cues.first { $0.set?.parameter == "speed" }?.set?.to)
        let shift = start + over * 16.9 / target
        let before = Self.firingFrequency(x, at: shift - 0.3), after = Self.firingFrequency(x, at: shift + 0.4)
        #expect(before > 115 && after / before < 0.7, "firing \(before) Hz before the shift, \(after) Hz after")
        // At cruise the V6 fires at 2300 rpm × 3 / 60 = 115 Hz (±4 % for the wander).
        let cruise = Self.firingFrequency(x, at: start + over + 1)
        #expect(abs(cruise / 115 - 1) < 0.04, "\(cruise) Hz at cruise")
    }

    /// At cruise the pedal wanders but the engine holds (issue 27): over every minute of
    /// steady cruise the firing rate stays within ±25 cents of its middle and moves no
    /// faster than 10 cents a second, yet it is never one held tone (it moves by at least
    /// 5 cents); and the wander is not load (no fade or low-pass move on the engine while it
    /// lasts). Measured on the render: the firing rate every second (over 1 s) from the end
    /// of the first climb to cruise until the first change of pace (the first load cue),
    /// heard over 5 s.
    @Test(arguments: ["loops", "live"])
    func cruiseHoldsItsRpmWithinTwentyFiveCentsAndTenCentsASecond(_ engine: String) throws {
        let (doc, compiled) = try Self.engineOnly(["vehicle": "v6", "engine": engine])
        let (start, _, over) = try Self.firstRamp(doc)
        // The first change of pace is the first load cue: the wander moves no fade or filter
        // (on the highway a change of pace is at least 4.5 mph, so there may be none).
        let change = doc.cues.first { ($0.fade != nil || $0.effect?.bus == "engine") && $0.time > start + over + 1 }?.time ?? .infinity
        let from = start + over + 2, to = min(change, from + 150)
        #expect(to - from >= 90, "steady cruise from \(from) s to \(to) s")
        let x = Self.render(compiled, from: from - 0.6, to: to + 0.6)
        // The firing rate near the V6's 115 Hz at 2300 rpm: the strongest autocorrelation lag
        // for 95–135 Hz over 1 s (a 40–300 Hz search can land on the engine cycle's lope; a
        // second holds ~115 firings, so the live engine's jittered intervals average out as
        // the ear hears its pitch, while a drift of the rpm does not).
        func firing(at t: Double) -> Double {
            let a = Int((t - 0.5) * Self.sampleRate), n = Int(1.0 * Self.sampleRate)
            let seg = x[a..<(a + n)].map(Double.init)
            let lags = Int(Self.sampleRate / 135)...Int(Self.sampleRate / 95)
            let r = lags.map { l in (0..<(n - lags.upperBound)).reduce(0.0) { $0 + seg[$1] * seg[$1 + l] } }
            let k = r.indices.max { r[$0] < r[$1] }!
            guard k > 0, k + 1 < r.count else { return Self.sampleRate / Double(lags.lowerBound + k) }
            let offset = 0.5 * (r[k - 1] - r[k + 1]) / (r[k - 1] - 2 * r[k] + r[k + 1])
            return Self.sampleRate / (Double(lags.lowerBound + k) + offset)
        }
        let track = stride(from: 0.6, to: to - from + 0.6, by: 1.0).map(firing)
        let mean = track.reduce(0, +) / Double(track.count)
        // The drift, not the firings' jitter: the pitch heard over 5 s (the mean of five
        // seconds' estimates; the live engine's jittered firings move single seconds by ±10
        // cents at random, heard as roughness, not as a siren).
        let raw = track.map { 1200 * log2($0 / mean) }
        let cents = (2..<(raw.count - 2)).map { i in raw[(i - 2)...(i + 2)].reduce(0, +) / 5 }
        var swing = 0.0, rate = 0.0
        for i in 0..<max(1, cents.count - 60) {
            let minute = cents[i..<min(cents.count, i + 61)]
            swing = max(swing, (minute.max()! - minute.min()!) / 2)
        }
        for i in 5..<cents.count { rate = max(rate, abs(cents[i] - cents[i - 5]) / 5) }
        print("\(engine): cruise firing rate \(mean) Hz, ±\(swing) cents over a minute, at most \(rate) cents/s over \(to - from) s")
        #expect(abs(mean / 115 - 1) < 0.06, "\(mean) Hz: the cruise speeds are 62–68 mph")
        #expect(swing <= 25, "±\(swing) cents over a minute")
        #expect(swing >= 5, "±\(swing) cents: one held tone")
        #expect(rate <= 10, "\(rate) cents/s")
    }

    /// Slowing to the arrival, the engine bus only falls (within 1 dB, half-second steps).
    @Test(arguments: ["loops", "live"])
    func slowingDownFallsWithoutAHole(_ engine: String) throws {
        let (doc, compiled) = try Self.engineOnly(["vehicle": "v8", "engine": engine])
        let stop = try #require(doc.cues.last { $0.set?.parameter == "speed" && $0.set?.to == 0 })
        let over = try #require(stop.set).over
        let x = Self.render(compiled, from: stop.time, to: stop.time + over)
        let during = Self.levels(x, window: 0.5)
        let worst = during.indices.dropFirst().map { during[$0] - during[..<$0].min()! }.max()!
        print("\(engine): slowing, the highest rise over the quietest before \(worst) dB; \(during.first! - during.last!) dB in all")
        for (i, l) in during.enumerated().dropFirst() {
            #expect(l <= during[..<i].min()! + 1, "window \(i): \(l) dB after \(during[..<i].min()!) dB")
        }
        #expect(during.first! - during.last! >= 10, "\(during)")
    }

    /// Pressing on is louder and brighter than holding a speed: the last two seconds of the
    /// climb to cruise against two seconds of the steady stretch after it.
    @Test(arguments: ["loops", "live"])
    func loadIsLouderAndBrighterThanCruising(_ engine: String) throws {
        let (doc, compiled) = try Self.engineOnly(["vehicle": "four", "engine": engine])
        let (start, _, over) = try Self.firstRamp(doc)
        let pressing = Self.render(compiled, from: start + over - 2.5, to: start + over - 0.5)
        let holding = Self.render(compiled, from: start + over + 6, to: start + over + 8)
        #expect(Self.level(pressing[...]) - Self.level(holding[...]) >= 2)
        // Brightness: the share of the power above 2 kHz (every 5 Hz bin of 0.2 s, Goertzel).
        func bright(_ x: [Float]) -> Double {
            let seg = (0..<9600).map { Double(x[$0]) * (0.5 - 0.5 * cos(2 * .pi * Double($0) / 9600)) }
            let all = stride(from: 5.0, through: 12000, by: 5).map { Self.power(seg, $0) }
            return 10 * log10(all[399...].reduce(0, +) / all.reduce(0, +))
        }
        print("\(engine): pressing \(Self.level(pressing[...]) - Self.level(holding[...])) dB louder, \(bright(pressing) - bright(holding)) dB brighter than holding")
        #expect(bright(pressing) - bright(holding) >= 3, "pressing \(bright(pressing)) dB, holding \(bright(holding)) dB above 2 kHz")
    }

    /// The electric motor: silent parked, and an inverter whine at 2.5 kHz × speed / 80.
    @Test func electricWhineFollowsSpeedAndIsSilentAtRest() throws {
        let (doc, compiled) = try Self.engineOnly(["vehicle": "electric"])
        let (start, target, over) = try Self.firstRamp(doc)
        let x = Self.render(compiled, from: 0, to: start + over)
        #expect(Self.level(x[Int(4 * Self.sampleRate)..<Int(start * Self.sampleRate)]) < -90)
        for fraction in [0.3, 0.6, 0.9] {
            let t = start + over * fraction
            let expected = 2500 * target * fraction / 80
            let found = Self.strongest(x, at: t, in: (expected * 0.8)...(expected * 1.2))
            #expect(abs(found / expected - 1) < 0.03, "at \(target * fraction) mph: \(found) Hz, expected \(expected)")
        }
    }
}
