import CabinAudio
import CabinIO
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Every preset at its loudness target (rendered with the committed library and measured
/// with libebur128) and true peak under −1 dBTP; its cues' margins over the bed they land
/// on are `CueLevelsTests`'.
@Suite struct PresetLoudnessTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static let library: SoundLibrary? = try? SoundLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Sounds"))
    static let patterns = HapticPatternLibrary(root: TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics"))
    static let rate = 48000.0
    static let chimes: Set<String> = ["ui/chime-focus", "ui/chime-break", "ui/chime-milestone", "ui/session-end",
                                      "ui/unlock", "ui/ignition"]

    /// Presets with options that keep the render short but representative: the drive whole
    /// (25 minutes: ritual, cruise, arrival), the Pomodoro with two 5-minute focus periods
    /// and both kinds of break, the ambience for 10 minutes (fade-in and fade-out included).
    static let cases: [(String, [String: String])] = [
        ("drive", [:]), ("drive", ["radio": "off", "vehicle": "electric"]), ("drive", ["radio": "pink-noise", "route": "backroads"]),
        ("ambient", ["minutes": "10"]), ("ambient", ["minutes": "2", "sound": "synth:binaural"]),
        ("pomodoro", ["focus": "5m", "short": "1m", "long": "2m", "cycles": "2"]),
        ("breathing", [:]), ("quest", [:]), ("ui", [:]),
    ]

    static func compile(_ document: SessionDocument, options: SessionCompileOptions = .init()) throws -> SessionLoader.Loaded {
        let library = try #require(Self.library, "Sounds/manifest.json must be readable")
        return try SessionLoader.load(bytes: Array(document.json().utf8), name: "preset.json",
                                      folder: TestEnvironment.packageRoot, sampleRate: rate, library: library,
                                      patterns: patterns, options: options)
    }

    /// Renders the loaded session (its first `seconds` when given) through a running meter,
    /// its radio (generated music, playlists) fed before every block as `cabin render` does.
    static func measure(_ loaded: SessionLoader.Loaded, seconds: Double? = nil) throws -> LoudnessMeter.Running {
        let compiled = loaded.compiled
        let meter = try LoudnessMeter.Running(channelCount: 2, sampleRate: rate)
        let runner = SessionRunner(compiled)
        let total = Int(min(Double(compiled.durationFrames), (seconds ?? .infinity) * rate))
        let block = 4800
        var buffer = [Float](repeating: 0, count: 2 * block)
        var done = 0
        while done < total {
            let n = min(block, total - done)
            loaded.radio.fill(frames: n)
            try buffer.withUnsafeMutableBufferPointer { p in
                _ = runner.render(into: p, frameCount: n)
                try meter.add(UnsafeBufferPointer(rebasing: p[0..<(2 * n)]))
            }
            done += n
        }
        return meter
    }

    @Test(arguments: cases.indices)
    func presetPlaysAtItsTargetWithTruePeakUnderMinusOne(_ i: Int) throws {
        let (name, options) = Self.cases[i]
        let document = try SessionPresets.make(name, options: options)
        #expect(document.loudness == -20)
        let loaded = try Self.compile(document)
        let plan = try #require(loaded.compiled.loudness)
        let measured = try Self.measure(loaded).loudness
        let integrated = try #require(measured.integrated), peak = try #require(measured.truePeak)
        let label = "\(name) \(options): estimate \(plan.estimate ?? .nan) LUFS, master \(plan.masterGain) dB → \(integrated) LUFS, \(peak) dBTP"
        print(label)
        #expect(abs(integrated - -20) <= 1, "\(label)")
        #expect(peak <= -1, "\(label)")
    }

    /// The document's target and `--loudness` move the level; `off` leaves the gains as written.
    @Test func theTargetMovesTheLevelAndOffLeavesTheGainsAsWritten() throws {
        var document = try SessionPresets.make("ambient", options: ["minutes": "2"])
        document.loudness = -26
        let quiet = try #require(try Self.measure(Self.compile(document)).loudness.integrated)
        #expect(abs(quiet - -26) <= 1, "\(quiet)")
        let louder = try #require(try Self.measure(Self.compile(document, options: .init(loudness: .target(-16)))).loudness.integrated)
        #expect(abs(louder - -16) <= 1, "\(louder)")
        let off = try Self.compile(document, options: .init(loudness: .off))
        #expect(off.compiled.loudness == nil && off.compiled.config.masterGain == 0)
    }

    // The cues' margins over the bed they land on (the rest stops', the arrival's and the
    // breaks' included) are `CueLevelsTests`'.
}
