/// An insert on a bus: it processes what the bus's voices rendered, in place, before the
/// bus gain and ducking (pre-fader), every segment in which the bus sounds or the effect
/// still has a tail.
///
/// The seam: an effect is a class conforming to `BusEffect`, described on the control side
/// by a value conforming to `BusEffectDescription` (kept in `BusConfig.effects`). The
/// mixer builds the effects when it is made (`MixerConfig.make()`: `makeEffect()`, then
/// `prepare`), calls `process` on the render thread, and moves parameters with the one
/// generic command `MixerCommand.Action.setEffectParameter`. `LowPassEffect` is one.
///
/// Rules for the render-thread methods (`process`, `hasTail`, `setParameter`): no
/// allocation, locks, errors or I/O — mark them `@_noAllocation @_noLocks` (in release), as
/// `LowPassEffect` does, because the mixer's own check cannot see through a protocol call.
/// Everything an effect needs is allocated in `init` or `prepare`.
///
/// Block-size invariance: state must advance per sample, so that the output does not
/// depend on how blocks are cut. Idle-bus skipping: while `hasTail` is false the mixer may
/// skip the effect on a silent bus, so `false` must mean that processing silence would
/// give silence and leave the effect unchanged.
///
/// Thread: made and prepared on the control thread (in `make()`); afterwards owned by the
/// render thread, which alone calls it. Released with the mixer, on the control thread.
public protocol BusEffect: AnyObject {
    /// Sets the rate and the largest block `process` will get; allocate here.
    ///
    /// Control thread: once, in `MixerConfig.make()`, before any other call.
    func prepare(sampleRate: Double, maximumBlockFrames: Int)

    /// Processes `frameCount` frames of interleaved stereo in place
    /// (`samples[2 * i]` left, `samples[2 * i + 1]` right; `frameCount` ≤ the maximum).
    ///
    /// Render thread: must not allocate, lock, throw or do I/O.
    func process(_ samples: UnsafeMutablePointer<Float>, frameCount: Int)

    /// True while processing silence would give anything but silence or would change the
    /// effect: a tail ringing out, a parameter still moving. While it is false and the
    /// bus's voices are silent, the bus is idle and the effect is not called.
    ///
    /// Render thread.
    var hasTail: Bool { get }

    /// Moves parameter `index` (the effect's own numbering) to `value` over `frames`
    /// frames (already at least the mixer's minimum ramp), starting at the next frame
    /// processed. Unknown indices and values it cannot take are ignored.
    ///
    /// Render thread: must not allocate, lock, throw or do I/O.
    func setParameter(_ index: Int, to value: Double, overFrames frames: Int64)
}

/// How to build a bus effect: a value kept in `BusConfig.effects`, from which every
/// `make()` builds a fresh effect (seeks and previews make several mixers from one config).
///
/// `parameters` are the effect's initial parameter values, by index (what
/// `setParameter`'s index means); a seek writes the values its timeline reached there.
///
/// Thread: a plain value; control thread.
public protocol BusEffectDescription: Sendable, Equatable {
    /// Initial parameter values, by parameter index.
    var parameters: [Double] { get set }

    /// A new effect with these parameters, not yet prepared. Control thread (`make()`).
    func makeEffect() -> any BusEffect

    /// The value parameter `index` has reached after `progress` (0…1) of a move from
    /// `from` to `to` (for seeking into a move). Default: linear.
    func interpolate(parameter index: Int, from: Double, to: Double, progress: Double) -> Double
}

extension BusEffectDescription {
    /// Linear: `from + (to − from) × progress`.
    public func interpolate(parameter index: Int, from: Double, to: Double, progress: Double) -> Double {
        from + (to - from) * progress
    }

    /// Whether `other` is the same kind of effect with equal settings.
    public func isEqual(to other: any BusEffectDescription) -> Bool {
        (other as? Self) == self
    }
}
