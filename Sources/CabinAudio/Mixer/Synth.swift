/// A synthesized source as a plain value: which kind (its place in the table of kinds,
/// `Synth.kinds`), the kind's option values and its noise seed.
///
/// ```swift
/// let rain = Synth.pinkNoise(seed: 3)                       // from a kind's own constructor
/// let tone = Synth(named: "sine", options: ["frequency": 220])   // as a document names it
/// config.addLayer(LayerConfig(name: "tone", bus: bus, source: .synth(tone!), isLooping: true))
/// ```
///
/// The kinds themselves (what each option means, how a voice plays it) live one per file
/// (`Voice+Noise.swift`, `Voice+Sine.swift`, `Voice+Binaural.swift`) and are listed once, in
/// `SynthKinds`; documents name them after `synth:`.
///
/// Thread: a plain value; any thread. Making one by name, and `kinds`, allocate: control side.
public struct Synth: Sendable, Hashable, BitwiseCopyable {
    /// The kind's place in `Synth.kinds`.
    public let kindIndex: Int32
    /// The option values in the order of the kind's `options` (unused places are 0).
    public let values: SIMD4<Double>
    /// The noise seed (always 0 for kinds that use none, so equal settings compare equal).
    public let seed: UInt64

    /// Every kind, in table order (the order `synth:` names are listed in messages).
    public static let kinds: [SynthKindInfo] = SynthKinds.catalogue()

    /// The kind called `name` (as after `synth:`) with `options` by name; options not given
    /// take their defaults, options the kind does not take are ignored. Nil for an unknown
    /// name. Values are not checked here (documents check them when read).
    public init?(named name: String, options: [String: Double] = [:], seed: UInt64 = 1) {
        guard let kind = Synth.kinds.first(where: { $0.name == name }) else { return nil }
        var values = SIMD4<Double>()
        for (i, option) in kind.options.enumerated() { values[i] = options[option.name] ?? option.defaultValue }
        self.init(kindIndex: kind.index, values: values, seed: seed)
    }

    /// `kind` with `values` in its options' order (missing ones take their defaults).
    init<Kind: SynthKind>(_ kind: Kind.Type, _ values: Double..., seed: UInt64 = 1) {
        let info = Synth.kinds.first { $0.name == Kind.name }!
        var all = SIMD4<Double>()
        for (i, option) in info.options.enumerated() { all[i] = i < values.count ? values[i] : option.defaultValue }
        self.init(kindIndex: info.index, values: all, seed: seed)
    }

    private init(kindIndex: Int, values: SIMD4<Double>, seed: UInt64) {
        self.kindIndex = Int32(kindIndex)
        self.values = values
        self.seed = Synth.kinds[kindIndex].isSeeded ? seed : 0
    }

    /// The kind's description.
    public var kind: SynthKindInfo { Synth.kinds[Int(kindIndex)] }

    /// The kind's name, as after `synth:`.
    public var name: String { kind.name }

    /// The value of the option called `name`, or nil if the kind takes no such option.
    public subscript(option name: String) -> Double? {
        kind.options.firstIndex { $0.name == name }.map { values[$0] }
    }

    /// The same settings with another seed (kinds without noise keep seed 0).
    public func seeded(_ seed: UInt64) -> Synth {
        Synth(kindIndex: Int(kindIndex), values: values, seed: seed)
    }
}

/// A synthesized source kind as the control side sees it: the name documents use after
/// `synth:`, what it is, and the options it takes.
///
/// Thread: a plain value; any thread.
public struct SynthKindInfo: Sendable, Equatable {
    /// Place in `Synth.kinds`.
    public var index: Int
    /// The name after `synth:` (`pink-noise`, `sine`).
    public var name: String
    /// One line on what it sounds like.
    public var summary: String
    /// The options after `?` (`frequency`), in the order of `Synth.values`; at most 4.
    public var options: [SynthOption]
    /// Whether it plays seeded noise (`Synth.seed` matters).
    public var isSeeded: Bool
}

/// One option of a synthesized source kind: `synth:NAME?option=value`. Every option is a
/// positive number.
///
/// Thread: a plain value; any thread.
public struct SynthOption: Sendable, Equatable {
    /// The option's name in a document's `synth:NAME?option=value` (`frequency`).
    public var name: String
    /// The value when a document does not give one.
    public var defaultValue: Double
    /// Its unit in messages and documentation (`Hz`).
    public var unit: String
    /// Another option this one must stay below (a binaural beat below its carrier), if any.
    public var mustBeBelow: String?
    /// The largest value a document may give (every option is also above 0): by default
    /// 20 kHz, the top of hearing — a tone above it is not heard and, past half the sample
    /// rate, folds back as another tone.
    public var maximum: Double

    /// An option called `name` (see each property; `maximum` defaults to 20 kHz).
    public init(_ name: String, defaultValue: Double, unit: String, mustBeBelow: String? = nil,
                maximum: Double = 20_000) {
        self.name = name
        self.defaultValue = defaultValue
        self.unit = unit
        self.mustBeBelow = mustBeBelow
        self.maximum = maximum
    }
}
