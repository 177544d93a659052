/// A named, persistent voice slot ("engine", "ambient", "radio"): started, faded,
/// crossfaded and stopped by commands, optionally following a parameter.
///
/// Thread: a plain value; build it on the control thread, before `MixerConfig.make()`.
public struct LayerConfig: Sendable, Equatable {
    /// The name documents and `MixerConfig.layer(named:)` use.
    public var name: String
    /// The bus the layer plays on, an index of `MixerConfig.buses`.
    public var bus: BusID
    /// What the layer plays when started (a crossfade changes it).
    public var source: SoundSource
    /// Layer gain, added to the bus gain.
    public var gain: Decibels
    /// True: an asset repeats its loop region (``LoopPoints``, else the whole asset) until
    /// stopped; false: it plays once and the voice ends. Endless sources ignore it.
    public var isLooping: Bool
    /// Pitch ratio as a function of a parameter (`nil`: ratio 1).
    public var pitchMap: ParameterMap?
    /// Extra gain in dB as a function of a parameter (`nil`: 0 dB).
    public var gainMap: ParameterMap?

    /// A layer called `name` on `bus`, playing `source` at `gain` when started (see each
    /// property).
    public init(name: String, bus: BusID, source: SoundSource, gain: Decibels = 0,
                isLooping: Bool = false, pitchMap: ParameterMap? = nil, gainMap: ParameterMap? = nil) {
        self.name = name
        self.bus = bus
        self.source = source
        self.gain = gain
        self.isLooping = isLooping
        self.pitchMap = pitchMap
        self.gainMap = gainMap
    }
}

/// A named control value such as "speed".
///
/// Thread: a plain value; build it on the control thread, before `MixerConfig.make()`.
public struct ParameterConfig: Sendable, Equatable {
    /// The name documents and `MixerConfig.parameter(named:)` use.
    public var name: String
    /// Initial value.
    public var value: Double
    /// Values are clamped to this range.
    public var range: ClosedRange<Double>
}
