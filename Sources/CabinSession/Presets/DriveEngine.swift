import Glibc
import CabinAudio

/// The drive's engine as a driver knows it: by default each combustion engine synthesized
/// live (`synth:engine`, one layer), with `--engine loops` the library's recorded loops (an
/// idle loop and a cruise loop per combustion engine); the electric motor always live
/// (`synth:motor`, one layer):
///
/// - **rpm from speed through the gears**: first gear rises from idle to the shift point as
///   the car pulls away, each upshift drops the rpm into the next gear, and top gear at
///   65 mph is the cruise loop's own rpm (pitch 1). A pitch map of speed is piecewise
///   linear, and so is rpm in each gear, so the maps are exact: the firing rate of the
///   cruise loop is `rpm / cruiseRPM` of its recorded one at every speed.
/// - **level from speed**: idle 12 dB under cruise, rising with speed; the idle and cruise
///   loops crossfade with equal power (they are unrelated recordings, so powers add) while
///   the car pulls away, sampled every mph so the bus never dips on the way.
/// - **a level per vehicle** against the V6: V8 +3 dB, electric −8 dB.
/// - the electric motor has no idle or gears: silent at a standstill, its hum and its
///   inverter whine following the speed exactly (the whine 0 → 2.5 kHz at 80 mph).
///
/// The live model (`synth:engine`, one layer through the same gears, the default) holds the
/// body and exhaust resonances fixed while the firing rate moves, and its level follower
/// holds its level whatever the rpm, so its gain map is the level curve alone. The loops
/// (`--engine loops`) are repitched recordings, so their resonances move with the firing
/// rate (within the −37 %…+23 % the gears allow). Load (accelerating louder and brighter
/// than coasting) is the timeline's: see `DriveTimeline.load`.
struct DriveEngine {
    /// The vehicle: `v8`, `v6`, `four`, `diesel`, `vintage` or `electric`.
    let vehicle: String
    /// Level against the V6, in dB (the engine layers' gain).
    let level: Double
    /// The idle loop's and the cruise loop's recorded rpm (EngineRecipes).
    let idleRPM: Double, cruiseRPM: Double
    /// Miles per hour per 1000 rpm in each gear, first to top (top: 65 mph at `cruiseRPM`).
    let gears: [Double]
    /// The rpm at which an upshift happens (a relaxed automatic).
    let shiftRPM: Double
    /// Synthesized live (`synth:engine`, one layer following the rpm through the gears)
    /// instead of the idle and cruise loops; the electric motor is always live (`synth:motor`).
    let isLive: Bool

    static let cruiseSpeed = 65.0
    /// Idle against cruise, dB.
    static let idleLevel = -12.0
    /// The speeds over which the idle loop hands over to the cruise loop.
    static let handover = 2.0...14.0

    init(vehicle: String, live: Bool = true) {
        self.vehicle = vehicle
        isLive = live && vehicle != "electric"
        // Overall ratios as fractions of top gear: a five-speed, a four-speed for the vintage car.
        let fractions = vehicle == "vintage" ? [0.3, 0.55, 0.78, 1.0] : [0.23, 0.41, 0.6, 0.8, 1.0]
        let (level, idle, cruise): (Double, Double, Double) = switch vehicle {
        case "v8": (3, 720, 2000)
        case "four": (-1, 850, 2700)
        case "diesel": (1, 760, 1800)
        case "vintage": (0, 700, 2100)
        case "electric": (-8, 0, 0)
        default: (0, 800, 2300)
        }
        self.level = level
        idleRPM = idle
        cruiseRPM = cruise
        shiftRPM = 1.13 * cruise
        let top = Self.cruiseSpeed / (cruise / 1000)
        gears = vehicle == "electric" ? [] : fractions.map { top * $0 }
    }

    var isElectric: Bool { gears.isEmpty }

    /// Speeds at which the gearbox shifts up (and down again when slowing).
    var shiftSpeeds: [Double] { gears.dropLast().map { $0 * shiftRPM / 1000 } }

    /// The rpm at `speed` mph: first gear slips from idle up to the shift point, then each
    /// gear is `speed / (mph per 1000 rpm)`.
    func rpm(at speed: Double) -> Double {
        let shifts = shiftSpeeds
        if speed <= shifts[0] { return idleRPM + (shiftRPM - idleRPM) * max(0, speed) / shifts[0] }
        let gear = shifts.lastIndex { $0 < speed }! + 1
        return speed * 1000 / gears[gear]
    }

    /// The engine's level in dB at `speed` (0 = a V6 at cruise): idle 12 dB down, rising
    /// with speed to cruise at 45 mph and a little beyond at 80.
    func level(at speed: Double) -> Double { Self.levelCurve.value(at: speed) }

    static let levelCurve = LayerMap(parameter: "speed", points: [(0, idleLevel), (20, -4), (45, 0), (80, 1.5)])

    /// The session's engine layers (on the `engine` bus, following `speed`).
    func layers() -> [Layer] {
        let onSpeed = { (points: [(Double, Double)]) in LayerMap(parameter: "speed", points: points) }
        if isElectric {
            // One live motor (`synth:motor`): its speed is the car's (pitch = speed / 80, so
            // the hum's first order is 300 Hz and the inverter whine 2.03 kHz at 65 mph, 2.5
            // kHz at 80), never a loop, so nothing repeats; silent parked (the motor's own
            // fade-in as it turns, under the gain map's −60 dB).
            let hum = [(0.0, -60.0), (1, -24), (5, -12), (20, -4), (45, 0), (80, 1.5)]
            return [Layer(name: "engine", bus: "engine", sound: .synth(Self.motor), isLooping: true,
                          gain: level + Self.motorTrim, pitch: onSpeed([(0, 0.004), (80, 1)]), gainMap: onSpeed(hum))]
        }
        // Knots: every shift (just before and after), every mph of the handover, and the
        // level curve's own corners.
        var speeds: Set<Double> = [0, 20, 45, 80]
        for s in stride(from: Self.handover.lowerBound, through: Self.handover.upperBound, by: 1) { speeds.insert(s) }
        for s in shiftSpeeds { speeds.formUnion([rounded(s), rounded(s + 0.4)]) }
        let knots = speeds.sorted()
        if isLive { return [liveLayer(knots: knots)] + sputterLayers() }
        // During the handover the idle loop's pitch is held to 1.3× (a lumpy idle at 3× would
        // not sound like an engine) and the cruise loop's to 0.6× at the least.
        let idle = knots.map { s in (s, min(1.3, rpmAtKnot(s) / idleRPM)) }.filter { $0.0 <= Self.handover.upperBound }
        let cruise = knots.map { s in (s, max(0.6, rpmAtKnot(s) / cruiseRPM)) }
        let idleGain = knots.filter { $0 <= Self.handover.upperBound }.map { s in (s, level(at: s) + 20 * log10(max(1e-4, cos(.pi / 2 * handover(s))))) }
        let cruiseGain = knots.map { s in (s, level(at: s) + 20 * log10(max(1e-4, sin(.pi / 2 * handover(s))))) }
        return [
            Layer(name: "idle", bus: "engine", sound: .library("engine/\(vehicle)-idle"), isLooping: true, gain: level,
                  pitch: onSpeed(idle.map { ($0.0, ratio($0.1)) }), gainMap: onSpeed(idleGain.map { ($0.0, decibels($0.1)) })),
            Layer(name: "engine", bus: "engine", sound: .library("engine/\(vehicle)"), isLooping: true, gain: level,
                  pitch: onSpeed(cruise.map { ($0.0, ratio($0.1)) }), gainMap: onSpeed(cruiseGain.map { ($0.0, decibels($0.1)) })),
        ] + sputterLayers()
    }

    /// The vintage motor's sputters at random (Poisson) times, each its own level, pan and
    /// pitch, following the engine's level with speed.
    private func sputterLayers() -> [Layer] {
        guard hasSputters else { return [] }
        let sound = SoundReference.library("engine/vintage-sputter")
        return [Layer(name: "sputter", bus: "engine", sound: sound, gain: level - 4,
                      gainMap: LayerMap(parameter: "speed", points: Self.levelCurve.points.map { ($0.0, $0.1) }),
                      scatter: Scatter(sounds: [sound], rate: 2...7, gain: -8...0, pan: -0.2...0.2, pitch: -3...1))]
    }

    /// The live engine: one `synth:engine` layer whose pitch map is the rpm through the
    /// gears (pitch 1 = the cruise rpm, from idle at a standstill), its level the level curve
    /// (idle 12 dB under cruise) — one source, so there is no handover to dip through, and
    /// the voice holds its own level at every rpm (its level follower), so the curve alone
    /// sets it.
    private func liveLayer(knots: [Double]) -> Layer {
        // The trim brings each to the loops' loudness at cruise (the live engine plays at
        // −15 dBFS RMS at every rpm, the library's loops at −23 LUFS): measured on
        // DriveEngineTests' cruise window. The voice holds its power, not its loudness: at
        // idle more of it lies under 100 Hz (a V6 idles at 40 Hz), which loudness counts
        // less, so idle measured 14.8 (V8) and 14.1 dB (V6) under cruise in LUFS where the
        // level curve says 12.9; `idleLift` gives that back at idle, tapering with the rpm to
        // nothing at the cruise rpm (measured on DriveEngineTests' idle and cruise windows).
        // The exhaust-rasp band (issue 27: content above 500 Hz) made the V6, four, diesel
        // and vintage 0.2–0.6 LU louder at the same power; their trims give it back.
        let (cylinders, exhaust, rasp, trim, idleLift): (Int, Double, Double, Double, Double) = switch vehicle {
        case "v8": (8, 180, 0.6, -9.75, 1.9)
        case "four": (4, 320, 2.5, -9.63, 0.3)
        case "diesel": (4, 200, 1.6, -8.89, 0)
        case "vintage": (4, 270, 1.2, -9.32, -0.1)
        default: (6, 230, 1, -9.97, 1.2)
        }
        let synth = Synth.engine(cylinders: cylinders, rpm: cruiseRPM, exhaust: exhaust, rasp: rasp)
        let pitch = knots.map { s in (s, ratio(rpmAtKnot(s) / cruiseRPM)) }
        let lift = { (rpm: Double) in idleLift * min(1, max(0, (cruiseRPM - rpm) / (cruiseRPM - idleRPM))) }
        let gain = knots.map { s in (s, decibels(level(at: s) + lift(rpmAtKnot(s)))) }
        return Layer(name: "engine", bus: "engine", sound: .synth(synth), isLooping: true, gain: level + trim,
                     pitch: LayerMap(parameter: "speed", points: pitch), gainMap: LayerMap(parameter: "speed", points: gain))
    }

    /// The electric motor: hum orders of 370 Hz and an inverter whine at 2.5 kHz at 80 mph,
    /// the whine's level 0.4 × the hum's first order. At the electric's level (−8 dB against
    /// the V6) a hum at ~110 Hz, where the road's rumble and the radio's bass are, was 5 dB
    /// under the rest of its critical band; at 300 Hz (cruise) it clears it, and the whine
    /// clears its own with room to spare: each line 0 dB or more over the rest of its
    /// critical band in the drive's mix at cruise, lo-fi radio playing
    /// (`scripts/engine-spectra --vehicle electric`, `EngineCharacterTests`). The hum's
    /// orders reach 8 × 370 Hz, under the whine's 2.5 kHz (the whine is the strongest line
    /// within 20 % of its own frequency at every speed).
    static let motor = Synth.motor(frequency: 370, whine: 2500, balance: 0.4)
    /// The motor's trim: its loudness at cruise −8 dB against the V6's, measured on the
    /// engine bus alone at cruise (DriveEngineTests' window), the mean over seeds.
    static let motorTrim = -9.0

    /// The layers that start with the engine and stop with it.
    var layerNames: [String] {
        if isElectric { return ["engine"] }
        let engine = isLive ? ["engine"] : ["idle", "engine"]
        return hasSputters ? engine + ["sputter"] : engine
    }

    /// The vintage motor sputters now and then (a scatter: its loops have none baked in).
    var hasSputters: Bool { vehicle == "vintage" }

    /// The handover from idle (0) to cruise (1) at `speed`.
    func handover(_ speed: Double) -> Double {
        min(1, max(0, (speed - Self.handover.lowerBound) / (Self.handover.upperBound - Self.handover.lowerBound)))
    }

    /// rpm at a knot: a shift's first knot is the old gear's top, its second the new gear.
    private func rpmAtKnot(_ s: Double) -> Double {
        if let shift = shiftSpeeds.first(where: { rounded($0) == s }) { return rpm(at: shift) }
        return rpm(at: s)
    }

    /// Shift speeds to a tenth of a mph (the `set speed` cues' resolution).
    private func rounded(_ s: Double) -> Double { (s * 10).rounded() / 10 }
    private func ratio(_ r: Double) -> Double { (r * 10000).rounded() / 10000 }
    private func decibels(_ d: Double) -> Double { (d * 100).rounded() / 100 }
}
