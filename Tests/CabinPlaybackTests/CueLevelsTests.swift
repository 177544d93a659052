import CabinAudio
import CabinPlayback
import CabinRadio
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Issue 27's transitions: each cue measured against the bed where it lands
/// (`CueLevels`, `cabin session levels`), and every preset's cues within +10 LU of their
/// beds with no one-shot driving the limiter by more than 1 dB.
@Suite struct CueLevelsTests {
    /// The radio plays the sessions these tests load, as in `cabin`.
    init() { RadioStations.register() }

    static func measure(_ document: SessionDocument) throws -> CueLevels.Report {
        try CueLevels.measure(document) { document, options in try VariationTests.load(document, options: options) }
    }

    /// A pink-noise bed on the ambient bus with `cues` over it; the bed fades by `fade` dB
    /// at 20 s and stops at `stop` (if given).
    static func document(cues: [Cue], fade: Double = 0, stop: Double? = nil, duck: Bool = false) -> SessionDocument {
        var d = SessionDocument(title: "levels", duration: 40)
        d.buses = [Bus(name: "ambient", gain: -12), Bus(name: "ui", gain: -6), Bus(name: "voice", gain: -6)]
        d.layers = [Layer(name: "bed", bus: "ambient", sound: .synth(Synth(named: "pink-noise")!), isLooping: true)]
        if duck { d.ducking = [Ducking(when: "voice", duck: ["ambient"])] }
        var all = [Cue(time: 0, index: 0)]
        all[0].start = ["bed"]
        all[0].fadeIn = 0.1
        if fade != 0 {
            var c = Cue(time: 20, index: 0)
            c.fade = Cue.LayerFade(layer: "bed", to: fade, over: 1)
            all.append(c)
        }
        if let stop {
            var c = Cue(time: stop, index: 0)
            c.stop = ["bed"]
            c.fadeOut = 0.1
            all.append(c)
        }
        all += cues
        all.sort { $0.time < $1.time }
        for i in all.indices { all[i].index = i }
        d.cues = all
        return d
    }

    static func play(_ time: Double, _ sound: String, bus: String = "ui", gain: Double = 0) -> Cue {
        var c = Cue(time: time, index: 0)
        c.play = Cue.OneShot(sound: .library(sound), bus: bus, gain: gain)
        return c
    }

    @Test func aCueIsMeasuredAgainstTheBedWhereItLandsNotTheWholeSession() throws {
        let report = try Self.measure(Self.document(cues: [Self.play(10, "ui/chime-focus"), Self.play(30, "ui/chime-focus")], fade: -12))
        #expect(report.cues.count == 2)
        let before = report.cues[0], after = report.cues[1]
        let a = try #require(before.margin), b = try #require(after.margin)
        // The same chime, the same loudness; the bed under the second is 12 dB lower.
        #expect(abs(try #require(before.loudness) - (try #require(after.loudness))) < 0.3, "\(report.cues)")
        #expect(abs((b - a) - 12) < 0.6, "margins \(a) and \(b)")
        #expect(report.loudest?.time == 30)
        #expect(before.name == "ui/chime-focus" && before.bus == "ui")
    }

    /// The jump is measured against the bed the listener was hearing before the cue; the bed
    /// under it is the bed as it plays, ducked where the cue ducks it.
    @Test func theBedBeforeACueIsWhatWasHeardAndTheBedUnderItIsDucked() throws {
        let cues = [Self.play(10, "voice/halfway", bus: "voice")]
        let plain = try Self.measure(Self.document(cues: cues))
        let ducked = try Self.measure(Self.document(cues: cues, duck: true))
        let p = try #require(plain.cues.first), d = try #require(ducked.cues.first)
        let under = try #require(p.bedUnder), duckedUnder = try #require(d.bedUnder)
        // Ducking rules without "by" duck 8 dB.
        #expect(abs((under - duckedUnder) - 8) < 1, "bed \(under) LUFS, ducked \(duckedUnder) LUFS")
        // Before the cue both beds are the same bed (the duck has not begun).
        #expect(abs(try #require(p.bedLoudness) - (try #require(d.bedLoudness))) < 0.2, "\(p) \(d)")
        #expect(abs(try #require(p.loudness) - (try #require(d.loudness))) < 0.1)
    }

    @Test func aCueOverASilentBedStandsAlone() throws {
        let report = try Self.measure(Self.document(cues: [Self.play(30, "ui/chime-focus")], stop: 20))
        let cue = try #require(report.cues.first)
        #expect(cue.loudness != nil && cue.bedLoudness == nil && cue.margin == nil)
        #expect(cue.effectiveMargin == .infinity)
    }

    @Test func theLimiterDriveIsWhatTheCueAddsAboveTheCeiling() throws {
        let report = try Self.measure(Self.document(cues: [Self.play(10, "ui/turn-signal", gain: 24), Self.play(20, "ui/turn-signal", gain: -20)]))
        let loud = report.cues[0], soft = report.cues[1]
        let peak = try #require(loud.peak)
        #expect(peak > report.ceiling + 1, "\(loud)")
        // The bed alone stays under the ceiling, so the drive is the peak's excess.
        #expect(abs(loud.limiterDrive - (peak - report.ceiling)) < 0.01, "\(loud)")
        #expect(soft.limiterDrive == 0, "\(soft)")
        #expect(report.hardest?.time == 10)
        #expect(report.ceiling == Mixer.limiterCeiling.value)
    }

    /// Presets as they ship: every cue within +10 LU (momentary) of the bed it lands on —
    /// the ritual's, the rest stops', the arrival's and the breaks' quiet stretches included —
    /// none over a silent bed, speech at least +4 LU and chimes at least +2 LU over their bed,
    /// and no one-shot driving the limiter by more than 1 dB. (The `ui` preset is one-shots
    /// alone, a demo with no bed to land on.) The default pomodoro (2 h 10 min) is here
    /// whole: its "Long break" once landed in a dip of the bed, +14.6 LU over it.
    static let presets: [(String, [String: String])] = [
        ("drive", [:]), ("drive", ["minutes": "35"]), ("drive", ["radio": "off", "vehicle": "electric"]),
        ("drive", ["vehicle": "v8", "radio": "pad"]),
        ("drive", ["radio": "pink-noise", "route": "backroads", "vehicle": "diesel"]),
        ("pomodoro", ["focus": "5m", "short": "1m", "long": "2m", "cycles": "2"]), ("pomodoro", [:]),
        ("ambient", ["minutes": "10"]), ("breathing", [:]), ("quest", [:]),
    ]

    @Test(arguments: presets.indices)
    func everyPresetCueLandsWithinTenLUOfItsBedAndSparesTheLimiter(_ i: Int) throws {
        let (name, options) = Self.presets[i]
        let report = try Self.measure(try SessionPresets.make(name, options: options))
        for cue in report.cues {
            let label = "\(name) \(options): \(cue.name) at \(cue.time) s (\(cue.segment ?? "")): cue \(cue.loudness ?? .nan) LUFS, bed \(cue.bedLoudness ?? .nan) LUFS, limiter \(cue.limiterDrive) dB"
            guard cue.loudness != nil else { continue }
            #expect(cue.margin != nil, "over a silent bed: \(label)")
            #expect(cue.effectiveMargin <= 10, "\(label)")
            if cue.name.hasPrefix("say: ") || cue.name.hasPrefix("voice/") { #expect(cue.effectiveMargin >= 4, "\(label)") }
            if PresetLoudnessTests.chimes.contains(cue.name) { #expect(cue.effectiveMargin >= 2, "\(label)") }
            #expect(cue.limiterDrive <= 1, "\(label)")
        }
        let loudest = report.loudest, hardest = report.hardest
        print("\(name) \(options): loudest \(loudest?.name ?? "-") +\(loudest?.margin ?? .nan) LU at \(loudest?.time ?? 0) s; limiter \(hardest?.limiterDrive ?? 0) dB (\(hardest?.name ?? "-"))")
    }
}
