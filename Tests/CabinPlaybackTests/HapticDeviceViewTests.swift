import CabinHaptics
import CabinIO
import CabinPlayback
import CabinTestSupport
import Foundation
import Testing

/// Issue 30 item 4: `--as rumble` shows what the evdev path sends, `--as android` the
/// waveform export's steps and `--as android-composition` the primitives' nominal shapes —
/// for every pattern of the library.
@Suite struct HapticDeviceViewTests {
    static let library = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics")
    static let names = (try? FileManager.default.contentsOfDirectory(atPath: library.path))?
        .filter { $0.hasSuffix(".ahap") }.map { String($0.dropLast(5)) }.sorted() ?? []

    static func compiled(_ name: String) throws -> CompiledHaptics {
        let bytes = Array(try Data(contentsOf: library.appendingPathComponent("\(name).ahap")))
        return HapticCompiler.compile(try #require(HapticReader.read(bytes, file: name, options: .strict).pattern))
    }

    /// The motors' magnitudes each millisecond, rebuilt from what the player did to the
    /// device: an uploaded effect plays from its `play` write for its replay length, until a
    /// stop write or its next upload and play; the effects playing add per motor, clamped.
    static func replay(_ log: [String], milliseconds: Int) -> [RumbleMagnitudes] {
        struct Effect { var strong: Int, weak: Int, length: Int, start: Int? }
        var effects: [Int: Effect] = [:]
        var lastUploaded = -1
        var events: [(Int, String)] = log.compactMap { line in
            guard line.hasPrefix("@"), let space = line.firstIndex(of: " "), let t = Int(line.dropFirst().prefix(upTo: space)) else { return nil }
            return (t, String(line[line.index(after: space)...]))
        }
        var result: [RumbleMagnitudes] = []
        for ms in 0..<milliseconds {
            while let (t, op) = events.first, t <= ms {
                events.removeFirst()
                let words = op.split(separator: " ").map(String.init)
                if words.first == "EVIOCSFF" {
                    let id = op.contains("-> id") ? Int(words.last!)! : Int(words[2])!
                    effects[id] = Effect(strong: Int(words[4])!, weak: Int(words[6])!, length: Int(words[8])!, start: nil)
                    lastUploaded = id
                } else if op.hasPrefix("write EV_FF play") {
                    let id = Int(words[3])!
                    #expect(id == lastUploaded)
                    effects[id]?.start = t
                } else if op.hasPrefix("write EV_FF stop") {
                    effects[Int(words[3])!]?.start = nil
                }
            }
            var strong = 0, weak = 0
            for effect in effects.values {
                guard let start = effect.start, ms < start + effect.length else { continue }
                strong += effect.strong
                weak += effect.weak
            }
            result.append(RumbleMagnitudes(strong: UInt16(min(strong, 65535)), weak: UInt16(min(weak, 65535))))
        }
        return result
    }

    @Test(arguments: RumbleMapping.allCases)
    func theRumbleViewIsWhatTheEvdevPathSends(mapping: RumbleMapping) throws {
        #expect(Self.names.count >= 24)
        for name in Self.names {
            let compiled = try Self.compiled(name)
            let view = HapticDeviceView(compiled, as: .rumble(mapping))
            let device = RecordingRumbleDevice()
            let player = try RumblePlayer(device: device, path: "/dev/input/event9")
            try player.play(compiled, options: RumblePlanOptions(mapping: mapping), clock: device.clock)
            let sent = Self.replay(device.log, milliseconds: view.milliseconds)
            let strong = view.tracks.first { $0.name == "strong" }!.level, weak = view.tracks.first { $0.name == "weak" }!.level
            #expect(view.milliseconds == device.clock.milliseconds, "\(name): the view ends when the player does")
            let differing = (0..<view.milliseconds).filter { ms in
                UInt16((strong[ms] * 65535).rounded()) != sent[ms].strong || UInt16((weak[ms] * 65535).rounded()) != sent[ms].weak
            }
            #expect(differing.isEmpty, "\(name) (\(mapping)): differs at \(differing.prefix(5)) ms")
            #expect(sent.contains { !$0.isZero }, "\(name): something is felt")
        }
    }

    @Test func theAndroidViewShowsTheWaveformsTenMillisecondSteps() throws {
        for name in Self.names {
            let compiled = try Self.compiled(name)
            let waveform = AndroidWaveform(compiled)
            let level = HapticDeviceView(compiled, as: .android).tracks[0].level
            #expect(level.count == waveform.totalMilliseconds)
            // Where a transient's 20 ms start and stop, besides the 10 ms grid.
            let edges = Set(compiled.sampled().transients.flatMap { [$0.frame, $0.frame + 20] })
            var start = 0
            for (timing, amplitude) in zip(waveform.timings, waveform.amplitudes) {
                #expect(level[start..<(start + timing)].allSatisfy { $0 == Float(amplitude) / 255 }, "\(name) at \(start) ms")
                #expect(start % 10 == 0 || edges.contains(start), "\(name): a step at \(start) ms")
                start += timing
            }
            // A level changes only on a step.
            let changes = (1..<level.count).filter { level[$0] != level[$0 - 1] }
            #expect(changes.allSatisfy { $0 % 10 == 0 || edges.contains($0) }, "\(name): \(changes.filter { $0 % 10 != 0 })")
        }
    }

    @Test func theCompositionViewDrawsEachPrimitiveInItsNominalShape() throws {
        for name in Self.names {
            let compiled = try Self.compiled(name)
            let composition = AndroidComposition(compiled)
            let view = HapticDeviceView(compiled, as: .androidComposition)
            let level = view.tracks[0].level
            #expect(view.milliseconds == composition.lengthMilliseconds)
            #expect(view.marks.map(\.millisecond) == composition.elements.map(\.startMilliseconds))
            var covered = Set<Int>()
            for e in composition.elements {
                let first = Double(level[e.startMilliseconds]), last = Double(level[e.startMilliseconds + e.durationMilliseconds - 1])
                switch e.primitive {
                case .click, .tick, .thud, .lowTick:
                    #expect(abs(first - e.scale) < 1e-6 && (e.durationMilliseconds == 1 || abs(last - e.scale / 4) < 1e-6), "\(name): \(e)")
                case .quickRise, .slowRise:
                    #expect(first < 1e-6 && (e.durationMilliseconds == 1 || abs(last - e.scale) < 1e-6), "\(name): \(e)")
                case .quickFall:
                    #expect(abs(first - e.scale) < 1e-6 && (e.durationMilliseconds == 1 || last < 1e-6), "\(name): \(e)")
                case .spin:
                    #expect(abs(first - e.scale) < 1e-6)
                }
                covered.formUnion(e.startMilliseconds..<(e.startMilliseconds + e.durationMilliseconds))
            }
            // Nothing plays outside the primitives: held levels have none.
            #expect((0..<level.count).allSatisfy { covered.contains($0) || level[$0] == 0 }, "\(name)")
        }
    }
}

/// A pattern the device plays nothing of (an event at intensity 0) still has its length in
/// every view, so `haptics render --as rumble` of it is the pattern's length of rest, not a
/// 0-second file.
@Suite struct HapticDeviceViewLengthTests {
    @Test func aSilentPatternKeepsItsLengthInEveryView() throws {
        let ahap = #"{"Version": 1.0, "Pattern": [{"Event": {"Time": 0.5, "EventType": "HapticContinuous", "EventDuration": 0.25, "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 0.0}]}}]}"#
        let compiled = HapticCompiler.compile(try #require(HapticReader.read(Array(ahap.utf8), file: "silent", options: .strict).pattern))
        let length = Int((compiled.endTime * 1000).rounded())
        #expect(length >= 750)
        // Android's waveform has zero-amplitude steps of its own (its timings' length); the
        // rumble plan and the composition have nothing, so they rest for the pattern's length.
        let waveform = AndroidWaveform(compiled).timings.reduce(0, +)
        #expect(waveform > 0)
        for device in [HapticDeviceView.Device.rumble(.equalPowerSplit), .android, .androidComposition] {
            let view = HapticDeviceView(compiled, as: device)
            let expected = device == .android ? waveform : length
            #expect(view.milliseconds == expected, "\(device.name)")
            #expect(view.tracks.allSatisfy { $0.level.count == expected && $0.pitch.count == expected && $0.level.allSatisfy { $0 == 0 } })
            let audio = view.audio(sampleRate: 8000, frequencyRange: device.defaultFrequencyRange)
            #expect(audio.count == expected * 8 && audio.allSatisfy { $0 == 0 }, "\(device.name)")
        }
    }
}
