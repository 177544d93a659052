/// What an effect declares about itself, in one place next to its code: its key in
/// documents (`lowpass`, `compressor`), its named parameters (name, unit, range, default)
/// and which of them is its main one, and how to build it from parameter values.
///
/// Parameter `i` of the declaration is parameter `i` of the effect (`BusEffect.setParameter`)
/// and of its description (`BusEffectDescription.parameters`). Session documents read and
/// write effects from these declarations alone (`DocumentEffect.all` in CabinSession lists
/// them): a bus object's `"lowpass": 8000` sets the main parameter,
/// `"compressor": { "threshold": -18, "ratio": 3 }` named ones (the others at their
/// defaults), and a cue moves any of them.
///
/// Thread: immutable values; any thread.
public struct BusEffectDeclaration: Sendable {
    /// The key in bus objects and the cue verb: `lowpass`.
    public var key: String
    /// What the effect does, for people (the format's table).
    public var meaning: String
    /// Every parameter, by index.
    public var parameters: [EffectParameter]
    /// The index of the parameter a bare number sets and a cue without `"parameter"` moves.
    public var main: Int
    /// The effect's description with these parameter values (one per parameter, in range).
    public var make: @Sendable ([Double]) -> any BusEffectDescription

    /// A declaration with the given parts (see each property); `main` must be an index of
    /// `parameters` (a precondition).
    public init(key: String, meaning: String, parameters: [EffectParameter], main: Int = 0,
                make: @escaping @Sendable ([Double]) -> any BusEffectDescription) {
        precondition(parameters.indices.contains(main), "\(key): no parameter #\(main)")
        self.key = key
        self.meaning = meaning
        self.parameters = parameters
        self.main = main
        self.make = make
    }

    /// Every parameter's default, by index.
    public var defaults: [Double] { parameters.map(\.defaultValue) }

    /// The main parameter.
    public var mainParameter: EffectParameter { parameters[main] }

    /// The index of the parameter called `name`, if there is one.
    public func index(of name: String) -> Int? { parameters.firstIndex { $0.name == name } }

    /// The defaults with the main parameter at `value`.
    public func values(main value: Double) -> [Double] {
        var values = defaults
        values[main] = value
        return values
    }
}

/// One named parameter of a bus effect.
///
/// Thread: a plain value; any thread.
public struct EffectParameter: Sendable, Equatable {
    /// How a document writes the value (the session format's own units).
    public enum Unit: String, Sendable, Equatable {
        /// A frequency in Hz: a number.
        case hertz = "Hz"
        /// A level or gain in dB: a number.
        case decibels = "dB"
        /// A plain ratio (a compressor's 3 is 3:1): a number.
        case ratio = ""
        /// A duration in seconds: a number of seconds or a time (`"5ms"`, `"1.5s"`).
        case seconds = "s"
    }

    /// The name documents and cues use (`threshold`, `cutoff`).
    public var name: String
    /// The unit the value is in.
    public var unit: Unit
    /// The values a document may give (and the effect clamps to).
    public var range: ClosedRange<Double>
    /// The value when a document does not give one (inside `range`).
    public var defaultValue: Double
    /// What it does, for people.
    public var meaning: String

    /// A parameter called `name` (see each property); `defaultValue` must lie in `range`
    /// (a precondition).
    public init(_ name: String, unit: Unit, range: ClosedRange<Double>, default defaultValue: Double, meaning: String) {
        precondition(range.contains(defaultValue), "\(name): default \(defaultValue) outside its range")
        self.name = name
        self.unit = unit
        self.range = range
        self.defaultValue = defaultValue
        self.meaning = meaning
    }

    /// `value` within `range` (NaN: the default).
    public func clamped(_ value: Double) -> Double {
        value.isNaN ? defaultValue : min(max(value, range.lowerBound), range.upperBound)
    }
}
