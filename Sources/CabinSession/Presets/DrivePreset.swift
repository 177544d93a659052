/// `drive`: a work session framed as a road trip (PRODUCT.md, "the main one").
///
/// The pre-drive ritual (seatbelt click with a haptic, ignition with a rumble — a smooth
/// whir for the electric car — P → D), the
/// engine following a speed profile per route (highway steady near 65 mph, scenic varying,
/// back roads slower with more variation) — synthesized live from rpm and load, or with
/// `--engine loops` two recorded loops, idle and driving, that crossfade by speed; the route's ambience; the radio; GPS-style announcements every 10
/// miles, at halfway, 5 miles before each rest stop and when approaching, that duck the
/// other buses; rest stops; and the arrival. Miles come from the speed profile, so every
/// announcement agrees with every other. Rest stops and the arrival have their haptics:
/// the turn signal's tick-tock, pulling in, the engine winding down, the break chime's
/// `break-start`, and `arrival` with the arrival chime.
enum DrivePreset {
    static let vehicles = DriveChoices.vehicles
    static let routes = DriveChoices.routes
    static let radios = DriveChoices.radios

    static let preset = SessionPresets.Preset(
        name: "drive", summary: "a road trip as a focus session: ritual, engine, route, radio, rest stops, arrival",
        options: [
            .init(name: "minutes", defaultValue: "25", help: "session length, 25–240"),
            .init(name: "vehicle", defaultValue: "v6", help: vehicles.joined(separator: "|")),
            .init(name: "route", defaultValue: "highway", help: routes.joined(separator: "|")),
            .init(name: "engine", defaultValue: "live", help: "loops|live (live: combustion engines synthesized from rpm and load; loops: recordings repitched)"),
            .init(name: "destination", defaultValue: "your destination", help: "where you are going"),
            .init(name: "rest-every", defaultValue: "25m", help: DriveChoices.restEvery.joined(separator: "|")),
            .init(name: "rest", defaultValue: "5m", help: DriveChoices.rests.joined(separator: "|")),
            .init(name: "radio", defaultValue: "lofi", help: radios.joined(separator: "|") + "|http(s)://station-URL|FOLDER/|PLAYLIST.m3u"),
            .init(name: "ambient", defaultValue: "route", help: "route (the route's own) or an ambient/… library name"),
        ],
        make: { (o) throws(PresetError) -> SessionDocument in try make(o) })

    struct Settings {
        var minutes: Int
        var vehicle: String
        var route: String
        var destination: String
        var restEvery: Int?
        var rest: Int
        var radio: String?
        var ambient: String
        /// The combustion engines synthesized live (`synth:engine`, the default) instead of
        /// repitched loops (`--engine loops`).
        var liveEngine = true
    }

    static func settings(_ o: PresetOptions) throws(PresetError) -> Settings {
        let restEvery = try o.choice("rest-every", DriveChoices.restEvery)
        let ambientOption = o.raw("ambient")
        let route = try o.choice("route", routes)
        guard ambientOption == "route" || ambientOption.hasPrefix("ambient/") || ambientOption.hasPrefix("synth:") else {
            throw PresetError("\(option: "ambient") must be 'route' or a library name like ambient/rain, not '\(ambientOption)'")
        }
        let radioOption = o.raw("radio")
        let isStation = radioOption.lowercased().hasPrefix("http://") || radioOption.lowercased().hasPrefix("https://")
        if isStation, case .failure(let problem) = SoundReferenceParser.parse(radioOption) { throw PresetError("\(option: "radio"): \(problem.message)") }
        let isPlaylist = !isStation && SoundReferenceParser.isPlaylist(radioOption)
        let radio = isStation || isPlaylist ? radioOption : try o.choice("radio", radios)
        return Settings(
            minutes: try o.minutes("minutes", in: 25...240), vehicle: try o.choice("vehicle", vehicles), route: route,
            destination: try o.text("destination"),
            restEvery: restEvery == "off" ? nil : Int(restEvery.dropLast())!,
            rest: Int(try o.choice("rest", DriveChoices.rests).dropLast())!,
            radio: radio == "off" ? nil : radio,
            ambient: ambientOption == "route" ? routeAmbient[route]! : ambientOption,
            liveEngine: try o.choice("engine", ["loops", "live"]) == "live")
    }

    static let routeAmbient = ["highway": "ambient/highway-medium", "scenic": "ambient/highway-light",
                               "backroads": "ambient/desert-wind"]

    static func make(_ o: PresetOptions) throws(PresetError) -> SessionDocument {
        let s = try settings(o)
        var drive = DriveTimeline(settings: s)
        return drive.build()
    }
}

/// The drive preset's choices, defined once: the preset checks its options against them,
/// `cabin`'s help lists them and the config checker (CabinConfig) keeps station names off
/// the built-in radios.
public enum DriveChoices {
    /// `--vehicle`.
    public static let vehicles = ["v8", "v6", "four", "electric", "diesel", "vintage"]
    /// `--route`.
    public static let routes = ["highway", "scenic", "backroads"]
    /// `--radio`'s built-in radios (besides a station's URL, a folder or a playlist).
    public static let radios = ["lofi", "nature", "pad", "white-noise", "pink-noise", "brown-noise", "off"]
    /// `--rest-every`.
    public static let restEvery = ["25m", "50m", "off"]
    /// `--rest`: a rest stop's length.
    public static let rests = ["5m", "10m", "15m"]

    /// `a, b or c`, as the help says a list.
    public static func spoken(_ choices: [String]) -> String {
        choices.count < 2 ? choices.joined() : choices.dropLast().joined(separator: ", ") + " or " + choices.last!
    }
}
