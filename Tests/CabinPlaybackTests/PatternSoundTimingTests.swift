import CabinAudio
import CabinHaptics
import CabinIO
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Issue 30 item 3: every library pattern a preset plays together with a library sound (a
/// cue's `play` and `haptic`, the focus event's sound and haptic) has each of its
/// transients within 10 ms of an onset of that sound (Sounds/…/*.opus as shipped, decoded),
/// the onsets found by `OnsetDetector` — the detector `haptics from-audio` made the drive's
/// start patterns with. The pairs are read from the presets themselves (every preset, the
/// drive with every vehicle), so a new pairing is checked without a list to keep.
@Suite struct PatternSoundTimingTests {
    static let root = TestEnvironment.packageRoot

    /// (pattern, sound) for every cue of every preset that plays both.
    static let pairs: [SoundPatternPair] = {
        var documents: [SessionDocument] = []
        for preset in SessionPresets.all {
            if preset.name == "drive" {
                for vehicle in ["v8", "v6", "four", "electric", "diesel", "vintage"] {
                    documents.append(try! SessionPresets.make("drive", options: ["vehicle": vehicle]))
                }
            } else {
                documents.append(try! SessionPresets.make(preset.name))
            }
        }
        var seen = Set<SoundPatternPair>()
        var pairs: [SoundPatternPair] = []
        for document in documents {
            var found: [(String, SoundReference)] = document.cues.compactMap { cue in
                guard let haptic = cue.haptic, let play = cue.play else { return nil }
                return (haptic, play.sound)
            }
            if let focus = document.focus, let sound = focus.sound { found.append((focus.haptic, sound)) }
            for (haptic, sound) in found {
                guard case .library(let name) = sound else { continue }
                let pair = SoundPatternPair(pattern: haptic, sound: name)
                if seen.insert(pair).inserted { pairs.append(pair) }
            }
        }
        return pairs
    }()

    @Test func thePresetsPairTheDrivesStartsWithEachVehiclesIgnition() {
        for (vehicle, sound) in [("", "ui/ignition"), ("-v6", "ui/ignition-v6"), ("-four", "ui/ignition-four"),
                                 ("-diesel", "ui/ignition-diesel"), ("-vintage", "ui/ignition-vintage")] {
            #expect(Self.pairs.contains(SoundPatternPair(pattern: "engine-start\(vehicle)", sound: sound)), "\(sound)")
        }
        #expect(Self.pairs.contains(SoundPatternPair(pattern: "speed-bump", sound: "ui/speed-bump")))
        #expect(Self.pairs.count >= 15, "a floor: \(Self.pairs)")
    }

    @Test func everyTransientOfEveryPairedPatternFallsOnAnOnsetOfItsSound() throws {
        var report: [String] = []
        for pair in Self.pairs {
            let bytes = Array(try Data(contentsOf: Self.root.appendingPathComponent("Patterns/haptics/\(pair.pattern).ahap")))
            let compiled = HapticCompiler.compile(try #require(HapticReader.read(bytes, file: pair.pattern, options: .strict).pattern))
            let sound = try SoundFile.read(Self.root.appendingPathComponent("Sounds/\(pair.sound).opus").path)
            let onsets = OnsetDetector.detect(AudioToHaptics.mono(sound), sampleRate: sound.sampleRate).map(\.time)
            #expect(!compiled.transients.isEmpty || pair.pattern.hasPrefix("breath"), "\(pair): no transient")
            for transient in compiled.transients {
                let miss = onsets.map { abs($0 - transient.time) }.min() ?? .infinity
                report.append("\(pair) \(transient.time): \(Int((miss * 1000).rounded())) ms")
                #expect(miss <= 0.010, "\(pair): the transient at \(transient.time) s is \(miss * 1000) ms from the nearest onset of \(onsets)")
            }
        }
        print(report.joined(separator: "\n"))
    }
}

struct SoundPatternPair: Sendable, Hashable, CustomStringConvertible {
    var pattern: String, sound: String
    var description: String { "\(pattern) with \(sound)" }
}
