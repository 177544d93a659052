/// The events of leaving and returning to focus (the drive's speed-bump warning): what an
/// embedder sends live (`player.trigger("leave-focus")`), `cabin play`'s `l` and `r` keys,
/// the control socket (`cabin ctl trigger leave-focus`) and a cue (`"trigger": "leave-focus"`).
///
/// Thread: a value type; any thread.
public enum FocusEvent: String, Sendable, Hashable, CaseIterable {
    /// Plays the focus haptic (`speed-bump`) and sound, and lets the parameter fall to `away`.
    case leaveFocus = "leave-focus"
    /// Brings the parameter back to where it was before leaving, over `rise`.
    case returnFocus = "return-focus"
}

/// A document's `"focus"` object: how the session answers ``FocusEvent``s. A session has
/// the events only when its document has the object (`"focus": {}` takes every default).
///
/// | key | meaning | default |
/// | --- | --- | --- |
/// | `parameter` | the parameter that falls (a `set` ramp) | `speed` when the document has it, else none |
/// | `away` | the value it falls to | the parameter's `min` |
/// | `fall` | how long the fall takes | 8 s |
/// | `rise` | how long `return-focus` takes to bring it back | 6 s |
/// | `haptic` | the pattern played on `leave-focus` | `speed-bump` |
/// | `sound` | a one-shot played with it | none |
/// | `bus`, `gain` | the sound's bus and gain (dB) | `ui`, 0 |
///
/// Thread: a value type; any thread.
public struct FocusSettings: Sendable, Equatable {
    /// The parameter that falls on `leave-focus`, one of the document's `parameters` (nil:
    /// none falls).
    public var parameter: String?
    /// The value it falls to, in the parameter's unit (nil: its `min`).
    public var away: Double?
    /// Seconds the fall takes.
    public var fall: Double = 8
    /// Seconds `return-focus` takes to bring the parameter back.
    public var rise: Double = 6
    /// The haptic pattern played on `leave-focus`: a library name or a path.
    public var haptic: String = "speed-bump"
    /// A sound played once on `leave-focus` (nil: none).
    public var sound: SoundReference?
    /// The bus the sound plays on.
    public var bus: String = "ui"
    /// The sound's gain, dB added to the bus gain.
    public var gain: Double = 0
    /// Which keys were written (so the document writes back what it read).
    public var writtenKeys: Set<String> = []

    /// Settings with the given values; every default is the table's.
    public init(parameter: String? = nil, away: Double? = nil, fall: Double = 8, rise: Double = 6,
                haptic: String = "speed-bump", sound: SoundReference? = nil, bus: String = "ui", gain: Double = 0) {
        self.parameter = parameter
        self.away = away
        self.fall = fall
        self.rise = rise
        self.haptic = haptic
        self.sound = sound
        self.bus = bus
        self.gain = gain
    }

    /// The keys a `"focus"` object may have; the reader refuses any other as an error.
    public static let keys = ["parameter", "away", "fall", "rise", "haptic", "sound", "bus", "gain"]

    /// Whether the two settings are the same values; which keys were written
    /// (`writtenKeys`) is not compared.
    public static func == (a: FocusSettings, b: FocusSettings) -> Bool {
        a.parameter == b.parameter && a.away == b.away && a.fall == b.fall && a.rise == b.rise && a.haptic == b.haptic
            && a.sound == b.sound && a.bus == b.bus && a.gain == b.gain
    }
}
