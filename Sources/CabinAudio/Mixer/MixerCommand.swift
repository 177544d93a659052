/// An instruction for the mixer, due at an exact frame.
///
/// Plain values only (no references, no strings), so commands cross to the audio thread
/// through the lock-free ring without allocating. Durations are in frames; a duration
/// shorter than the config's `minimumRampDuration` is lengthened to it (a step in gain is a
/// click), except fade-ins of one-shots, which start as recorded.
///
/// Timing: a command takes effect at exactly frame `time`, whatever the block size. A
/// command that arrives after its frame has passed acts at the start of the next block
/// and is counted in `MixerCounters.lateCommands`.
///
/// Thread: a plain value; build on any thread.
public struct MixerCommand: Sendable, BitwiseCopyable {
    /// The frame at which the command acts.
    public var time: FrameTime
    /// What the command does.
    public var action: Action

    /// `action`, due at frame `time` of the mixer's clock.
    public init(at time: FrameTime, _ action: Action) {
        self.time = time
        self.action = action
    }

    /// The things a command can do; durations in frames.
    public enum Action: Sendable, BitwiseCopyable {
        /// Starts a layer with its configured source (restarts it if it is playing),
        /// fading in from silence.
        case startLayer(LayerID, fadeInFrames: Int64)
        /// Starts a layer with another source, bus, gain and looping than configured (they
        /// stay the layer's until changed again).
        case startLayerWith(LayerID, source: SoundSource, bus: BusID, gain: Decibels, isLooping: Bool,
                            fadeInFrames: Int64)
        /// Fades a layer out and stops it.
        case stopLayer(LayerID, fadeOutFrames: Int64)
        /// Ramps a layer's gain (relative to its configured gain) to `to`, linear in dB.
        case fadeLayer(LayerID, to: Decibels, overFrames: Int64)
        /// Equal-power crossfade of a layer to another source (−3 dB each at the midpoint).
        case crossfadeLayer(LayerID, to: SoundSource, overFrames: Int64)
        /// Ramps a parameter linearly to a value (clamped to its range).
        case setParameter(ParameterID, to: Double, overFrames: Int64)
        /// Plays a sound once on a bus (or loops it, until the bus is silenced by stealing).
        case playOneShot(SoundSource, bus: BusID, gain: Decibels)
        /// Ramps a bus gain, linear in dB.
        case setBusGain(BusID, to: Decibels, overFrames: Int64)
        /// Moves parameter `parameter` of bus `bus`'s effect number `effect` (its position
        /// in `BusConfig.effects`) to `to` over `overFrames` (how it moves is the effect's:
        /// `LowPassEffect` glides in log-frequency).
        case setEffectParameter(BusID, effect: Int32, parameter: Int32, to: Double, overFrames: Int64)
        /// Ramps the master gain (before the limiter), linear in dB.
        case setMasterGain(to: Decibels, overFrames: Int64)
        /// Fades out every voice (pull over / end of session).
        case stopAll(fadeOutFrames: Int64)
    }
}
