/// Typed indices for the things a mixer knows by name.
///
/// Names are for documents and people; the render thread only ever sees these small
/// integers, so a command is a plain value that needs no lookup, no `String` and no
/// allocation. Each ID is issued by the `MixerConfig` that declared the thing.
///
/// Thread: plain values; any thread.

/// A bus (engine, ambient, radio, ui, voice …) in a `MixerConfig`.
public struct BusID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Position of the bus in `MixerConfig.buses`.
    public var index: Int32
    public init(index: Int32) { self.index = index }
    public var description: String { "bus#\(index)" }
}

/// A layer (a named, persistent voice slot such as "engine") in a `MixerConfig`.
public struct LayerID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Position of the layer in `MixerConfig.layers`.
    public var index: Int32
    public init(index: Int32) { self.index = index }
    public var description: String { "layer#\(index)" }
}

/// A parameter (such as "speed") in a `MixerConfig`.
public struct ParameterID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Position of the parameter in `MixerConfig.parameters`.
    public var index: Int32
    public init(index: Int32) { self.index = index }
    public var description: String { "parameter#\(index)" }
}

/// A registered sound asset in a `MixerConfig`.
public struct AssetID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Position of the asset in the config's asset table.
    public var index: Int32
    public init(index: Int32) { self.index = index }
    public var description: String { "asset#\(index)" }
}

/// A registered stream (`AudioStream`) in a `MixerConfig`.
public struct StreamID: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Position of the stream in the config's stream table.
    public var index: Int32
    public init(index: Int32) { self.index = index }
    public var description: String { "stream#\(index)" }
}
