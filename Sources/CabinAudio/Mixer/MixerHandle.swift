/// The control side of a mixer: sends commands, sets live parameters, reads counters.
///
/// Commands travel through a fixed-capacity lock-free ring; `send` never blocks — when the
/// ring is full it returns false (and throws in `sendOrThrow`) and counts the refusal.
/// Parameters set with `setParameter(_:to:)` are latest-value-wins atomics that the audio
/// thread notices once per block and ramps over `liveParameterRampDuration`.
///
/// Thread: control thread only, from one thread at a time (the ring has a single
/// producer). It is `Sendable` so it can be handed to another thread, not shared by two.
public final class MixerHandle: Sendable {
    let shared: MixerShared
    /// Frames per second of the mixer.
    public let sampleRate: Double
    private let names: Names

    struct Names: Sendable {
        var buses: [String]
        var layers: [String]
        var parameters: [(name: String, range: ClosedRange<Double>)]
        var effectCounts: [Int]
    }

    init(shared: MixerShared, config: MixerConfig) {
        self.shared = shared
        sampleRate = config.sampleRate
        names = Names(buses: config.buses.map(\.name), layers: config.layers.map(\.name),
                      parameters: config.parameters.map { ($0.name, $0.range) },
                      effectCounts: config.buses.map(\.effects.count))
    }

    /// Queues `command`; false if the ring is full (the command is not sent).
    @discardableResult
    public func send(_ command: MixerCommand) -> Bool {
        if shared.ring.view.push(command) { return true }
        shared.cells.view.add(.rejectedCommands, 1)
        return false
    }

    /// Queues `action` due at frame `time`; false if the ring is full.
    @discardableResult
    public func send(_ action: MixerCommand.Action, at time: FrameTime) -> Bool {
        send(MixerCommand(at: time, action))
    }

    /// Queues `command`, throwing `MixerError.commandRingFull` if the ring is full.
    public func sendOrThrow(_ command: MixerCommand) throws(MixerError) {
        guard send(command) else { throw .commandRingFull(capacity: shared.ring.capacity) }
    }

    /// Sets a live parameter (e.g. the user pressing + for speed). The newest value wins;
    /// the audio thread ramps to it at its next block.
    public func setParameter(_ parameter: ParameterID, to value: Double) {
        let index = Int(parameter.index)
        precondition(index >= 0 && index < names.parameters.count, "unknown \(parameter)")
        let range = names.parameters[index].range
        shared.cells.view.storeParameter(index, min(max(value, range.lowerBound), range.upperBound))
    }

    /// Sets the listener's volume of `bus` (or of the master, `nil`) in dB, on top of the
    /// gains the session sets (its cues never move it); −∞ (or anything at or below −120)
    /// is silence. The newest value wins; the audio thread ramps to it at its next block,
    /// as it does live parameters.
    public func setVolume(_ decibels: Decibels, bus: BusID?) {
        let index = bus.map { Int($0.index) } ?? names.buses.count
        precondition(index >= 0 && index <= names.buses.count, "unknown \(String(describing: bus))")
        shared.cells.view.storeVolume(index, max(decibels.value, -1000))
    }

    /// Queues a move of parameter `parameter` of effect number `effect` (its position in the
    /// bus's `BusConfig.effects`) on `bus` to `value` over `overFrames`, due at frame `time`
    /// (the `setEffectParameter` command); false if the ring is full.
    @discardableResult
    public func setEffectParameter(_ parameter: Int, ofEffect effect: Int, on bus: BusID, to value: Double,
                                   overFrames: Int64 = 0, at time: FrameTime) -> Bool {
        let b = Int(bus.index)
        precondition(b >= 0 && b < names.effectCounts.count, "unknown \(bus)")
        precondition(effect >= 0 && effect < names.effectCounts[b], "\(bus) has no effect #\(effect)")
        return send(.setEffectParameter(bus, effect: Int32(effect), parameter: Int32(parameter), to: value,
                                        overFrames: overFrames), at: time)
    }

    /// Frames the engine has rendered: "now" on the engine clock, as of the last block.
    public var currentFrame: FrameTime { FrameTime(shared.cells.view.load(.renderedFrames)) }

    /// Frames in `seconds` at the mixer's rate.
    public func frames(_ seconds: Double) -> FrameTime { FrameTime((seconds * sampleRate).rounded()) }

    /// Each bus's peak level (after its gain and ducking) since the last call, in dBFS, in
    /// the config's bus order; reading clears them. For level meters.
    public func takeBusPeaks() -> [Decibels] {
        let view = shared.cells.view
        return (0..<view.busCount).map { b in
            let bits = view.busMeterCell(b).pointee.exchange(0, ordering: .relaxed)
            let peak = Float(bitPattern: UInt32(truncatingIfNeeded: bits))
            return peak > 0 ? Decibels(linearGain: Double(peak)) : .silence
        }
    }

    /// The bus names, in the config's order (matching `takeBusPeaks`).
    public var busNames: [String] { names.buses }

    /// Commands waiting in the ring.
    public var queuedCommandCount: Int { shared.ring.view.count }

    /// A snapshot of the counters.
    public var counters: MixerCounters {
        let c = shared.cells.view
        return MixerCounters(
            rejectedCommands: Int(c.load(.rejectedCommands)), lateCommands: Int(c.load(.lateCommands)),
            invalidCommands: Int(c.load(.invalidCommands)), deferredCommands: Int(c.load(.deferredCommands)),
            stolenVoices: Int(c.load(.stolenVoices)), droppedVoices: Int(c.load(.droppedVoices)),
            activeVoices: Int(c.load(.activeVoices)), renderedFrames: FrameTime(c.load(.renderedFrames)),
            limiterMinimumGain: Double(bitPattern: c.load(.limiterMinimumGain)))
    }
}

/// Errors the control side of the mixer reports.
public enum MixerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command ring is full: the audio thread is not draining it (stalled or not
    /// started), or commands are sent faster than blocks are rendered.
    case commandRingFull(capacity: Int)

    /// The error for people: what is full and the likely cause.
    public var description: String {
        switch self {
        case .commandRingFull(let capacity):
            "the mixer's command ring is full (\(capacity) commands); is the audio thread running?"
        }
    }
}
