/// Everything a `Mixer` needs to know before it renders: rate, block size, buses, layers,
/// parameters, ducking rules, assets, streams and the limiter switch.
///
/// Build one on the control thread (`MixerConfig()` gives the Focus Drive buses), register
/// assets and declare layers, then call `make()` to get the audio-thread `Mixer` and the
/// control-side `MixerHandle` (the kira pattern: Config → make() → processor + handle).
///
/// ```swift
/// var config = MixerConfig(sampleRate: 48_000)
/// let speed = config.addParameter("speed", value: 62, range: 0...80)
/// let engine = config.addLayer(LayerConfig(name: "engine", bus: config.bus(named: "engine")!,
///     source: .synth(.brownNoise(seed: 1)), isLooping: true))
/// let (mixer, handle) = config.make()
/// _ = handle.send(.startLayer(engine, fadeInFrames: 96_000), at: 0)
/// ```
///
/// Thread: a value; control thread only (it allocates).
public struct MixerConfig: Sendable {
    /// Frames per second of the output and of every asset (assets at another rate are
    /// played through the interpolator; resample them at load time instead).
    public var sampleRate: Double
    /// Largest block `render` processes in one pass; bigger requests are split.
    public var maxBlockFrames: Int
    /// The buses, in order; `BusID.index` points here.
    public var buses: [BusConfig]
    /// Ducking rules; several rules on one bus multiply (their dB add).
    public var ducking: [DuckingRule] = []
    /// Declared layers; `LayerID.index` points here.
    public var layers: [LayerConfig] = []
    /// Declared parameters; `ParameterID.index` points here.
    public var parameters: [ParameterConfig] = []
    /// True: the master runs through the true-peak limiter (≤ −1 dBTP). False: plain sum.
    public var isLimiterEnabled = true
    /// Master gain applied before the limiter.
    public var masterGain: Decibels = 0
    /// Shortest ramp for any gain or parameter change, in seconds (a step is a click).
    public var minimumRampDuration: Double = 0.005
    /// Ramp for live parameter values set through `MixerHandle.setParameter(_:to:)`.
    public var liveParameterRampDuration: Double = 0.05
    /// Fade given to a voice that is stolen to make room on a full bus, in seconds.
    public var stealFadeDuration: Double = 0.005
    /// Capacity of the control → audio command ring.
    public var commandCapacity = 1024
    /// Capacity of the audio thread's queue of commands waiting for their frame.
    public var pendingCapacity = 1024
    /// Registered assets; `AssetID.index` points here.
    public private(set) var assets: [SoundAsset] = []
    /// Registered streams; `StreamID.index` points here.
    public private(set) var streams: [AudioStream] = []
    /// Registered scatters; `ScatterID.index` points here.
    public private(set) var scatters: [ScatterConfig] = []

    /// The Focus Drive buses: engine −12, ambient −18, radio −3, ui −6, voice 0 dB.
    public static let defaultBuses: [BusConfig] = [
        BusConfig(name: "engine", gain: -12), BusConfig(name: "ambient", gain: -18),
        BusConfig(name: "radio", gain: -3), BusConfig(name: "ui", gain: -6, polyphony: 8),
        BusConfig(name: "voice", gain: 0),
    ]

    /// A config at `sampleRate` (frames a second, > 0) rendering at most `maxBlockFrames`
    /// (> 0) a pass, with `buses` and nothing else declared; both sizes are preconditions.
    public init(sampleRate: Double = 48_000, maxBlockFrames: Int = 512,
                buses: [BusConfig] = MixerConfig.defaultBuses) {
        precondition(sampleRate > 0 && maxBlockFrames > 0)
        self.sampleRate = sampleRate
        self.maxBlockFrames = maxBlockFrames
        self.buses = buses
    }

    /// The bus called `name`, if declared.
    public func bus(named name: String) -> BusID? {
        buses.firstIndex { $0.name == name }.map { BusID(index: Int32($0)) }
    }

    /// The layer called `name`, if declared.
    public func layer(named name: String) -> LayerID? {
        layers.firstIndex { $0.name == name }.map { LayerID(index: Int32($0)) }
    }

    /// The parameter called `name`, if declared.
    public func parameter(named name: String) -> ParameterID? {
        parameters.firstIndex { $0.name == name }.map { ParameterID(index: Int32($0)) }
    }

    /// Adds a bus (documents may add buses beyond the defaults).
    public mutating func addBus(_ bus: BusConfig) -> BusID { BusID(index: Self.append(bus, to: &buses)) }

    /// Declares a layer.
    public mutating func addLayer(_ layer: LayerConfig) -> LayerID { LayerID(index: Self.append(layer, to: &layers)) }

    /// Declares a parameter with its initial value and range (values are clamped to it).
    public mutating func addParameter(_ name: String, value: Double,
                                      range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
        -> ParameterID
    {
        ParameterID(index: Self.append(ParameterConfig(name: name, value: value, range: range), to: &parameters))
    }

    /// Appends `item` and returns its index, the new ID's.
    private static func append<T>(_ item: T, to list: inout [T]) -> Int32 {
        list.append(item)
        return Int32(list.count - 1)
    }

    /// Registers a sound asset (a copy of `buffer`, as floats). `trim` is its loudness trim
    /// (from the sound manifest); `loop` its loop points (default: the whole sound when it
    /// loops); `seamCrossfadeFrames` bakes a linear crossfade across the loop seam into the
    /// copy the mixer plays, for loops whose ends do not match.
    public mutating func addAsset(_ buffer: AudioBuffer, trim: Decibels = 0, loop: LoopPoints? = nil,
                                  seamCrossfadeFrames: Int = 0) -> AssetID {
        addAsset(SoundAsset(buffer: buffer, trim: trim, loop: loop, seamCrossfadeFrames: seamCrossfadeFrames))
    }

    /// Registers samples held in a storage (no copy; it may still be loading: frames not yet
    /// written play as silence).
    public mutating func addAsset(_ samples: SampleStorage, trim: Decibels = 0, loop: LoopPoints? = nil) -> AssetID {
        addAsset(SoundAsset(samples: samples, trim: trim, loop: loop))
    }

    /// Registers an asset.
    public mutating func addAsset(_ asset: SoundAsset) -> AssetID { AssetID(index: Self.append(asset, to: &assets)) }

    /// Registers a stream: frames a producer thread writes while they play (see
    /// `AudioStream`), at this config's `sampleRate`. The one mixer made from the config
    /// reads it; make another from the same config only once that one has stopped.
    public mutating func addStream(_ stream: AudioStream) -> StreamID { StreamID(index: Self.append(stream, to: &streams)) }

    /// Registers a new stream holding up to `capacityFrames` frames; returns its ID (for
    /// `.stream(id)`) and the stream to write to.
    public mutating func addStream(capacityFrames: Int) -> (id: StreamID, stream: AudioStream) {
        let stream = AudioStream(capacityFrames: capacityFrames)
        return (addStream(stream), stream)
    }

    /// Registers a scatter (one-shots from registered assets at random times; see
    /// `ScatterConfig`); play `.scatter(id)` as a layer. One voice plays a scatter at a
    /// time (its running state lives in the mixer's table, one per scatter).
    public mutating func addScatter(_ scatter: ScatterConfig) -> ScatterID {
        ScatterID(index: Self.append(scatter, to: &scatters))
    }

    /// Frames in `seconds` at this config's rate (rounded to the nearest frame).
    /// Clamped to ±2^62 frames (and NaN to 0), so no input traps the conversion; session
    /// documents stay below 24 h, far inside it.
    public func frames(_ seconds: Double) -> FrameTime {
        let f = (seconds * sampleRate).rounded()
        return f.isNaN ? 0 : FrameTime(min(max(f, -0x1p62), 0x1p62))
    }

    /// Builds the audio-thread processor and the control-side handle that feeds it.
    ///
    /// Control thread only: this is where everything the renderer will ever use is allocated.
    public func make() -> (mixer: Mixer, handle: MixerHandle) {
        let shared = MixerShared(config: self)
        let mixer = Mixer(config: self, shared: shared)
        return (mixer, MixerHandle(shared: shared, config: self))
    }
}
