import CabinAudio

/// Builds session documents in code: cues appended in any order, sorted at the end.
///
/// Every preset plays at `SessionDocument.defaultLoudness` (−20 LUFS integrated): the
/// document carries the target and the compiler sets the master gain. The bus gains only
/// balance the mix (the bed against its cues), so a preset with one bed does not inherit
/// the drive's −18 dB ambient bus.
struct SessionBuilder {
    var document: SessionDocument
    private var next = 0

    init(title: String, duration: Double) {
        document = SessionDocument(title: title, duration: duration)
        document.loudness = SessionDocument.defaultLoudness
    }

    /// A scatter layer of pieces of `sound` (a loop, played whole at evenly spaced random
    /// times, pitch and pan, about four overlapping) over the loop itself, which the caller plays
    /// `variationLoopGain` lower: the bed keeps its texture and about its level (the sum
    /// plays near the loop's own loudness), but no stretch of it comes back the same (the
    /// loop carries about a quarter of the power). Evenly spaced, the pieces keep the bed's
    /// level as a rain recording's (3 s loudness: 3.6 LU from its 2nd to its 50th percentile,
    /// Blanket's rain 3.5); Poisson-spaced they left dips of up to 10.7 LU, and a prompt
    /// landing in one jumped +14.6 LU over its bed. Returns the layer's name.
    mutating func addVariation(of sound: SoundReference, on bus: String, named name: String) -> String {
        let layer = name + "-variation"
        document.layers.append(Layer(name: layer, bus: bus, sound: sound, gain: -1.5,
                                     scatter: Scatter(sounds: [sound], rate: 8...12, gain: -9...(-3), pan: -0.7...0.7,
                                                      pitch: -1.5...1.5, spacing: .even)))
        return layer
    }

    /// The gain of a loop under its variation (`addVariation`).
    static let variationLoopGain = -6.0

    /// A varied bed at its level from its first second: the variation's pieces are as long
    /// as the loop, so for about that long after the start fewer of them overlap and the bed
    /// swelled for half a minute (6 dB under its level at first: the loop alone). Here the
    /// loop starts `−variationLoopGain` up and falls to its own level over `over` seconds,
    /// linearly in dB, while the pieces arrive. Call it with the bed's start cue.
    mutating func settleVariation(of loop: String, startedAt t: Double, over: Double = 30) {
        fade(t, loop, to: -Self.variationLoopGain, over: 0.01)
        fade(t + 0.01, loop, to: 0, over: over)
    }

    /// A slow pitch drift of `layer` (a loop) from `start` to `end`: ±2 % (a third of a
    /// semitone, heard as nothing but a bed that breathes), ramps of 10–30 s back to back,
    /// each swinging from one side to the other, so the loop's rate is always moving and it
    /// never lines up with itself again — no stretch of it comes back the same. The ramps
    /// are on the `parameter` (made here; `drift` unless a second layer drifts on its own)
    /// seeded by `seed`.
    mutating func addDrift(to layer: String, from start: Double, to end: Double, seed: UInt64, parameter: String = "drift") {
        if !document.parameters.contains(where: { $0.name == parameter }) {
            document.parameters.append(Parameter(name: parameter, value: 0.5, min: 0, max: 1))
        }
        guard let i = document.layers.firstIndex(where: { $0.name == layer }) else { return }
        document.layers[i].pitch = LayerMap(parameter: parameter, points: [(0, 1 - Self.driftDepth), (1, 1 + Self.driftDepth)])
        var random = SeededRandom(seed: seed)
        var t = start, high = random.chance(0.5)
        while t < end {
            let over = (random.uniform(10...30) * 10).rounded() / 10
            let value = high ? random.uniform(0.65...1) : random.uniform(0...0.35)
            high.toggle()
            cue(t) { $0.set = Cue.ParameterChange(parameter: parameter, to: (value * 1000).rounded() / 1000, over: over) }
            t += over
        }
    }

    /// The pitch drift's depth (`addDrift`): ±2 %.
    static let driftDepth = 0.02

    /// Sets bus `name`'s gain in dB (a default bus, or a new one).
    mutating func setBus(_ name: String, gain: Double, effects: [Bus.Effect] = []) {
        if let i = document.buses.firstIndex(where: { $0.name == name }) {
            document.buses[i].gain = gain
            document.buses[i].effects = effects
        } else {
            document.buses.append(Bus(name: name, gain: gain, effects: effects))
        }
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

    mutating func say(_ time: Double, _ text: String, fallback: String?, gain: Double = 0) {
        cue(time) { $0.say = Cue.Speech(text: text, gain: gain, fallback: fallback.map { .library($0) }) }
    }

    /// A mark `name` (what hooks see) with the segment's `title` for people (nil: the name).
    mutating func mark(_ time: Double, _ name: String, title: String? = nil) {
        cue(time) {
            $0.mark = name
            $0.markTitle = title
        }
    }

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

    /// Moves parameter `parameter` (default: the main one) of effect `effect` (a
    /// `DocumentEffect` key) of `bus` to `value` over `over` seconds.
    mutating func effect(_ time: Double, _ effect: String, _ parameter: String? = nil, on bus: String, to value: Double,
                         over: Double) {
        cue(time) { $0.effect = Cue.EffectChange(bus: bus, effect: effect, parameter: parameter, to: value, over: over) }
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
