/// `breathing`: a 45 s guided breathing exercise — inhale 4 s as a rising tone and a
/// swelling haptic, hold 4 s (a still haptic plateau), exhale 6 s falling — three times,
/// then the unlock cue.
/// `quest`: a 90 s timed quest (soft ticks every 15 s) with its end cue.
enum BreathingPreset {
    static let preset = SessionPresets.Preset(
        name: "breathing", summary: "a 45 s guided breath (inhale, hold, exhale ×3) in sound and haptics, then unlock",
        options: [.init(name: "cycles", defaultValue: "3", help: "breaths, 1–10")],
        make: { (o) throws(PresetError) -> SessionDocument in try make(o) })

    static let questPreset = SessionPresets.Preset(
        name: "quest", summary: "a 90 s timed quest with soft ticks and its end cue",
        options: [.init(name: "seconds", defaultValue: "90", help: "10–600")],
        make: { (o) throws(PresetError) -> SessionDocument in try quest(o) })

    static let inhale = 4.0, hold = 4.0, exhale = 6.0

    static func make(_ o: PresetOptions) throws(PresetError) -> SessionDocument {
        let cycles = Int(try o.number("cycles", in: 1...10))
        let lead = 1.5
        let total = lead + Double(cycles) * (inhale + hold + exhale) + 2.5
        var b = SessionBuilder(title: "Breathe", duration: total)
        b.document.parameters = [Parameter(name: "breath", value: 0, min: 0, max: 1)]
        let onBreath = { (points: [(Double, Double)]) in LayerMap(parameter: "breath", points: points) }
        b.document.layers = [
            Layer(name: "tone", bus: "ambient", sound: .synth(.sine(frequency: 196)), isLooping: true, gain: 6,
                  pitch: onBreath([(0, 1.0), (1, 1.5)]), gainMap: onBreath([(0, -10), (1, 0)])),
            Layer(name: "air", bus: "ambient", sound: .synth(.pinkNoise()), isLooping: true, gain: -4,
                  gainMap: onBreath([(0, -14), (1, -2)])),
        ]
        b.start(0, ["tone", "air"], fadeIn: lead)
        var t = lead
        for _ in 0..<cycles {
            b.mark(t, "inhale", title: "breathe in")
            b.set(t, "breath", to: 1, over: inhale)
            b.cue(t) { $0.haptic = "breath-in" }
            t += inhale
            b.mark(t, "hold")
            b.cue(t) { $0.haptic = "breath-hold" }
            t += hold
            b.mark(t, "exhale", title: "breathe out")
            b.set(t, "breath", to: 0, over: exhale)
            b.cue(t) { $0.haptic = "breath-out" }
            t += exhale
        }
        // The unlock lands on the breath's bed, which fades out under it.
        b.mark(t, "unlock")
        b.play(t + 0.5, "ui/unlock", gain: -3, haptic: "unlock")
        b.stop(t + 0.8, ["tone", "air"], fadeOut: 1.7)
        return b.build()
    }

    static func quest(_ o: PresetOptions) throws(PresetError) -> SessionDocument {
        let seconds = try o.number("seconds", in: 10...600)
        var b = SessionBuilder(title: "Quest: \(Int(seconds)) s", duration: seconds + 3)
        // The pad against its cues: the chimes about +5 LU over it, the ticks soft.
        b.setBus("ambient", gain: -6)
        b.setBus("ui", gain: -3)
        // The pad composed as it plays (gen:pad): a quest of ten minutes hears no chord twice
        // in a row and no stretch again (the library's 32 s loop came back sample for sample).
        b.document.layers = [Layer(name: "pad", bus: "ambient", sound: .generated("pad"), isLooping: true)]
        // The pad is there before the first chime and still there under the unlock (a chime
        // over silence has no bed to land on).
        b.mark(0, "quest")
        b.start(0, ["pad"], fadeIn: 0.5)
        b.play(2, "ui/chime-focus", haptic: "focus-start")
        var t = 15.0
        while t < seconds - 1 {
            b.play(t, "ui/toggle", gain: -1)
            t += 15
        }
        b.mark(seconds, "done")
        b.play(seconds, "ui/unlock", haptic: "unlock")
        b.stop(seconds + 0.5, ["pad"], fadeOut: 2.5)
        return b.build()
    }
}
