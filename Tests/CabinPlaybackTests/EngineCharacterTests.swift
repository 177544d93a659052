import CabinAudio
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Issue 27, "engines that sound like their cars", measured on renders of the drive preset
/// as `scripts/engine-spectra` measures them: the cross-plane V8's burble (its half and
/// whole crank orders against its firing order), content above 500 Hz in every combustion
/// engine, the electric motor heard in the whole mix at cruise and silent at a standstill,
/// and no layer nobody can hear (the scattered horns are gone).
@Suite struct EngineCharacterTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static let rate = DriveEngineTests.sampleRate

    /// Power spectrum of `x` (Hann windows of `size`, a power of two, half overlapping): the
    /// mean power per bin, bins `rate / size` apart.
    static func spectrum(_ x: ArraySlice<Float>, size: Int) -> [Double] {
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
        var sum = [Double](repeating: 0, count: size / 2 + 1)
        var count = 0
        var a = x.startIndex
        while a + size <= x.endIndex {
            let (re, im) = RepetitionFigure.fft((0..<size).map { Double(x[a + $0]) * window[$0] }, [Double](repeating: 0, count: size))
            for k in sum.indices { sum[k] += re[k] * re[k] + im[k] * im[k] }
            count += 1
            a += size / 2
        }
        return sum.map { $0 / Double(max(1, count)) }
    }

    /// The drive's engine alone at cruise (8 s, from 8 s after the first climb ends).
    static func cruise(_ vehicle: String) throws -> [Float] {
        let (doc, compiled) = try DriveEngineTests.engineOnly(["vehicle": vehicle])
        let (start, _, over) = try DriveEngineTests.firstRamp(doc)
        return DriveEngineTests.render(compiled, from: start + over + 8, to: start + over + 16)
    }

    /// A cross-plane V8 burbles: at cruise (2000 rpm, crank 33.3 Hz, firing 133 Hz) its
    /// strongest half-order (1.5, 2.5, … 7.5) and its strongest other whole order (2, 3, 5,
    /// 6, 7; those at 40 Hz or more, where a speaker plays) are within 12 dB of its firing
    /// order (4), and so is the half-orders' power mean. Before: −25.6 dB.
    @Test func crossPlaneV8HalfAndWholeOrdersWithinTwelveDecibelsOfFiring() throws {
        let x = try Self.cruise("v8")
        let size = 65536
        let p = Self.spectrum(x[...], size: size)
        let bin = Self.rate / Double(size), crank = 2000.0 / 60
        func order(_ o: Double) -> Double {
            let lo = Int(((o - 1.0 / 6) * crank / bin).rounded(.up)), hi = Int(((o + 1.0 / 6) * crank / bin).rounded(.down))
            let power: Double = p[lo...hi].reduce(0, +)
            return 10 * log10(power + 1e-30)
        }
        let firing = order(4)
        let orders = stride(from: 1.5, through: 7.5, by: 0.5).filter { $0 != 4 }
        let rel = Dictionary(uniqueKeysWithValues: orders.map { ($0, order($0) - firing) })
        let half = orders.filter { $0.truncatingRemainder(dividingBy: 1) != 0 }.map { rel[$0]! }
        let whole = orders.filter { $0.truncatingRemainder(dividingBy: 1) == 0 }.map { rel[$0]! }
        let halfPower: Double = half.map { pow(10, $0 / 10) }.reduce(0, +)
        let halfMean = 10 * log10(halfPower / Double(half.count))
        let listed = orders.map { o in "\(o): \(rel[o]!)" }.joined(separator: ", ")
        print("v8 orders against the firing order: \(listed); half-order mean \(halfMean) dB")
        #expect(half.max()! >= -12, "strongest half-order \(half.max()!) dB")
        #expect(whole.max()! >= -12, "strongest whole order \(whole.max()!) dB")
        #expect(halfMean >= -12, "half-orders' mean \(halfMean) dB")
    }

    /// No engine a pure tone: every combustion engine at cruise, as the drive plays it (its
    /// bus's 2.5 kHz low-pass included), has at least 5 % of its power above 500 Hz. Why 5 %:
    /// an exhaust pulse train whose harmonics fall 6 dB an octave (a sharp pulse) puts 7 %
    /// above 500 Hz at the diesel's 60 Hz firing rate and 14–17 % at the V6's and V8's, a hum
    /// falling 12 dB an octave under 1 %; before this, 2–4 %. And the harmonics above the
    /// second are not lost: the fourth within 20 dB of the strongest.
    @Test(arguments: ["v8", "v6", "four", "diesel", "vintage"])
    func everyCombustionEngineHasContentAboveFiveHundredHertz(_ vehicle: String) throws {
        let x = try Self.cruise(vehicle)
        let size = 16384
        let p = Self.spectrum(x[...], size: size)
        let bin = Self.rate / Double(size)
        let total = p[Int(20 / bin)...Int(20000 / bin)].reduce(0, +)
        let above = p[(Int(500 / bin) + 1)...Int(20000 / bin)].reduce(0, +)
        let (cylinders, rpm): (Double, Double) = switch vehicle {
        case "v8": (8, 2000)
        case "four": (4, 2700)
        case "diesel": (4, 1800)
        case "vintage": (4, 2100)
        default: (6, 2300)
        }
        let f0 = rpm / 60 * cylinders / 2
        func harmonic(_ k: Int) -> Double {
            let centre = Double(k) * f0
            let lo = Int(((centre - f0 / 3) / bin).rounded(.up)), hi = Int(((centre + f0 / 3) / bin).rounded(.down))
            return 10 * log10(p[lo...hi].reduce(0, +))
        }
        let harmonics: [Double] = (1...8).map(harmonic)
        let top = harmonics.max()!
        let relative: [Double] = harmonics.map { $0 - top }
        print("\(vehicle): \(100 * above / total) % above 500 Hz; harmonics 1-8 \(relative) dB")
        #expect(above / total >= 0.05, "\(vehicle): \(100 * above / total) % of the power above 500 Hz")
        #expect(harmonics[3] - top >= -20, "\(vehicle): fourth harmonic \(harmonics[3] - top) dB")
    }

    /// The electric motor in the drive's whole mix (default radio, the lo-fi; and none) at
    /// cruise: its hum's strongest line (60–600 Hz) and its inverter whine (1–5 kHz), found
    /// on the engine bus in each 0.34 s window, each 0 dB or more over the rest of its
    /// critical band in the mix (ECMA-74's tone-to-noise ratio), the median over 30 s; before:
    /// −8 and −9 dB.
    @Test(arguments: ["lofi", "off"])
    func electricMotorIsHeardInTheMixAtCruise(_ radio: String) throws {
        let doc = try SessionPresets.make("drive", options: ["vehicle": "electric", "radio": radio])
        let (start, _, over) = try DriveEngineTests.firstRamp(doc)
        let from = start + over + 5, to = from + 30
        let loaded = try PresetLoudnessTests.compile(doc)
        let runner = SessionRunner(loaded.compiled)
        let total = Int(to * Self.rate), block = 4800
        var mix = [Float](repeating: 0, count: total)
        var buffer = [Float](repeating: 0, count: 2 * block)
        var done = 0
        while done < total {
            let n = min(block, total - done)
            loaded.radio.fill(frames: n)
            buffer.withUnsafeMutableBufferPointer { p in _ = runner.render(into: p, frameCount: n) }
            for i in 0..<n { mix[done + i] = (buffer[2 * i] + buffer[2 * i + 1]) / 2 }
            done += n
        }
        let (_, engine) = try DriveEngineTests.engineOnly(["vehicle": "electric", "radio": radio])
        let stem = DriveEngineTests.render(engine, from: from, to: to)
        let heard = Array(mix[Int(from * Self.rate)..<Int(to * Self.rate)])
        for (name, band) in [("hum", 60.0...600), ("whine", 1000.0...5000)] {
            let (tnr, line) = Self.toneToNoise(heard, stem, band)
            print("electric (radio \(radio)): \(name) line \(line) Hz, tone-to-noise in the mix \(tnr) dB")
            #expect(tnr >= 0, "\(name) at \(line) Hz: \(tnr) dB")
        }
    }

    /// Median over windows of 16384 samples of the tone-to-noise ratio in `mix` of the stem's
    /// strongest line in `band`: the line's power (±4 bins) against the rest of its critical
    /// band (Zwicker's width), scaled to the whole band; and the line's median frequency.
    static func toneToNoise(_ mix: [Float], _ stem: [Float], _ band: ClosedRange<Double>) -> (Double, Double) {
        let size = 16384, bin = rate / Double(size)
        var ratios: [Double] = [], lines: [Double] = []
        var a = 0
        while a + size <= min(mix.count, stem.count) {
            let ps = spectrum(stem[a..<(a + size)], size: size), pm = spectrum(mix[a..<(a + size)], size: size)
            let k = (Int((band.lowerBound / bin).rounded(.up))...Int(band.upperBound / bin)).max { ps[$0] < ps[$1] }!
            let fc = Double(k) * bin / 1000
            let width = 25 + 75 * pow(1 + 1.4 * fc * fc, 0.69)
            let half = Int(width / 2 / bin)
            var tone = 0.0, noise = 0.0, noiseBins = 0
            for j in max(0, k - half)...min(pm.count - 1, k + half) {
                if abs(j - k) <= 4 { tone += pm[j] } else { noise += pm[j]; noiseBins += 1 }
            }
            let scaled = noise * Double(2 * half + 1) / Double(max(1, noiseBins))
            ratios.append(10 * log10(tone / max(scaled, 1e-30)))
            lines.append(Double(k) * bin)
            a += size
        }
        return (ratios.sorted()[ratios.count / 2], lines.sorted()[lines.count / 2])
    }

    /// Parked at a rest stop (the engine started, the speed 0), the electric motor is
    /// silent: its bus under −90 dBFS (the start is DriveEngineTests').
    @Test func electricIsSilentAtARestStop() throws {
        let (doc, compiled) = try DriveEngineTests.engineOnly(["vehicle": "electric", "minutes": "60"])
        let stop = try #require(doc.cues.first { $0.set?.parameter == "speed" && $0.set?.to == 0 && $0.time > 60 })
        let restart = try #require(doc.cues.first { $0.set?.parameter == "speed" && $0.time > stop.time })
        let from = stop.time + (try #require(stop.set)).over + 1
        #expect(restart.time - from >= 10)
        let x = DriveEngineTests.render(compiled, from: from, to: from + 10)
        #expect(DriveEngineTests.level(x[...]) < -90, "\(DriveEngineTests.level(x[...])) dBFS parked")
    }

    /// The electric motor is live: no loop to find (issue 27's 6 s loop correlated 0.93
    /// with itself); a minute of cruise shows no repetition at 6 s that it does not show
    /// elsewhere (within 0.05).
    @Test func electricHasNoLoopToFind() throws {
        let doc = try SessionPresets.make("drive", options: ["vehicle": "electric"])
        let electric = doc.layers.filter { $0.bus == "engine" }
        #expect(electric.allSatisfy { if case .synth = $0.sound { true } else { false } }, "\(electric.map(\.sound))")
        let (_, compiled) = try DriveEngineTests.engineOnly(["vehicle": "electric"])
        let (start, _, over) = try DriveEngineTests.firstRamp(doc)
        let mono = DriveEngineTests.render(compiled, from: start + over + 2, to: start + over + 62)
        let stereo = mono.flatMap { [$0, $0] }
        let r = RepetitionFigure.measure(interleaved: stereo, sampleRate: Self.rate, loops: [6])
        print("electric: repetition at 6 s \(r.atLoop.figure), elsewhere \(r.elsewhere.figure)")
        #expect(r.atLoop.figure - r.elsewhere.figure <= 0.05, "at 6 s \(r.atLoop.figure), elsewhere \(r.elsewhere.figure)")
    }

    /// Every layer the drive plays is heard somewhere or gone: the scattered horns (10–20 dB
    /// under the mix in every third-octave band) are gone from every vehicle and route.
    @Test(arguments: ["highway", "scenic", "backroads"])
    func noScatteredHorns(_ route: String) throws {
        let doc = try SessionPresets.make("drive", options: ["route": route])
        let horns = doc.layers.filter { $0.sound == .library("ui/horn") || ($0.scatter?.sounds ?? []).contains(.library("ui/horn")) }
        #expect(horns.isEmpty, "\(horns.map(\.name))")
    }
}
