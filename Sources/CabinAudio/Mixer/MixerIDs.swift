/// Typed indices for the things a mixer knows by name.
///
/// Names are for documents and people; the render thread only ever sees these small
/// integers, so a command is a plain value that needs no lookup, no `String` and no
/// allocation. Each ID is issued by the `MixerConfig` that declared the thing.
///
/// Thread: plain values; any thread.

/// A thing's position in its table of a `MixerConfig` (`MixerConfig.buses`, `.layers`,
/// `.parameters`, the asset, stream and scatter tables); `Kind` keeps a bus's ID from
/// standing for a layer's.
public struct MixerID<Kind: MixerIDKind>: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Position of the thing in its table.
    public var index: Int32
    /// The ID of position `index` in its table (not checked here: a command naming an ID
    /// out of range is ignored and counted in `MixerCounters.invalidCommands`).
    public init(index: Int32) { self.index = index }
    /// The kind's name and the index: `bus#2`.
    public var description: String { "\(Kind.name)#\(index)" }
}

/// What a `MixerID` indexes: its name in descriptions (`bus#2`).
///
/// Thread: a name only; any thread.
public protocol MixerIDKind {
    /// The kind's name in an ID's description (`bus`, `layer` …).
    static var name: String { get }
}

/// The kinds of `MixerID`.
public enum MixerIDKinds {
    /// A bus's, in `MixerConfig.buses` (`BusID`).
    public enum Bus: MixerIDKind { public static var name: String { "bus" } }
    /// A layer's, in `MixerConfig.layers` (`LayerID`).
    public enum Layer: MixerIDKind { public static var name: String { "layer" } }
    /// A parameter's, in `MixerConfig.parameters` (`ParameterID`).
    public enum Parameter: MixerIDKind { public static var name: String { "parameter" } }
    /// An asset's, in `MixerConfig.assets` (`AssetID`).
    public enum Asset: MixerIDKind { public static var name: String { "asset" } }
    /// A stream's, in `MixerConfig.streams` (`StreamID`).
    public enum Stream: MixerIDKind { public static var name: String { "stream" } }
    /// A scatter's, in `MixerConfig.scatters` (`ScatterID`).
    public enum Scatter: MixerIDKind { public static var name: String { "scatter" } }
}

/// A bus (engine, ambient, radio, ui, voice …) in `MixerConfig.buses`.
public typealias BusID = MixerID<MixerIDKinds.Bus>
/// A layer (a named, persistent voice slot such as "engine") in `MixerConfig.layers`.
public typealias LayerID = MixerID<MixerIDKinds.Layer>
/// A parameter (such as "speed") in `MixerConfig.parameters`.
public typealias ParameterID = MixerID<MixerIDKinds.Parameter>
/// A registered sound asset in the config's asset table.
public typealias AssetID = MixerID<MixerIDKinds.Asset>
/// A registered stream (`AudioStream`) in the config's stream table.
public typealias StreamID = MixerID<MixerIDKinds.Stream>
/// A registered scatter (`ScatterConfig`) in the config's scatter table.
public typealias ScatterID = MixerID<MixerIDKinds.Scatter>
