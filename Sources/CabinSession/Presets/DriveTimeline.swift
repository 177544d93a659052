import CabinAudio
import Glibc

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
    /// The start haptic, made from the vehicle's own start sound (`haptics from-audio`, so
    /// its taps fall on that ignition's own crank pulses and catch): `engine-start` for the
    /// V8's `ui/ignition`, `engine-start-v6` … for the others'; an electric car has no
    /// starter to crank and no rumble to catch.
    var engineStartHaptic: String {
        engine.isElectric ? "engine-start-electric" : s.vehicle == "v8" ? "engine-start" : "engine-start-\(s.vehicle)"
    }
    var engineLayers: [String] { engine.layerNames }
    /// The route's ambience and pieces of it scattered over it while the car moves. (No
    /// scattered horns: at −20…−10 dB on the ambient bus they sat 10–20 dB under the mix in
    /// every third-octave band, heard by nobody, and loud enough to be heard a horn is an
    /// alert in a focus session; the city bed has its own, far off.)
    var ambientLayers: [String] { hasAmbientVariation ? ["ambient", "ambient-variation"] : ["ambient"] }
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
        b.document.ducking = [Ducking(when: "voice", duck: ["radio", "ambient", "engine"]),
                              Ducking(when: "voice", duck: ["radio", "ambient", "engine"], band: Ducking.speechBand)]
        // The spec's mix (engine −12, ambient −18, radio −3; with the radio, ambient −13 and
        // radio −5, below) with the cues a designed margin
        // over it (`cabin session levels`: on the road chimes about +4…+9 LU and the voice
        // +5…+9 LU over the bed before them). Without the radio the bed is about 6 dB
        // quieter, and so are the cues.
        b.setBus("ui", gain: s.radio == nil ? -8 : -2)
        b.setBus("voice", gain: s.radio == nil ? -9 : -1)
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
                                       gainMap: onSpeed([(0, -3), (60, 0)])))
        if hasAmbientVariation {
            _ = b.addVariation(of: ambientSound, on: "ambient", named: "ambient")
            b.document.layers[b.document.layers.count - 1].gainMap = onSpeed([(0, -40), (30, 0)])
            b.addDrift(to: "ambient", from: 0, to: total, seed: 0xA3B3)
        }
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
            let noise = radio.hasSuffix("-noise") ? Synth(named: radio) : nil
            // The lo-fi and the pad are composed as they play (gen:lofi, gen:pad), never the
            // same stretch twice; the nature bed is the library's loop under pieces of itself
            // scattered over it, its rate drifting, so no stretch of it comes back either.
            let sound: SoundReference = if let noise { .synth(noise) }
                else if Self.generatedRadios.contains(radio) { .generated(radio) } else { .library("radio/\(radio)") }
            let isLoop = if case .library = sound { true } else { false }
            b.document.layers.append(Layer(name: "radio", bus: "radio", sound: sound, isLooping: true,
                                           gain: noise != nil ? -12 : isLoop ? -2 + SessionBuilder.variationLoopGain : -2))
            if isLoop {
                _ = b.addVariation(of: sound, on: "radio", named: "radio")
                b.addDrift(to: "radio", from: 0, to: total, seed: 0xA3B4, parameter: "radio-drift")
            }
        }
    }

    /// The radio beds composed as they play (`gen:NAME`) rather than looped.
    static let generatedRadios: Set<String> = ["lofi", "pad"]

    /// The radio's layers, as `setUpMix` made them: the bed, and the pieces scattered over a
    /// looped one.
    var radioLayers: [String] { b.document.layers.filter { $0.bus == "radio" }.map(\.name) }

    var ambientSound: SoundReference {
        (try? SoundReferenceParser.parse(s.ambient).get()) ?? .library(s.ambient)
    }

    /// Seatbelt, ignition, P → D; the drive begins at 8 s. The route's ambience is there
    /// from the first moment, heard from a parked car (the speed's gain map holds it 3 dB
    /// down at a standstill), so the ritual's clicks land on a bed and not on silence; the
    /// road's texture starts with the drive.
    mutating func ritual() {
        b.mark(0, "ritual", title: "setting off")
        b.start(0, ambientLayers, fadeIn: 0.4)
        if hasAmbientVariation { b.settleVariation(of: "ambient", startedAt: 0) }
        b.play(1.2, "ui/seatbelt", gain: Self.ritualGain, haptic: "seatbelt")
        startEngine(at: 2.5, gain: ignitionGain)
        b.start(5, ["road"], fadeIn: 6)
        b.play(7.5, "ui/gear-shift", gain: Self.ritualGain, haptic: "gear-shift")
        b.mark(8, "drive", title: "on the road")
        if s.radio != nil { b.start(10, radioLayers, fadeIn: 8) }
    }

    /// A stretch of road: up to cruising speed, then gentle changes of pace, and between
    /// them the slow wander of a foot on the pedal (0.5–0.9 % above and below the target in
    /// turn, ramps of 15–30 s back to back): the rpm is never quite one steady tone, but it
    /// holds as a driver holds a speed — within ±25 cents over a minute, moving no faster
    /// than 10 cents a second (a wander of 2–3 % made the engine a slow siren: ±39 to ±117
    /// cents over a minute, up to 18 cents a second, `scripts/engine-hold`). A change of pace moves the rpm no faster than 8 cents a
    /// second either. The wander is not load: a held speed, however it wanders, neither
    /// brightens nor dulls the engine.
    mutating func drive(from start: Double, to end: Double) {
        var target = cruiseSpeed(random.uniform(cruise))
        speed.ramp(at: start, to: target, over: 20)
        var t = start + 20
        var next = t + random.uniform(variationGap)
        while t < end - 60 {
            if t >= next {
                let from = target
                target = cruiseSpeed(random.uniform(cruise))
                if s.route != "highway" && random.uniform(0...1) < 0.25 { target = cruiseSpeed(max(15, cruise.lowerBound - 12)) }
                // A change of pace is a new speed, at least `paceStep` from the old (its load
                // cues make it heard as pressing on or lifting off); a smaller one would be a
                // drift of the held speed that no load explains.
                if abs(target - from) < Self.paceStep {
                    let options = [from + Self.paceStep, from - Self.paceStep].filter { cruise.contains($0) }.map(cruiseSpeed)
                    target = options.first { abs($0 - from) >= Self.paceStep } ?? from
                }
                // In one gear the rpm moves as the speed does: cents = 1200 · log2(to / from).
                let cents = abs(1200 * log2(target / from))
                let over = max(random.uniform(15...40), cents / Self.paceRate)
                speed.ramp(at: t, to: target, over: over)
                t += over
                next = t + random.uniform(variationGap)
            } else {
                // Back to back, each to the other side of the target by 0.5–0.9 %.
                let over = random.uniform(Self.wanderRamp)
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

    /// Cue gains (dB) where the bed is quieter than on the road, so no cue jumps more than
    /// +10 LU over the bed it lands on (`cabin session levels`): the ritual's clicks over a
    /// parked car's ambience, the ignition, the rest stop's cues over the rest area (and the
    /// arrival's clicks), the arrival's chime and welcome over the ambience alone.
    static let ritualGain = -9.5, restGain = -4.5, restSpeechGain = -5.5, arrivalGain = -9.0,
               arrivalSpeechGain = -6.8, milestoneGain = -2.0
    /// The ignition's gain (dB): the starts differ in their loudest moment (the V8's crank is
    /// the softest, the electric car's power-on a soft chime and a whir).
    var ignitionGain: Double { engine.isElectric ? -9 : s.vehicle == "v8" ? -12 : -14 }
    /// The radio's level at a rest stop, and the ambience's at the arrival from the moment
    /// the car slows (the destination heard as the radio and the engine fade), dB.
    static let restRadio = -4.0, arrivalAmbient = 10.0

    /// The ambient and radio buses' gains when the radio plays (dB).
    static let ambientWithRadio = -13.0
    static let radioBus = -5.0

    /// The pedal's wander at cruise: each swing this far above or below the target
    /// (0.9 % is 15.5 cents), and how long each takes, seconds.
    static let wander = 0.005...0.009
    static let wanderRamp = 15.0...30.0
    /// The fastest a change of pace moves the rpm, cents a second.
    static let paceRate = 8.0
    /// The least a change of pace moves the target, mph: with the wander's 0.9 % on either
    /// side, the speed still moves more than the 3 mph that make load.
    static let paceStep = 4.5

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
        // The rest area without the engine is a quieter bed: the radio dips only a little,
        // and the rest stop's cues are set for it (`restGain`).
        if s.radio != nil { for layer in radioLayers { b.fade(t + 22, layer, to: Self.restRadio, over: 5) } }
        b.play(t + 27, "ui/gear-shift", gain: Self.restGain, haptic: "gear-shift")
        b.stop(t + 29, engineLayers, fadeOut: 2.5)
        engineOff(t + 29)
        b.play(t + 33, "ui/chime-break", gain: Self.restGain, haptic: "break-start")
        say(t + 35, "Take a \(s.rest) minute break", fallback: s.rest == 5 ? "voice/take-a-break" : nil, gain: Self.restSpeechGain)
        say(back - 40, "Ready to hit the road again?", fallback: "voice/ready-to-go", gain: Self.restSpeechGain)
        startEngine(at: back - 30, gain: ignitionGain)
        b.crossfade(back - 26, "ambient", to: ambientSound, over: 5)
        if s.radio != nil { for layer in radioLayers { b.fade(back - 26, layer, to: 0, over: 5) } }
        b.play(back - 22, "ui/gear-shift", gain: Self.ritualGain, haptic: "gear-shift")
        b.mark(back - 20, "drive", title: "back on the road")
    }

    /// The vehicle's own start at `t`: the ignition of its engine (the electric car's
    /// power-on; a diesel's glow-plug wait first), and the engine layers from the moment the
    /// engine catches (0.76 s into every ignition), fading in while the ignition's rev
    /// settles to idle (2.1 s) — one engine heard throughout, never two.
    mutating func startEngine(at t: Double, gain: Double) {
        if engine.isElectric {
            b.play(t, "ui/power-on", gain: gain, haptic: engineStartHaptic)
            b.start(t + 0.5, engineLayers, fadeIn: 0.8)
            return
        }
        if s.vehicle == "diesel" { b.play(t - 1.6, "ui/glow-plug", gain: gain) }
        b.play(t, s.vehicle == "v8" ? "ui/ignition" : "ui/ignition-\(s.vehicle)", gain: gain, haptic: engineStartHaptic)
        b.start(t + 0.76, engineLayers, fadeIn: 1.4)
    }

    /// The engine winding down as its layers fade out (combustion engines; an electric
    /// motor just goes quiet).
    mutating func engineOff(_ t: Double) {
        if hasIdleLoop { b.cue(t) { $0.haptic = "engine-off" } }
    }

    /// Slowing down, the radio fades, engine off, the arrival chime and celebration.
    /// The ambience holds under the arrival's cues and fades only after the welcome (a bed
    /// that had faded to nothing made the turn signal, the chime and the voice jump +21 to
    /// +41 LU over it), and rises as the radio and the engine fade: the destination is heard,
    /// and the bed the cues land on stays.
    mutating func arrival() {
        b.mark(arrivalStart, "arrival")
        speed.ramp(at: arrivalStart + 5, to: 0, over: 50)
        if s.radio != nil { b.stop(arrivalStart, radioLayers, fadeOut: 40) }
        for layer in ambientLayers { b.fade(arrivalStart, layer, to: Self.arrivalAmbient, over: 40) }
        b.play(total - 30, "ui/turn-signal", gain: Self.restGain, haptic: "turn-signal")
        b.play(total - 28, "ui/gear-shift", gain: Self.restGain, haptic: "gear-shift")
        b.stop(total - 26, engineLayers, fadeOut: 3)
        engineOff(total - 26)
        b.stop(total - 24, ["road"], fadeOut: 20)
        b.play(total - 22, "ui/session-end", gain: Self.arrivalGain, haptic: "arrival")
        let welcome = s.destination == "your destination" ? "Journey complete" : "Journey complete. Welcome to \(s.destination)"
        say(total - 18, welcome, fallback: "voice/journey-complete", gain: Self.arrivalSpeechGain)
        b.stop(total - 13, ambientLayers, fadeOut: 12)
    }
}
