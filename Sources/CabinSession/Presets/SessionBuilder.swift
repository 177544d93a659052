/// Builds session documents in code: cues appended in any order, sorted at the end.
struct SessionBuilder {
    var document: SessionDocument
    private var next = 0

    init(title: String, duration: Double) {
        document = SessionDocument(title: title, duration: duration)
    }

    /// Appends a cue at `time` (seconds), configured by `body`.
    mutating func cue(_ time: Double, _ body: (inout Cue) -> Void) {
        // Times to the millisecond, as a document writes them.
        var cue = Cue(time: (max(0, min(time, document.duration)) * 1000).rounded() / 1000, index: next)
        next += 1
        body(&cue)
        document.cues.append(cue)
    }

    mutating func play(_ time: Double, _ sound: String, bus: String = "ui", gain: Double = 0, haptic: String? = nil) {
        cue(time) {
            $0.play = Cue.OneShot(sound: .library(sound), bus: bus, gain: gain)
            $0.haptic = haptic
        }
    }

    mutating func say(_ time: Double, _ text: String, fallback: String?) {
        cue(time) { $0.say = Cue.Speech(text: text, fallback: fallback.map { .library($0) }) }
    }

    mutating func mark(_ time: Double, _ name: String) { cue(time) { $0.mark = name } }

    mutating func set(_ time: Double, _ parameter: String, to value: Double, over: Double) {
        cue(time) { $0.set = Cue.ParameterChange(parameter: parameter, to: (value * 10).rounded() / 10,
                                                  over: (over * 1000).rounded() / 1000) }
    }

    mutating func start(_ time: Double, _ layers: [String], fadeIn: Double) {
        cue(time) {
            $0.start = layers
            $0.fadeIn = fadeIn
        }
    }

    mutating func stop(_ time: Double, _ layers: [String], fadeOut: Double) {
        cue(time) {
            $0.stop = layers
            $0.fadeOut = fadeOut
        }
    }

    mutating func fade(_ time: Double, _ layer: String, to db: Double, over: Double) {
        cue(time) { $0.fade = Cue.LayerFade(layer: layer, to: db, over: over) }
    }

    /// Moves effect `effect` (a `DocumentEffect` key) of `bus` to `value` over `over` seconds.
    mutating func effect(_ time: Double, _ effect: String, on bus: String, to value: Double, over: Double) {
        cue(time) { $0.effect = Cue.EffectChange(bus: bus, effect: effect, to: value, over: over) }
    }

    mutating func crossfade(_ time: Double, _ layer: String, to sound: SoundReference, over: Double) {
        cue(time) { $0.crossfade = Cue.Crossfade(layer: layer, to: sound, over: over) }
    }

    /// The document with cues in time order (document order kept for equal times).
    func build() -> SessionDocument {
        var doc = document
        doc.cues = doc.cues.sorted { ($0.time, $0.index) < ($1.time, $1.index) }
        for i in doc.cues.indices { doc.cues[i].index = i }
        return doc
    }
}
