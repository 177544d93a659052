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

    /// A one-shot sound started at `time` (nil: none).
    public var play: OneShot?
    /// Spoken text, synthesized when the session loads (never on the render thread).
    public var say: Speech?
    /// A haptic pattern started at the same frame (library name or path).
    public var haptic: String?
    /// Layers (sound or haptic) started at `time`, by name; empty: none.
    public var start: [String] = []
    /// Seconds the started layers take to rise from silence (nil: 0, at once).
    public var fadeIn: Double?
    /// Layers (sound or haptic) stopped at `time`, by name; empty: none.
    public var stop: [String] = []
    /// Seconds the stopped layers take to fall silent (nil: 0, at once).
    public var fadeOut: Double?
    /// A layer's level moved (nil: none).
    public var fade: LayerFade?
    /// A sound layer crossfaded to another sound (nil: none).
    public var crossfade: Crossfade?
    /// A haptic layer crossfaded to another pattern.
    public var hapticCrossfade: HapticCrossfade?
    /// `"trigger": "leave-focus"`: the live event, scripted (the document's `focus`).
    public var trigger: FocusEvent?
    /// A parameter ramped to a value (nil: none).
    public var set: ParameterChange?
    /// A bus effect's parameter moved (`{ "lowpass": "ambient", "to": 800, "over": "3s" }`).
    public var effect: EffectChange?
    /// Names the segment that starts here (`drive`, `rest`, `arrival` …): the name hooks and
    /// scripts see (`CABIN_MARK`).
    public var mark: String?
    /// The segment's title for people (`rest stop`): what the status line, `cabin ctl status`
    /// and MPRIS show; nil shows the name.
    public var markTitle: String?

    /// A cue at `time` seconds, the `index`th of the document's `cues`, that does nothing
    /// until its verbs are set.
    public init(time: Double, index: Int) {
        self.time = time
        self.index = index
    }

    /// A one-shot sound on a bus.
    public struct OneShot: Sendable, Equatable {
        /// The sound played once.
        public var sound: SoundReference
        /// The bus it plays on, a name of the document's buses (`ui` by default); on a bus
        /// the session does not have, it is not played.
        public var bus: String
        /// dB, added to the bus gain.
        public var gain: Double
        /// `sound` played once on `bus` at `gain` dB.
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
        /// What is spoken.
        public var text: String
        /// The voice: `flite:slt` (`en`, `en-us`), `flite:awb`, `flite:rms`, or an espeak-ng
        /// voice name (`de`, `espeak:en-us`); nil: the default, `flite:slt`.
        public var voice: String?
        /// The bus it is spoken on (`voice` by default).
        public var bus: String
        /// dB, added to the bus gain.
        public var gain: Double
        /// The sound played instead when speech synthesis is not available (nil: the cue is
        /// then silent, with a warning).
        public var fallback: SoundReference?
        /// `text` spoken in `voice` on `bus` at `gain` dB, or `fallback` played instead.
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
        /// The layer's name.
        public var layer: String
        /// The level it moves to, dB relative to the layer's gain (0: the gain itself).
        public var to: Double
        /// Seconds the move takes.
        public var over: Double
        /// `layer` moved to `to` dB over `over` seconds.
        public init(layer: String, to: Double, over: Double) {
            self.layer = layer
            self.to = to
            self.over = over
        }
    }

    /// An equal-power crossfade of a layer to another sound.
    public struct Crossfade: Sendable, Equatable {
        /// The sound layer's name.
        public var layer: String
        /// The sound it crossfades to (and then plays, looping if the layer loops).
        public var to: SoundReference
        /// Seconds the crossfade takes.
        public var over: Double
        /// `layer` crossfaded to `to` over `over` seconds.
        public init(layer: String, to: SoundReference, over: Double) {
            self.layer = layer
            self.to = to
            self.over = over
        }
    }

    /// `{ "crossfade": "road", "to": "road-rough", "over": "4s" }` on a haptic layer: the
    /// pattern crossfades linearly in intensity (the intensities sum to the level throughout).
    public struct HapticCrossfade: Sendable, Equatable {
        /// The haptic layer's name.
        public var layer: String
        /// The pattern it crossfades to: a library name or a path, as a `haptic` cue names one.
        public var to: String
        /// Seconds the crossfade takes.
        public var over: Double
        /// `layer` crossfaded to the pattern `to` over `over` seconds.
        public init(layer: String, to: String, over: Double) {
            self.layer = layer
            self.to = to
            self.over = over
        }
    }

    /// A parameter ramp.
    public struct ParameterChange: Sendable, Equatable {
        /// The parameter's name, one of the document's `parameters`.
        public var parameter: String
        /// The value it ramps to, in the parameter's own unit (within its `min`…`max`).
        public var to: Double
        /// Seconds the ramp takes (0: at once).
        public var over: Double
        /// `parameter` ramped to `to` over `over` seconds.
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
        /// The bus whose effect moves.
        public var bus: String
        /// The effect's key (`lowpass`, `compressor`, …), one the bus declares.
        public var effect: String
        /// The parameter's name (never empty: the main one's when the cue names none).
        public var parameter: String
        /// The value it moves to, in the parameter's unit (Hz for `lowpass`, dB for a
        /// compressor's `threshold`, …).
        public var to: Double
        /// Seconds the move takes.
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
