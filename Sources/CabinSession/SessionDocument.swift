import CabinAudio
import CabinHaptics

/// A valid session document (SESSION-FORMAT.md, version 1): what to play, on which bus,
/// and when. Only `SessionReader` makes one, so every reference in it resolves.
///
/// Thread: a value type; any thread.
public struct SessionDocument: Sendable, Equatable {
    /// Versions of the format this build reads.
    public static let supportedVersions = [1]

    /// The format version the document declares (`"cabin": 1`), one of `supportedVersions`.
    public var version: Int = 1
    /// The title for people (`"title"`); nil: it has none.
    public var title: String?
    /// The session's length in seconds, as written or derived (`duration` default: the
    /// last cue plus the longest tail).
    public var duration: Double
    /// Whether `duration` was written in the document.
    public var durationIsExplicit: Bool
    /// The integrated loudness (LUFS) the session plays at (`"loudness": -20`): the compiler
    /// sets the master gain from the session's estimated loudness (`SessionLoudness`).
    /// `nil`: no target; gains are exactly as written.
    public var loudness: Double?
    /// The seed of everything random in the session (noises, scatters): `"seed": 7`; 0
    /// (the default) keeps the seeds by position.
    public var seed: UInt64 = 0
    /// Seeds a document may give.
    public static let seedRange: ClosedRange<Double> = 0...9_007_199_254_740_991
    /// Loudness targets a document may ask for, in LUFS.
    public static let loudnessRange: ClosedRange<Double> = -40 ... -10
    /// The target the presets write: a bed to leave on for hours (AUDIO.md).
    public static let defaultLoudness = -20.0
    /// Buses in a stable order (defaults first, then the document's new ones).
    public var buses: [Bus]
    /// Ducking rules, in document order.
    public var ducking: [Ducking]
    /// The parameters layers and cues name, in document order.
    public var parameters: [Parameter]
    /// The sound layers, in document order (haptic layers are `hapticLayers`).
    public var layers: [Layer]
    /// Cues sorted by time (stable: document order for equal times).
    public var cues: [Cue]
    /// The strength its haptic cues play at (`hapticStrength`; default `strong`, the
    /// patterns as designed): a scale on intensity, see `HapticStrength`.
    public var hapticStrength: HapticStrength = .strong
    /// Layers whose source is a haptic pattern (written in `"layers"` with `"haptic"`).
    public var hapticLayers: [HapticLayer] = []
    /// How the session answers `leave-focus` and `return-focus` (`"focus"`); nil: it has
    /// no such events.
    public var focus: FocusSettings?

    /// The default buses and gains: the mixer's (`MixerConfig.defaultBuses`, defined there
    /// once).
    public static let defaultBuses: [Bus] = MixerConfig.defaultBuses.map { Bus(name: $0.name, gain: $0.gain.value) }

    /// A document of `duration` seconds with the given buses (the defaults unless given),
    /// rules, parameters, layers and cues; the other fields keep their defaults. Nothing is
    /// checked here: `SessionReader` is what validates a document.
    public init(title: String? = nil, duration: Double, durationIsExplicit: Bool = true,
                buses: [Bus] = SessionDocument.defaultBuses, ducking: [Ducking] = [],
                parameters: [Parameter] = [], layers: [Layer] = [], cues: [Cue] = []) {
        self.title = title
        self.duration = duration
        self.durationIsExplicit = durationIsExplicit
        self.buses = buses
        self.ducking = ducking
        self.parameters = parameters
        self.layers = layers
        self.cues = cues
    }

    /// The bus called `name`, or nil.
    public func bus(named name: String) -> Bus? { buses.first { $0.name == name } }
    /// The sound layer called `name`, or nil (a haptic layer is `hapticLayer(named:)`).
    public func layer(named name: String) -> Layer? { layers.first { $0.name == name } }
    /// The haptic layer called `name`, or nil.
    public func hapticLayer(named name: String) -> HapticLayer? { hapticLayers.first { $0.name == name } }
    /// The parameter called `name`, or nil.
    public func parameter(named name: String) -> Parameter? { parameters.first { $0.name == name } }

    /// Marks in time order, as (time in seconds, name, title for people or nil).
    public var marks: [(time: Double, name: String, title: String?)] {
        cues.compactMap { cue in cue.mark.map { (cue.time, $0, cue.markTitle) } }
    }
}

/// A mixing bus: its gain in dB and its effects (`"ambient": { "gain": -18, "lowpass": 8000 }`).
public struct Bus: Sendable, Equatable {
    /// The bus's name (`engine`, `ambient`, `radio`, `ui`, `voice`, or the document's own),
    /// what layers, cues and ducking rules name.
    public var name: String
    /// Its gain in dB, −120…+24.
    public var gain: Double
    /// Insert effects in document order, each a `DocumentEffect` key with its starting value.
    public var effects: [Effect]
    /// A bus called `name` at `gain` dB running `effects` in order.
    public init(name: String, gain: Double, effects: [Effect] = []) {
        self.name = name
        self.gain = gain
        self.effects = effects
    }

    /// `"lowpass": 8000` or `"compressor": { "threshold": -20, "ratio": 3 }`: a
    /// `DocumentEffect` key and every one of its parameters' starting values, by index
    /// (those a document leaves out at their defaults).
    public struct Effect: Sendable, Equatable {
        /// The effect's `DocumentEffect` key (`lowpass`, `compressor`, …).
        public var key: String
        /// Every parameter's starting value, in the effect's parameter order, in each
        /// parameter's unit.
        public var values: [Double]
        /// Effect `key` with every parameter's starting value given.
        public init(key: String, values: [Double]) {
            self.key = key
            self.values = values
        }

        /// Effect `key` with its main parameter at `value` and the others at their defaults
        /// (what `"lowpass": 8000` means).
        public init(key: String, value: Double) {
            self.key = key
            values = DocumentEffect.named(key)?.values(main: value) ?? [value]
        }

        /// The main parameter's value.
        public var value: Double {
            let main = DocumentEffect.named(key)?.main ?? 0
            return main < values.count ? values[main] : .nan
        }
    }

    /// The position of effect `key` among the bus's effects, if it has one.
    public func effectIndex(_ key: String) -> Int? { effects.firstIndex { $0.key == key } }
}

/// While any voice sounds on `when`, the `duck` buses move to `by` dB, reaching it in
/// `attack` seconds and returning in `release` seconds (ramps linear in dB). With a `band`
/// (Hz) only that band of the ducked buses is lowered (a bell cut; `DuckingRule.band`).
public struct Ducking: Sendable, Equatable {
    /// The depth when a rule gives no `by`: −8 dB, enough to clear the way for a voice
    /// without the bed dropping out (a focus bed wants −6 to −9 dB; AUDIO.md).
    public static let defaultDepth = -8.0
    /// The bus whose voices trigger the duck.
    public var when: String
    /// The buses lowered while it sounds.
    public var duck: [String]
    /// How far they are lowered, dB (0 or less).
    public var by: Double
    /// Seconds the ducked buses take to reach `by` (0.04 by default).
    public var attack: Double
    /// Seconds they take to come back once `when` is silent (0.6 by default).
    public var release: Double
    /// The band lowered, Hz (nil: the whole bus).
    public var band: ClosedRange<Double>?
    /// The band the presets clear for speech under their broadband duck: 150 Hz–4 kHz,
    /// the bands STOI weighs (its third octaves run 150 Hz–3.8 kHz).
    public static let speechBand = 150.0...4000.0
    /// Where a band's bounds may lie, Hz.
    public static let bandRange = 20.0...20_000.0
    /// A rule lowering `duck` by `by` dB while `when` sounds, over `attack` and `release`
    /// seconds, in `band` (Hz) or across the whole spectrum.
    public init(when: String, duck: [String], by: Double = Ducking.defaultDepth, attack: Double = 0.04, release: Double = 0.6,
                band: ClosedRange<Double>? = nil) {
        self.when = when
        self.duck = duck
        self.by = by
        self.attack = attack
        self.release = release
        self.band = band
    }
}

/// A named control value (e.g. `speed`) that layers follow through maps.
public struct Parameter: Sendable, Equatable {
    /// The name maps and cues use (`speed`).
    public var name: String
    /// Its value when the session starts, in its own unit (the drive's `speed` is mph), within
    /// `min`…`max`.
    public var value: Double
    /// The lowest value it may take.
    public var min: Double
    /// The highest value it may take.
    public var max: Double
    /// A parameter called `name` starting at `value`, ranging `min`…`max` (not checked here).
    public init(name: String, value: Double, min: Double, max: Double) {
        self.name = name
        self.value = value
        self.min = min
        self.max = max
    }
}

/// A piecewise-linear map from a parameter's value to a pitch ratio or a gain in dB.
public struct LayerMap: Sendable, Equatable {
    /// The parameter it follows, one of the document's `parameters`.
    public var parameter: String
    /// Points sorted by parameter value: (parameterValue, output).
    public var points: [(Double, Double)]

    /// A map following `parameter` through `points` (parameter value, output), sorted by
    /// parameter value.
    public init(parameter: String, points: [(Double, Double)]) {
        self.parameter = parameter
        self.points = points
    }

    /// The output at `x`: linear between points, held flat beyond the ends.
    public func value(at x: Double) -> Double {
        guard let first = points.first, let last = points.last else { return 0 }
        if x <= first.0 { return first.1 }
        if x >= last.0 { return last.1 }
        for i in 1..<points.count where x <= points[i].0 {
            let (x0, y0) = points[i - 1], (x1, y1) = points[i]
            return x1 == x0 ? y1 : y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        }
        return last.1
    }

    /// Whether both follow the same parameter through the same points.
    public static func == (a: LayerMap, b: LayerMap) -> Bool {
        a.parameter == b.parameter && a.points.count == b.points.count
            && zip(a.points, b.points).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}

/// A named sound slot on a bus that cues start, stop, fade and crossfade.
public struct Layer: Sendable, Equatable {
    /// The layer's name: its key in the document's `layers`, what cues start and stop.
    public var name: String
    /// The bus it plays on, one of the document's `buses`.
    public var bus: String
    /// What it plays (a scatter layer: its first sound).
    public var sound: SoundReference
    /// Whether it loops (the layer's `loop`), gaplessly, at the sound's loop points if the
    /// library gives them; else it plays once.
    public var isLooping: Bool
    /// Gain relative to the bus, in dB.
    public var gain: Double
    /// Whether the sound's loudness trim from the library applies (`normalize: false`
    /// plays a file at its own level).
    public var normalize: Bool
    /// The map from a parameter to a pitch ratio (above 0, at most 8; nil: 1).
    public var pitch: LayerMap?
    /// The map from a parameter to a gain in dB added to `gain` (nil: 0 dB).
    public var gainMap: LayerMap?
    /// A scatter layer's one-shots (`"scatter": { … }`); then `sound` is its first sound.
    public var scatter: Scatter?
    /// How a playlist `sound` plays (order, transitions, gain tags); nil: the defaults.
    public var playlist: PlaylistOptions?
    /// A layer called `name` playing `sound` on `bus`; the other values as the properties say.
    public init(name: String, bus: String, sound: SoundReference, isLooping: Bool = false, gain: Double = 0,
                normalize: Bool = true, pitch: LayerMap? = nil, gainMap: LayerMap? = nil, scatter: Scatter? = nil,
                playlist: PlaylistOptions? = nil) {
        self.scatter = scatter
        self.playlist = playlist
        self.name = name
        self.bus = bus
        self.sound = sound
        self.isLooping = isLooping
        self.gain = gain
        self.normalize = normalize
        self.pitch = pitch
        self.gainMap = gainMap
    }
}

/// A scatter layer: one-shots drawn from `sounds` at random times (Poisson, or evenly
/// spaced: `spacing`), `rate` events a minute (a rate drawn from the range for each gap), each with a gain in dB, a pan
/// (−1 left … 1 right) and a pitch in semitones drawn from their ranges. Seeded from the
/// document's `seed` and the layer's position.
public struct Scatter: Sendable, Equatable {
    /// The one-shots it draws from (1 to `maximumSounds`).
    public var sounds: [SoundReference]
    /// Events a minute, within `rateRange`; each gap draws its rate from this range.
    public var rate: ClosedRange<Double>
    /// Each event's gain in dB, drawn from this range (−120…+24).
    public var gain: ClosedRange<Double>
    /// Each event's pan, −1 (left) … 1 (right), drawn from this range.
    public var pan: ClosedRange<Double>
    /// Each event's pitch in semitones, drawn from this range (within `pitchRange`).
    public var pitch: ClosedRange<Double>
    /// How the gaps between events are drawn: `.random` (Poisson, the default) or `.even`.
    public var spacing: ScatterConfig.Spacing
    /// A scatter of `sounds` at `rate` events a minute; gain, pan and pitch fixed at 0
    /// unless given ranges.
    public init(sounds: [SoundReference], rate: ClosedRange<Double>, gain: ClosedRange<Double> = 0...0,
                pan: ClosedRange<Double> = 0...0, pitch: ClosedRange<Double> = 0...0, spacing: ScatterConfig.Spacing = .random) {
        self.sounds = sounds
        self.rate = rate
        self.gain = gain
        self.pan = pan
        self.pitch = pitch
        self.spacing = spacing
    }

    /// The rates a document may give, events a minute.
    public static let rateRange: ClosedRange<Double> = 0.01...600
    /// The pans a document may give.
    public static let panRange: ClosedRange<Double> = -1...1
    /// The pitches a document may give, semitones.
    public static let pitchRange: ClosedRange<Double> = -24...24
    /// The most sounds one scatter may draw from.
    public static let maximumSounds = 32
}
