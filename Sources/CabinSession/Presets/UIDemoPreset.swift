/// `ui`: the UI feedback set of the focus-pages app — toggle tick, counter steps, streak
/// success — each with its haptic, a second apart.
enum UIDemoPreset {
    static let preset = SessionPresets.Preset(
        name: "ui", summary: "a short demo of the UI feedback sounds and haptics",
        options: [],
        make: { (_) throws(PresetError) -> SessionDocument in make() })

    static func make() -> SessionDocument {
        var b = SessionBuilder(title: "UI feedback", duration: 9)
        let steps: [(Double, String, String, String)] = [
            (0.3, "toggle", "ui/toggle", "toggle"), (1.3, "toggle", "ui/toggle", "toggle"),
            (2.5, "counter", "ui/counter-step", "counter-step"), (3.0, "counter", "ui/counter-step", "counter-step"),
            (3.5, "counter", "ui/counter-step", "counter-step"), (4.8, "streak", "ui/streak-success", "streak-success"),
            (7.0, "milestone", "ui/chime-milestone", "milestone"),
        ]
        // The ticks are trimmed by their peaks (the library's rule for clicks), so they sit
        // well under the chimes; the demo lifts them to be heard beside them.
        let lift = ["ui/toggle": 6.0, "ui/counter-step": 2.0]
        var last = ""
        for (t, mark, sound, haptic) in steps {
            if mark != last { b.mark(t, mark); last = mark }
            b.play(t, sound, gain: lift[sound] ?? 0, haptic: haptic)
        }
        return b.build()
    }
}
