import CabinAudio

/// Lays out a drive: layers, the ritual, driving stretches with a speed profile, rest
/// stops, announcements and the arrival. Times in seconds.
struct DriveTimeline {
    let s: DrivePreset.Settings
    var b: SessionBuilder
    var speed = SpeedProfile()
    var random: PresetRandom
    let total: Double
    let engine: DriveEngine
    /// Times of spoken announcements (to keep them apart).
    var spoken: [Double] = []
    /// The pedal's wander: above the target next (else below).
    var wanderUp = false
    /// Start times of the wander's speed ramps: never load (see `load`).
    var wanderRamps: Set<Double> = []

    init(settings: DrivePreset.Settings) {
        s = settings
        engine = DriveEngine(vehicle: settings.vehicle, live: settings.liveEngine)
        total = Double(settings.minutes * 60)
        b = SessionBuilder(title: "Drive to \(settings.destination == "your destination" ? "your destination" : settings.destination)",
                           duration: total)
        var seed: UInt64 = 1469598103934665603
        for byte in "\(settings.minutes)|\(settings.vehicle)|\(settings.route)|\(settings.destination)".utf8 {
            seed = (seed ^ UInt64(byte)) &* 1099511628211
        }
        random = PresetRandom(seed: seed)
    }

    var cruise: ClosedRange<Double> {
        switch s.route { case "highway": 62...68; case "scenic": 42...60; default: 26...45 }
    }

    var variationGap: ClosedRange<Double> {
        switch s.route { case "highway": 120...240; case "scenic": 60...120; default: 40...90 }
    }

    var hasIdleLoop: Bool { !engine.isElectric }
    /// The start haptic: an electric car has no starter to crank and no rumble to catch.
    var engineStartHaptic: String { engine.isElectric ? "engine-start-electric" : "engine-start" }
    var engineLayers: [String] { engine.layerNames }
    /// The route's ambience, pieces of it scattered over it while the car moves, and the
    /// odd horn of passing traffic.
    var ambientLayers: [String] { hasAmbientVariation ? ["ambient", "ambient-variation", "traffic"] : ["ambient", "traffic"] }
    /// A `synth:` ambience has no pieces to scatter (and needs none: it never repeats).
    var hasAmbientVariation: Bool {
        if case .synth = ambientSound { return false }
        return true
    }
    var arrivalStart: Double { total - 90 }

    mutating func build() -> SessionDocument {
        setUpMix()
        ritual()
        var driveStart = 8.0
        var rests: [Double] = []
        if let every = s.restEvery {
            var restStart = driveStart + Double(every * 60)
            while restStart + Double(s.rest * 60) + 180 <= arrivalStart {
                drive(from: driveStart, to: restStart)
                restStop(at: restStart)
                rests.append(restStart)
                driveStart = restStart + Double(s.rest * 60) - 20
                restStart = driveStart + Double(every * 60)
            }
        }
        drive(from: driveStart, to: arrivalStart)
        arrival()
        for (time, value, over) in speed.ramps { b.set(time, "speed", to: value, over: over) }
        load()
        announce(rests: rests)
        return b.build()
    }

    mutating func setUpMix() {
        // The engine bus's low-pass is the engine's load: open while accelerating, closing
        // while coasting (see `load`).
        if let i = b.document.buses.firstIndex(where: { $0.name == "engine" }) {
            b.document.buses[i].effects = [.init(key: "lowpass", value: Self.cruiseBrightness)]
        }
        b.document.parameters = [Parameter(name: "speed", value: 0, min: 0, max: 80)]
        b.document.ducking = [Ducking(when: "voice", duck: ["radio", "ambient", "engine"])]
        // The spec's mix (engine −12, ambient −18, radio −3; with the radio, ambient −13 and
        // radio −5, below) with the cues a designed margin
        // over it: UI sounds +2…+7 LU momentary, the voice +5…+8 LU. Without the radio the
        // bed is about 6 dB quieter, and so are the cues.
        b.setBus("ui", gain: s.radio == nil ? -8 : -2)
        b.setBus("voice", gain: s.radio == nil ? -7 : -1)
        if s.radio != nil {
            // The radio leaves the ambience room: the ambient bus 5 dB up and the radio 2 dB
            // down from the spec's mix, so the route is heard within about 6 dB of the radio
            // in every third-octave band from 200 Hz to 4 kHz (scripts/band-balance), and the
            // bed as loud as before against its cues.
            b.setBus("ambient", gain: Self.ambientWithRadio)
            b.setBus("radio", gain: Self.radioBus)
        }
        b.document.layers += engine.layers()
        let onSpeed = { (points: [(Double, Double)]) in LayerMap(parameter: "speed", points: points) }
        b.document.layers.append(Layer(name: "ambient", bus: "ambient", sound: ambientSound, isLooping: true,
                                       gain: hasAmbientVariation ? SessionBuilder.variationLoopGain : 0,
                                       gainMap: onSpeed([(0, -6), (60, 0)])))
        if hasAmbientVariation {
            _ = b.addVariation(of: ambientSound, on: "ambient", named: "ambient")
            b.document.layers[b.document.layers.count - 1].gainMap = onSpeed([(0, -40), (30, 0)])
            b.addDrift(to: "ambient", from: 0, to: total, seed: 0xA3B3)
        }
        b.document.layers.append(Layer(name: "traffic", bus: "ambient", sound: .library("ui/horn"),
                                       gainMap: onSpeed([(0, -40), (30, 0)]),
                                       scatter: Scatter(sounds: [.library("ui/horn")], rate: 0.2...0.8, gain: -20...(-10),
                                                        pan: -0.9...0.9, pitch: -4...1)))
        // Road texture under the wheels, felt in proportion to the speed (none while parked):
        // smooth asphalt on the highway and scenic routes, rough on back roads.
        b.document.hapticLayers.append(HapticLayer(name: "road", pattern: s.route == "backroads" ? "road-rough" : "road-smooth",
                                                   isLooping: true, intensity: onSpeed([(0, 0), (10, 0.4), (65, 1)])))
        // Leaving focus: the speed-bump warning (its thumps and haptic), and the car slows to
        // 20 mph until focus returns.
        b.document.focus = FocusSettings(parameter: "speed", away: 20, fall: 10, rise: 8, sound: .library("ui/speed-bump"))
        if let radio = s.radio, case .success(.station(let url)) = SoundReferenceParser.parse(radio) {
            // A station is mastered near -14 LUFS, the library's beds near its -23 reference.
            b.document.layers.append(Layer(name: "radio", bus: "radio", sound: .station(url), isLooping: true, gain: -10))
        } else if let radio = s.radio, SoundReferenceParser.isPlaylist(radio) {
            // The user's music: every track at the library's reference loudness, like the beds.
            b.document.layers.append(Layer(name: "radio", bus: "radio", sound: .playlist(radio), isLooping: true, gain: -2,
                                           playlist: PlaylistOptions(shuffle: true, crossfadeSeconds: 3)))
        } else if let radio = s.radio {
            let isNoise = radio.hasSuffix("-noise")
            // The lo-fi is composed as it plays (gen:lofi), never the same stretch twice; the
            // other beds are the library's loops.
            let sound: SoundReference = isNoise ? .synth(Synth(named: radio)!) : radio == "lofi" ? .generated("lofi") : .library("radio/\(radio)")
            b.document.layers.append(Layer(name: "radio", bus: "radio", sound: sound, isLooping: true, gain: isNoise ? -12 : -2))
        }
    }

    var ambientSound: SoundReference {
        (try? SoundReferenceParser.parse(s.ambient).get()) ?? .library(s.ambient)
    }

    /// Seatbelt, ignition, P → D; the drive begins at 8 s.
    mutating func ritual() {
        b.mark(0, "ritual", title: "setting off")
        b.play(0.5, "ui/seatbelt", haptic: "seatbelt")
        startEngine(at: 2.5)
        b.start(5, ambientLayers + ["road"], fadeIn: 6)
        b.play(7.5, "ui/gear-shift", haptic: "gear-shift")
        b.mark(8, "drive", title: "on the road")
        if s.radio != nil { b.start(10, ["radio"], fadeIn: 8) }
    }

    /// A stretch of road: up to cruising speed, then gentle changes of pace, and between
    /// them the slow wander of a foot on the pedal (2–3 % above and below the target in
    /// turn, ramps of 6–14 s back to back), so the rpm is never one steady tone — and never
    /// steady at all: a held rpm would repeat the engine's 6 s loop exactly. The wander is
    /// not load: a held speed, however it wanders, neither brightens nor dulls the engine.
    mutating func drive(from start: Double, to end: Double) {
        var target = cruiseSpeed(random.uniform(cruise))
        speed.ramp(at: start, to: target, over: 20)
        var t = start + 20
        var next = t + random.uniform(variationGap)
        while t < end - 60 {
            if t >= next {
                target = cruiseSpeed(random.uniform(cruise))
                if s.route != "highway" && random.uniform(0...1) < 0.25 { target = cruiseSpeed(max(15, cruise.lowerBound - 12)) }
                let over = random.uniform(15...40)
                speed.ramp(at: t, to: target, over: over)
                t += over
                next = t + random.uniform(variationGap)
            } else {
                // Back to back, each to the other side of the target by 2–3 %: the rpm is
                // always moving, so the engine's loop never lines up with itself for long.
                let over = random.uniform(6...14)
                wanderUp.toggle()
                speed.ramp(at: t, to: target * (1 + (wanderUp ? 1 : -1) * random.uniform(Self.wander)), over: over)
                wanderRamps.insert(t)
                t += over
            }
        }
    }

    /// A cruising speed kept 2.5 mph from every gear change, so the gearbox does not hunt
    /// while the speed wanders.
    func cruiseSpeed(_ v: Double) -> Double {
        guard let shift = engine.shiftSpeeds.first(where: { abs($0 - v) < 2.5 }) else { return v }
        return v < shift ? shift - 2.5 : shift + 2.5
    }

    /// Engine load: pressing on is louder and brighter than holding a speed, and lifting
    /// off (coasting, engine braking) quieter and duller. Each speed change of more than
    /// 3 mph moves the engine layers' level (±3 dB) and the engine bus's low-pass (12 kHz
    /// pressing on, 1.2 kHz lifting off, 2.5 kHz holding) as it starts, and back as it ends;
    /// the wander of a held speed does not (its swings reach 6 %, about 4 mph at 65), nor
    /// braking to a stop.
    mutating func load() {
        for r in speed.ramps where !wanderRamps.contains(r.time) {
            let change = r.to - speed.speed(at: r.time)
            // Braking to a stop ends at idle: no coasting dip to rise out of at a standstill.
            guard abs(change) > 3 && r.to > 0 else { continue }
            let (db, cutoff, attack) = change > 0 ? (3.0, 12000.0, 1.0) : (-3.0, 1200.0, 1.5)
            for layer in engineLayers { b.fade(r.time, layer, to: db, over: attack) }
            b.effect(r.time, "lowpass", on: "engine", to: cutoff, over: attack)
            let end = r.time + r.over
            for layer in engineLayers { b.fade(end, layer, to: 0, over: 2) }
            b.effect(end, "lowpass", on: "engine", to: Self.cruiseBrightness, over: 2)
        }
    }

    /// The ambient and radio buses' gains when the radio plays (dB).
    static let ambientWithRadio = -13.0
    static let radioBus = -5.0

    /// The pedal's wander at cruise: each swing this far above or below the target.
    static let wander = 0.02...0.03

    /// The engine bus's low-pass while holding a speed, Hz.
    static let cruiseBrightness = 2500.0

    /// Pull in, engine off, the rest area, the break, and back on the road. Haptics: the
    /// turn signal's tick-tock with its clicks, the pull-in ending as the car stops (the
    /// speed reaches 0 at t + 25), the engine winding down with its fade-out, the break's
    /// transition with its chime.
    mutating func restStop(at t: Double) {
        let back = t + Double(s.rest * 60)
        b.play(t - 2, "ui/turn-signal", haptic: "turn-signal")
        b.play(t - 1.2, "ui/turn-signal", haptic: "turn-signal")
        b.mark(t, "rest", title: "rest stop")
        speed.ramp(at: t, to: 0, over: 25)
        b.cue(t + 22) { $0.haptic = "rest-stop" }
        b.crossfade(t + 22, "ambient", to: .library("ambient/rest-area"), over: 5)
        if s.radio != nil { b.fade(t + 22, "radio", to: -8, over: 5) }
        b.play(t + 27, "ui/gear-shift", haptic: "gear-shift")
        b.stop(t + 29, engineLayers, fadeOut: 2.5)
        engineOff(t + 29)
        b.play(t + 33, "ui/chime-break", haptic: "break-start")
        say(t + 35, "Take a \(s.rest) minute break", fallback: s.rest == 5 ? "voice/take-a-break" : nil)
        say(back - 40, "Ready to hit the road again?", fallback: "voice/ready-to-go")
        startEngine(at: back - 30)
        b.crossfade(back - 26, "ambient", to: ambientSound, over: 5)
        if s.radio != nil { b.fade(back - 26, "radio", to: 0, over: 5) }
        b.play(back - 22, "ui/gear-shift", haptic: "gear-shift")
        b.mark(back - 20, "drive", title: "back on the road")
    }

    /// The vehicle's own start at `t`: the ignition of its engine (the electric car's
    /// power-on; a diesel's glow-plug wait first), and the engine layers from the moment the
    /// engine catches (0.76 s into every ignition), fading in while the ignition's rev
    /// settles to idle (2.1 s) — one engine heard throughout, never two.
    mutating func startEngine(at t: Double) {
        if engine.isElectric {
            b.play(t, "ui/power-on", haptic: engineStartHaptic)
            b.start(t + 0.5, engineLayers, fadeIn: 0.8)
            return
        }
        if s.vehicle == "diesel" { b.play(t - 1.6, "ui/glow-plug") }
        b.play(t, s.vehicle == "v8" ? "ui/ignition" : "ui/ignition-\(s.vehicle)", haptic: engineStartHaptic)
        b.start(t + 0.76, engineLayers, fadeIn: 1.4)
    }

    /// The engine winding down as its layers fade out (combustion engines; an electric
    /// motor just goes quiet).
    mutating func engineOff(_ t: Double) {
        if hasIdleLoop { b.cue(t) { $0.haptic = "engine-off" } }
    }

    /// Slowing down, the radio fades, engine off, the arrival chime and celebration.
    mutating func arrival() {
        b.mark(arrivalStart, "arrival")
        speed.ramp(at: arrivalStart + 5, to: 0, over: 50)
        if s.radio != nil { b.stop(arrivalStart, ["radio"], fadeOut: 40) }
        b.play(total - 30, "ui/turn-signal", haptic: "turn-signal")
        b.play(total - 28, "ui/gear-shift", haptic: "gear-shift")
        b.stop(total - 26, engineLayers, fadeOut: 3)
        engineOff(total - 26)
        b.stop(total - 24, ambientLayers + ["road"], fadeOut: 20)
        b.play(total - 22, "ui/session-end", haptic: "arrival")
        let welcome = s.destination == "your destination" ? "Journey complete" : "Journey complete. Welcome to \(s.destination)"
        say(total - 18, welcome, fallback: "voice/journey-complete")
    }
}
