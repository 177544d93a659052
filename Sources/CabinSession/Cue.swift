/// One entry of the timeline: everything it does happens at `time`.
///
/// A cue may combine verbs (`mark` with `crossfade`, `play` with `haptic`, `start` with
/// `set` …); `fade`, `crossfade`, `set` and the effect verbs (`lowpass`) share `to`/`over`,
/// so a cue has at most one of them.
public struct Cue: Sendable, Equatable {
    /// When, in seconds from the session start.
    public var time: Double
    /// Position in the document's `cues` array (for messages and stable ordering).
    public var index: Int

    public var play: OneShot?
    /// Spoken text, synthesized when the session loads (never on the render thread).
    public var say: Speech?
    /// A haptic pattern started at the same frame (library name or path).
    public var haptic: String?
    public var start: [String] = []
    public var fadeIn: Double?
    public var stop: [String] = []
    public var fadeOut: Double?
    public var fade: LayerFade?
    public var crossfade: Crossfade?
    /// A haptic layer crossfaded to another pattern.
    public var hapticCrossfade: HapticCrossfade?
    /// `"trigger": "leave-focus"`: the live event, scripted (the document's `focus`).
    public var trigger: FocusEvent?
    public var set: ParameterChange?
    /// A bus effect's parameter moved (`{ "lowpass": "ambient", "to": 800, "over": "3s" }`).
    public var effect: EffectChange?
    /// Names the segment that starts here (`drive`, `rest`, `arrival` …): the name hooks and
    /// scripts see (`CABIN_MARK`).
    public var mark: String?
    /// The segment's title for people (`rest stop`): what the status line, `cabin ctl status`
    /// and MPRIS show; nil shows the name.
    public var markTitle: String?

    public init(time: Double, index: Int) {
        self.time = time
        self.index = index
    }

    /// A one-shot sound on a bus.
    public struct OneShot: Sendable, Equatable {
        public var sound: SoundReference
        public var bus: String
        public var gain: Double
        public init(sound: SoundReference, bus: String = "ui", gain: Double = 0) {
            self.sound = sound
            self.bus = bus
            self.gain = gain
        }
    }

    /// `{ "say": "82 miles to Yosemite", "voice": "en-us", "fallback": "voice/halfway" }`:
    /// text spoken on `bus` (default `voice`); `fallback` plays when speech synthesis is not
    /// available.
    public struct Speech: Sendable, Equatable {
        public var text: String
        public var voice: String?
        public var bus: String
        public var gain: Double
        public var fallback: SoundReference?
        public init(text: String, voice: String? = nil, bus: String = "voice", gain: Double = 0,
                    fallback: SoundReference? = nil) {
            self.text = text
            self.voice = voice
            self.bus = bus
            self.gain = gain
            self.fallback = fallback
        }

        /// The key its synthesized sound is loaded under.
        public var soundKey: String { "say:\(voice ?? "")|\(text)" }
    }

    /// `{ "fade": "engine", "to": -6, "over": "2s" }`: dB relative to the layer's gain.
    public struct LayerFade: Sendable, Equatable {
        public var layer: String
        public var to: Double
        public var over: Double
        public init(layer: String, to: Double, over: Double) {
            self.layer = layer
            self.to = to
            self.over = over
        }
    }

    /// An equal-power crossfade of a layer to another sound.
    public struct Crossfade: Sendable, Equatable {
        public var layer: String
        public var to: SoundReference
        public var over: Double
        public init(layer: String, to: SoundReference, over: Double) {
            self.layer = layer
            self.to = to
            self.over = over
        }
    }

    /// `{ "crossfade": "road", "to": "road-rough", "over": "4s" }` on a haptic layer: the
    /// pattern crossfades linearly in intensity (the intensities sum to the level throughout).
    public struct HapticCrossfade: Sendable, Equatable {
        public var layer: String
        public var to: String
        public var over: Double
        public init(layer: String, to: String, over: Double) {
            self.layer = layer
            self.to = to
            self.over = over
        }
    }

    /// A parameter ramp.
    public struct ParameterChange: Sendable, Equatable {
        public var parameter: String
        public var to: Double
        public var over: Double
        public init(parameter: String, to: Double, over: Double) {
            self.parameter = parameter
            self.to = to
            self.over = over
        }
    }

    /// `{ "lowpass": "ambient", "to": 800, "over": "3s" }`: parameter `parameter` of the
    /// effect `effect` (a `DocumentEffect` key the bus declares) of `bus` moves to `to` over
    /// `over` seconds; `{ "compressor": "voice", "parameter": "threshold", … }` names the
    /// parameter, and without `"parameter"` the effect's main one moves.
    public struct EffectChange: Sendable, Equatable {
        public var bus: String
        public var effect: String
        /// The parameter's name (never empty: the main one's when the cue names none).
        public var parameter: String
        public var to: Double
        public var over: Double
        /// `parameter` nil: the effect's main parameter.
        public init(bus: String, effect: String, parameter: String? = nil, to: Double, over: Double) {
            self.bus = bus
            self.effect = effect
            self.parameter = parameter ?? DocumentEffect.named(effect)?.mainParameter.name ?? ""
            self.to = to
            self.over = over
        }

        /// Whether it moves the effect's main parameter (a cue written without `"parameter"`).
        public var movesMain: Bool { DocumentEffect.named(effect)?.mainParameter.name == parameter }
    }

    /// How long after `time` this cue still sounds or moves, known from the document alone
    /// (fades and ramps; one-shot lengths are added once sounds are loaded).
    public var tail: Double {
        [fadeIn ?? 0, fadeOut ?? 0, fade?.over ?? 0, crossfade?.over ?? 0, hapticCrossfade?.over ?? 0, set?.over ?? 0, effect?.over ?? 0].max() ?? 0
    }
}
