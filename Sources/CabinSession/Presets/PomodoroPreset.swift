import CabinAudio
/// `pomodoro`: focus and break periods (a long break after the last focus), chimes, spoken
/// prompts and haptics at each transition; the ambience plays through focus and softer
/// through breaks; the end alert. With `--warn 2m`, a soft chime (`ui/chime-milestone`, 8 dB
/// under the transition chimes) plays that long before each phase ends.
enum PomodoroPreset {
    static let preset = SessionPresets.Preset(
        name: "pomodoro", summary: "focus / short break cycles with a long break, chimes, prompts and an ambience",
        options: [
            .init(name: "focus", defaultValue: "25m", help: "focus length, 5–90 minutes"),
            .init(name: "short", defaultValue: "5m", help: "short break, 1–30 minutes"),
            .init(name: "long", defaultValue: "15m", help: "long break, 1–60 minutes"),
            .init(name: "cycles", defaultValue: "4", help: "focus periods, 1–12"),
            .init(name: "ambient", defaultValue: "ambient/rain", help: "an ambient/… library name, synth:NAME or off"),
            .init(name: "warn", defaultValue: "off", help: "a soft chime this long before each phase ends, 30s–30m, or off"),
        ],
        make: { (o) throws(PresetError) -> SessionDocument in try make(o) })

    static func make(_ o: PresetOptions) throws(PresetError) -> SessionDocument {
        let focus = Double(try o.minutes("focus", in: 5...90) * 60)
        let short = Double(try o.minutes("short", in: 1...30) * 60)
        let long = Double(try o.minutes("long", in: 1...60) * 60)
        let cycles = Int(try o.number("cycles", in: 1...12))
        let warn = try warning(o)
        let ambient = o.raw("ambient")
        var sound: SoundReference?
        if ambient != "off" {
            guard case .success(let r) = SoundReferenceParser.parse(ambient) else {
                throw PresetError("\(option: "ambient") must be an ambient/… library name, synth:NAME or off, not '\(ambient)'")
            }
            sound = r
        }
        let total = Double(cycles) * focus + Double(cycles - 1) * short + long + 8
        var b = SessionBuilder(title: "Pomodoro: \(cycles) × \(Int(focus / 60)) min", duration: total)
        // The bed against its cues (the master gain brings the whole to the target): chimes
        // about +5 LU and the voice about +6 LU momentary over the bed's integrated loudness.
        b.setBus("ambient", gain: -9)
        b.setBus("ui", gain: -8)
        // The prompts through a compressor: peaks over −20 dBFS at 3:1 (6 dB knee, 3 ms attack,
        // 100 ms release), 3.5 dB make-up. "Focus time" no longer drives the limiter (0.6 dB
        // without it) and every prompt lands at least as far over its bed as without
        // (`cabin session levels`; the figures in the issue 29 note).
        let compressor = CompressorEffect.Description(threshold: -20, ratio: 3, attack: 0.003, release: 0.1, knee: 6, makeup: 3.5)
        b.setBus("voice", gain: -3.5, effects: [Bus.Effect(key: CompressorEffect.declaration.key, values: compressor.parameters)])
        b.document.ducking = [Ducking(when: "voice", duck: ["ambient"]),
                              Ducking(when: "voice", duck: ["ambient"], band: Ducking.speechBand)]
        var bed = ["ambient"]
        if let sound {
            b.document.layers = [Layer(name: "ambient", bus: "ambient", sound: sound, isLooping: true)]
            if case .library = sound {
                // The loop a little under, and pieces of it scattered over it: nothing repeats.
                b.document.layers[0].gain = SessionBuilder.variationLoopGain
                bed.append(b.addVariation(of: sound, on: "ambient", named: "ambient"))
                b.addDrift(to: "ambient", from: 0, to: total, seed: 0xA3B2)
            }
            b.start(0, bed, fadeIn: Self.openingFade)
            if bed.count > 1 { b.settleVariation(of: "ambient", startedAt: 0) }
        }
        // The bed is at its focus level whenever a transition's chime lands: it fades down
        // for a break only after the break's prompt, and back up in the 4 s before the next
        // focus (a bed 10 dB down made the focus chime and prompt jump +14 to +20 LU over
        // it); the first chime waits for the opening fade-in.
        var t = 0.0
        for cycle in 1...cycles {
            transition(&b, at: t, mark: "focus", title: cycles > 1 ? "focus \(cycle) of \(cycles)" : nil,
                       chime: "ui/chime-focus", haptic: "focus-start", text: "Focus time", fallback: "voice/focus-time",
                       delay: cycle == 1 && sound != nil ? Self.openingWait : 0)
            warnBefore(&b, end: t + focus, length: focus, warn: warn)
            t += focus
            let isLast = cycle == cycles
            let length = isLast ? long : short
            warnBefore(&b, end: t + length, length: length, warn: warn)
            transition(&b, at: t, mark: isLast ? "long-break" : "short-break", title: isLast ? "long break" : "short break",
                       chime: "ui/chime-break", haptic: "break-start", text: isLast ? "Long break" : "Short break",
                       fallback: isLast ? "voice/long-break" : "voice/short-break")
            if sound != nil {
                for layer in bed { b.fade(t + 3.5, layer, to: Self.breakLevel, over: 6) }
                for layer in bed { b.fade(t + length - 4, layer, to: 0, over: 4) }
            }
            t += length
        }
        b.mark(t, "end", title: "done")
        b.play(t, "ui/session-end", haptic: "session-end")
        b.say(t + 2.5, "Session complete", fallback: "voice/session-complete")
        if sound != nil { b.stop(t + 3.5, bed, fadeOut: 4.5) }
        return b.build()
    }

    /// The bed's level through a break (dB), the opening fade-in and how long the first
    /// chime waits for the bed (seconds: the bed it lands on is what was heard before it).
    static let breakLevel = -6.0, openingFade = 1.5, openingWait = 3.0

    /// The gain of the warning chime against the transition chimes: soft, a reminder.
    static let warningGain = -8.0

    /// `--warn`: nil (off), or seconds before a phase's end.
    static func warning(_ o: PresetOptions) throws(PresetError) -> Double? {
        let text = o.raw("warn").trimmingWhitespace()
        if text == "off" { return nil }
        guard let seconds = Double(text).map({ $0 * 60 }) ?? SessionTime.parse(text), seconds >= 30, seconds <= 1800 else {
            throw PresetError("\(option: "warn") must be a time from 30s to 30m before a phase ends (2m, 90s; a bare number is minutes) or off, not '\(text)'")
        }
        return seconds
    }

    /// The warning chime `warn` seconds before `end`, when the phase is longer than that.
    static func warnBefore(_ b: inout SessionBuilder, end: Double, length: Double, warn: Double?) {
        guard let warn, warn < length else { return }
        b.play(end - warn, "ui/chime-milestone", gain: warningGain)
    }

    /// A transition's haptic is timed to its chime: `focus-start` to `ui/chime-focus`,
    /// `break-start` to `ui/chime-break` (and `session-end` to `ui/session-end`).
    static func transition(_ b: inout SessionBuilder, at t: Double, mark: String, title: String?, chime: String, haptic: String,
                           text: String, fallback: String, delay: Double = 0) {
        b.mark(t, mark, title: title)
        b.play(t + delay + 0.2, chime, haptic: haptic)
        b.say(t + delay + 1.8, text, fallback: fallback)
    }
}
