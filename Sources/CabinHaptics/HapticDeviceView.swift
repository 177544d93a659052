/// What a device will actually play of a compiled pattern, worked out offline on a 1 ms
/// grid from the very values Cabin sends or exports (`haptics show|plot|render --as …`):
///
/// - **rumble** (`--as rumble[:MAPPING]`): the two motor magnitudes over time as the evdev
///   path sends them — the ``RumblePlan`` that `RumblePlayer` plays (its 50 ms steps,
///   30 ms transient pulses on their own slots), combined per motor as the kernel does
///   (``RumblePlan/motorMagnitudes()``). Tracks `strong` (the large, low motor: the low
///   end of a render's frequency range) and `weak` (the small, high one: the high end), each
///   magnitude / 0xFFFF; marks where a transient pulse starts.
/// - **android** (`--as android`): ``AndroidWaveform``, what `convert --android` exports —
///   one `amplitude` track (amplitude / 255), stepped as its timings step (10 ms, and a
///   transient's own 20 ms); no sharpness (the pitch is the range's middle).
/// - **android-composition** (`--as android-composition`): ``AndroidComposition``, what
///   `convert --android-composition` exports, each primitive drawn in its nominal shape over
///   the time Cabin allotted it (its `startMs` and `durationMs`), scaled by its scale:
///   `CLICK`, `TICK`, `THUD` and `LOW_TICK` a pulse that decays to a quarter (crisp: sharp
///   pitch; dull: low), `QUICK_RISE`/`SLOW_RISE` a linear rise to the scale, `QUICK_FALL` a
///   linear fall from it, `SPIN` held; marks at each primitive's start (its letter). Held
///   levels play nothing, as on the device.
///
/// Thread: a value type; pure; any thread except the render thread (allocates).
public struct HapticDeviceView: Sendable, Hashable {
    /// A kind of device.
    public enum Device: Sendable, Hashable {
        /// A gamepad's two rumble motors, driven through the given mapping.
        case rumble(RumbleMapping)
        /// An Android phone playing ``AndroidWaveform``.
        case android
        /// An Android phone playing ``AndroidComposition``.
        case androidComposition

        /// `rumble`, `rumble:intensity-only`, `android`, `android-composition`; nil otherwise.
        public init?(argument: String) {
            switch argument {
            case "android": self = .android
            case "android-composition": self = .androidComposition
            case "rumble": self = .rumble(.equalPowerSplit)
            default:
                guard argument.hasPrefix("rumble:"), let mapping = RumbleMapping(rawValue: String(argument.dropFirst(7))) else {
                    return nil
                }
                self = .rumble(mapping)
            }
        }

        /// What `--as` accepts, for messages.
        public static let accepted = "rumble[:\(RumbleMapping.allCases.map(\.rawValue).joined(separator: "|"))], android or android-composition"

        /// `rumble:equal-power-split`, `android`, `android-composition`.
        public var name: String {
            switch self {
            case .rumble(let mapping): "rumble:\(mapping.rawValue)"
            case .android: "android"
            case .androidComposition: "android-composition"
            }
        }

        /// The frequencies a render of this device's view uses unless told otherwise
        /// (`--freq-range`): rumble 40–150 Hz (a gamepad's large motor turning at 2,400 rpm,
        /// its small one at 9,000), Android 170 Hz (a linear resonant actuator plays at its
        /// resonance, around 170 Hz on phones; one frequency, so the waveform's lost sharpness
        /// is not made up).
        public var defaultFrequencyRange: ClosedRange<Double> {
            switch self {
            case .rumble: 40...150
            case .android, .androidComposition: 170...170
            }
        }
    }

    /// One thing the device drives: a level per millisecond (0…1) and where it sounds in a
    /// render's frequency range (0 the low end, 1 the high end), per millisecond.
    public struct Track: Sendable, Hashable {
        /// What it is: `strong` or `weak` (rumble), `amplitude` (android), `primitive`
        /// (android-composition).
        public var name: String
        /// The level per millisecond, 0…1.
        public var level: [Float]
        /// Where it sounds per millisecond, 0 (the frequency range's low end) … 1 (high end).
        public var pitch: [Float]
    }

    /// A moment marked under the tracks: a millisecond and its symbol.
    public struct Mark: Sendable, Hashable {
        /// Milliseconds from the pattern's start.
        public var millisecond: Int
        /// The symbol drawn there: `•` for a rumble transient pulse, a primitive's letter.
        public var symbol: Character
    }

    /// The device the view is of.
    public var device: Device
    /// What the device drives, one track each (see the type for each device's).
    public var tracks: [Track]
    /// The moments marked under the tracks, in time order; none for android.
    public var marks: [Mark]
    /// The view's length in milliseconds (every track has this many values).
    public var milliseconds: Int

    /// `compiled` as `device` plays it, through the export or plan that device gets: as long
    /// as the device plays, or, when it plays nothing of the pattern (every event at
    /// intensity 0), the pattern's `endTime` at rest, so its render is not a 0-second file.
    public init(_ compiled: CompiledHaptics, as device: Device) {
        switch device {
        case .rumble(let mapping): self.init(rumble: RumblePlan(compiled, options: RumblePlanOptions(mapping: mapping)), mapping: mapping)
        case .android: self.init(android: AndroidWaveform(compiled))
        case .androidComposition: self.init(composition: AndroidComposition(compiled))
        }
        if milliseconds == 0 { extend(toMilliseconds: Int((compiled.endTime * 1000).rounded())) }
    }

    /// Pads every track at rest (level 0, its last pitch) to `length` milliseconds.
    mutating func extend(toMilliseconds length: Int) {
        guard length > milliseconds else { return }
        let added = length - milliseconds
        tracks = tracks.map { track in
            let pitch = track.pitch.last ?? (track.name == "weak" ? 1 : track.name == "strong" ? 0 : 0.5)
            return Track(name: track.name, level: track.level + [Float](repeating: 0, count: added),
                         pitch: track.pitch + [Float](repeating: pitch, count: added))
        }
        milliseconds = length
    }

    /// The motors as `plan` drives them (see the type).
    public init(rumble plan: RumblePlan, mapping: RumbleMapping) {
        let motors = plan.motorMagnitudes()
        let n = motors.count
        device = .rumble(mapping)
        tracks = [Track(name: "strong", level: motors.map { Float($0.strong) / 65535 }, pitch: [Float](repeating: 0, count: n)),
                  Track(name: "weak", level: motors.map { Float($0.weak) / 65535 }, pitch: [Float](repeating: 1, count: n))]
        marks = plan.steps.compactMap { step in
            guard case .play(let voice, _, _) = step.action, voice > 0 else { return nil }
            return Mark(millisecond: step.time, symbol: "•")
        }
        milliseconds = n
    }

    /// The waveform's steps.
    public init(android waveform: AndroidWaveform) {
        var level: [Float] = []
        for (timing, amplitude) in zip(waveform.timings, waveform.amplitudes) {
            level += [Float](repeating: Float(amplitude) / 255, count: max(0, timing))
        }
        device = .android
        tracks = [Track(name: "amplitude", level: level, pitch: [Float](repeating: 0.5, count: level.count))]
        marks = []
        milliseconds = level.count
    }

    /// The primitives in their nominal shapes.
    public init(composition: AndroidComposition) {
        let n = max(0, composition.lengthMilliseconds)
        var level = [Float](repeating: 0, count: n)
        var pitch = [Float](repeating: 0.5, count: n)
        var marks: [Mark] = []
        for element in composition.elements {
            let shape = Self.nominalShape(element.primitive)
            let length = element.durationMilliseconds
            for k in 0..<length where element.startMilliseconds + k < n {
                let x = length > 1 ? Double(k) / Double(length - 1) : 0
                level[element.startMilliseconds + k] = Float(element.scale * shape.envelope(x))
                pitch[element.startMilliseconds + k] = Float(shape.sharpness)
            }
            marks.append(Mark(millisecond: element.startMilliseconds, symbol: shape.symbol))
        }
        device = .androidComposition
        tracks = [Track(name: "primitive", level: level, pitch: pitch)]
        self.marks = marks
        milliseconds = n
    }

    /// A primitive's nominal shape: its envelope over its allotment (x 0…1), its sharpness
    /// (where it sounds in a render's range) and its letter among the marks.
    static func nominalShape(_ primitive: AndroidComposition.Primitive)
        -> (envelope: @Sendable (Double) -> Double, sharpness: Double, symbol: Character) {
        let pulse: @Sendable (Double) -> Double = { x in 1 - 0.75 * x }
        switch primitive {
        case .click: return (pulse, 1, "C")
        case .tick: return (pulse, 0.8, "T")
        case .thud: return (pulse, 0, "H")
        case .lowTick: return (pulse, 0.2, "L")
        case .quickRise: return ({ $0 }, 0.5, "R")
        case .slowRise: return ({ $0 }, 0.5, "S")
        case .quickFall: return ({ 1 - $0 }, 0.5, "F")
        case .spin: return ({ _ in 1 }, 0.5, "P")
        }
    }
}
