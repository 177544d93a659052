/// The pieces a `MixerConfig` is made of: buses, ducking rules, layers, parameters, assets.

/// A mixing bus: a gain and a voice budget.
///
/// Thread: a plain value; build it on the control thread, before `MixerConfig.make()`.
public struct BusConfig: Sendable, Equatable {
    /// The name documents use ("engine", "ambient" …).
    public var name: String
    /// Bus gain.
    public var gain: Decibels
    /// Most voices that may sound at once on this bus (not counting voices fading out after
    /// being stolen). A new voice beyond it steals the oldest, quietest one.
    public var polyphony: Int

    public init(name: String, gain: Decibels, polyphony: Int = 4) {
        precondition(polyphony > 0, "a bus needs room for at least one voice")
        self.name = name
        self.gain = gain
        self.polyphony = polyphony
    }
}

/// While any voice sounds on `when`, the `duck` buses move to `depth`, reaching it in
/// `attackDuration` seconds and returning in `releaseDuration` (ramps linear in dB).
/// Several rules on one bus multiply (their dB add). Depth is floored at −120 dB.
///
/// Thread: a plain value; build it on the control thread, before `MixerConfig.make()`.
public struct DuckingRule: Sendable, Equatable {
    public var when: BusID
    public var duck: [BusID]
    public var depth: Decibels
    public var attackDuration: Double
    public var releaseDuration: Double

    public init(when: BusID, duck: [BusID], depth: Decibels,
                attackDuration: Double = 0.04, releaseDuration: Double = 0.6) {
        self.when = when
        self.duck = duck
        self.depth = depth
        self.attackDuration = attackDuration
        self.releaseDuration = releaseDuration
    }
}

/// A named, persistent voice slot ("engine", "ambient", "radio"): started, faded,
/// crossfaded and stopped by commands, optionally following a parameter.
///
/// Thread: a plain value; build it on the control thread, before `MixerConfig.make()`.
public struct LayerConfig: Sendable, Equatable {
    public var name: String
    public var bus: BusID
    /// What the layer plays when started (a crossfade changes it).
    public var source: SoundSource
    /// Layer gain, added to the bus gain.
    public var gain: Decibels
    public var isLooping: Bool
    /// Pitch ratio as a function of a parameter (`nil`: ratio 1).
    public var pitchMap: ParameterMap?
    /// Extra gain in dB as a function of a parameter (`nil`: 0 dB).
    public var gainMap: ParameterMap?

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
    public var name: String
    /// Initial value.
    public var value: Double
    /// Values are clamped to this range.
    public var range: ClosedRange<Double>

    public init(name: String, value: Double, range: ClosedRange<Double>) {
        self.name = name
        self.value = value
        self.range = range
    }
}

/// A sound registered for playback: samples (mono or stereo), loudness trim, loop points.
/// Resample it to the mixer's rate at load time (CabinIO/soxr); another rate still plays,
/// through the Hermite reader, but that is meant for pitch, not for rate conversion.
///
/// Thread: a plain value; register it on the control thread with `MixerConfig.addAsset`.
public struct SoundAsset: Sendable, Equatable {
    public var buffer: AudioBuffer
    public var trim: Decibels
    public var loop: LoopPoints?
    public var seamCrossfadeFrames: Int

    public init(buffer: AudioBuffer, trim: Decibels = 0, loop: LoopPoints? = nil,
                seamCrossfadeFrames: Int = 0) {
        precondition(buffer.channelCount == 1 || buffer.channelCount == 2,
                     "assets are mono or stereo")
        if let loop { precondition(loop.end <= buffer.frameCount, "loop end past the sound") }
        self.buffer = buffer
        self.trim = trim
        self.loop = loop
        self.seamCrossfadeFrames = seamCrossfadeFrames
    }
}
