import CabinHaptics
import CabinIO
import CabinOutput

/// Plays haptic patterns on a Linux evdev rumble device (`FF_RUMBLE`): walks a
/// `RumblePlan` in real time, uploading effects (`EVIOCSFF`) and playing and stopping
/// them (writes of `EV_FF` events), and always stops and removes (`EVIOCRMFF`) every
/// effect it uploaded — at the end, on cancel (Ctrl-C) and on error.
///
/// - Slots: one per plan voice, allocated on first use (id −1) and reused afterwards by
///   uploading with the same id; a plan never needs more voices than the device has slots
///   (``planOptions(_:)`` fits the transient voices to `RumbleDeviceInfo/effectSlots`).
/// - Gain: `FF_GAIN` is set once before playing when the device supports it.
/// - Errors: every call goes through `checkedCall(_:_:)` (`EINTR` retried); a failure
///   becomes a `ForceFeedbackError` whose kind says what to do (`ENODEV` → disconnected).
/// - If the process dies before cleaning up (a second Ctrl-C exits at once), the kernel
///   still stops and erases the effects: closing an evdev file flushes the effects it
///   uploaded (`input_ff_flush`), so a motor is never left running.
///
/// ```swift
/// let player = try RumblePlayer.open("/dev/input/event5")
/// defer { player.close() }
/// try player.play(HapticCompiler.compile(pattern), isCancelled: { interrupted })
/// ```
///
/// Thread: control thread only; `play` blocks for the pattern's length.
public final class RumblePlayer {
    /// The device it plays on, as read when it was opened: node, name, effect slots, gain.
    public let info: RumbleDeviceInfo
    private let device: any ForceFeedbackDevice
    private var slots: [Int16?] = []
    private var isClosed = false

    /// How a play ended.
    public enum Outcome: Sendable, Equatable {
        /// The plan played to its end.
        case finished
        /// `isCancelled` returned true first; the effects were removed (the motors stop).
        case cancelled
    }

    /// Opens `path` read-write and checks that it can rumble.
    public static func open(_ path: String, system: any ForceFeedbackSystem = EvdevSystem()) throws(ForceFeedbackError) -> RumblePlayer {
        let device: any ForceFeedbackDevice
        do { device = try RumbleDevices.open(path, writable: true, system: system) } catch {
            throw ForceFeedbackError(error, device: path)
        }
        do { return try RumblePlayer(device: device, path: path) } catch {
            _ = device.close()
            throw error
        }
    }

    /// Wraps an open device, reading its capabilities.
    public init(device: any ForceFeedbackDevice, path: String) throws(ForceFeedbackError) {
        let probed: RumbleDeviceInfo?
        do { probed = try RumbleDevices.probe(device, path: path) } catch { throw ForceFeedbackError(error, device: path) }
        guard let probed else {
            throw ForceFeedbackError(.unsupported, device: path, operation: "EVIOCGBIT", code: 0,
                                     detail: "no FF_RUMBLE force feedback")
        }
        guard probed.effectSlots > 0 else {
            throw ForceFeedbackError(.unsupported, device: path, operation: "EVIOCGEFFECTS", code: 0,
                                     detail: "the device holds no effects")
        }
        self.info = probed
        self.device = device
    }

    deinit { close() }

    /// `options` with the transient voices fitted to the device's slots (one slot is the
    /// continuous track's; with a single slot, transients merge into it).
    public func planOptions(_ options: RumblePlanOptions = .init()) -> RumblePlanOptions {
        var fitted = options
        fitted.transientVoices = min(options.transientVoices, info.effectSlots - 1)
        return fitted
    }

    /// Plans `compiled` for this device and plays it. `gain` 0…1 becomes `FF_GAIN`.
    @discardableResult
    public func play(_ compiled: CompiledHaptics, options: RumblePlanOptions = .init(), gain: Double = 1,
                     clock: any RumbleClock = SystemRumbleClock(),
                     isCancelled: () -> Bool = { false }) throws(ForceFeedbackError) -> Outcome {
        try play(RumblePlan(compiled, options: planOptions(options)), gain: gain, clock: clock, isCancelled: isCancelled)
    }

    /// Plays `plan`, blocking until it ends or `isCancelled` returns true (polled at least
    /// every 10 ms). Every effect is stopped and removed before this returns or throws.
    @discardableResult
    public func play(_ plan: RumblePlan, gain: Double = 1, clock: any RumbleClock = SystemRumbleClock(),
                     isCancelled: () -> Bool = { false }) throws(ForceFeedbackError) -> Outcome {
        guard plan.voiceCount <= info.effectSlots else {
            throw ForceFeedbackError(.unsupported, device: info.path, operation: "EVIOCGEFFECTS", code: 0,
                                     detail: "the plan needs \(plan.voiceCount) effect slots; the device has \(info.effectSlots)")
        }
        slots = [Int16?](repeating: nil, count: plan.voiceCount)
        let start = clock.now()
        do {
            if info.supportsGain {
                let value = UInt16((min(max(gain, 0), 1) * 65535).rounded())
                try call("write FF_GAIN") { device.writeEvent(.gain(value)) }
            }
            for step in plan.steps {
                guard wait(until: .milliseconds(step.time), from: start, clock: clock, isCancelled: isCancelled) else {
                    try removeAll()
                    return .cancelled
                }
                try perform(step.action)
            }
            let finished = wait(until: .milliseconds(plan.durationMilliseconds), from: start, clock: clock,
                                isCancelled: isCancelled)
            try removeAll()
            return finished ? .finished : .cancelled
        } catch {
            removeAllIgnoringErrors()
            throw error
        }
    }

    /// Gets ready to play actions one at a time (a live signal: `SessionRumble`):
    /// `voiceCount` slots, `gain` 0…1 as `FF_GAIN`. Every effect of a previous play is
    /// removed first.
    public func begin(voiceCount: Int, gain: Double = 1) throws(ForceFeedbackError) {
        guard voiceCount <= info.effectSlots else {
            throw ForceFeedbackError(.unsupported, device: info.path, operation: "EVIOCGEFFECTS", code: 0,
                                     detail: "\(voiceCount) effect slots are needed; the device has \(info.effectSlots)")
        }
        try removeAll()
        slots = [Int16?](repeating: nil, count: voiceCount)
        if info.supportsGain {
            let value = UInt16((min(max(gain, 0), 1) * 65535).rounded())
            try call("write FF_GAIN") { device.writeEvent(.gain(value)) }
        }
    }

    /// Performs one action now (after ``begin(voiceCount:gain:)``).
    public func perform(live action: RumblePlan.Action) throws(ForceFeedbackError) {
        do { try perform(action) } catch {
            removeAllIgnoringErrors()
            throw error
        }
    }

    /// Stops and removes every effect uploaded so far.
    public func end() throws(ForceFeedbackError) { try removeAll() }

    /// Closes the device (after removing any effect still uploaded). Idempotent.
    public func close() {
        guard !isClosed else { return }
        removeAllIgnoringErrors()
        _ = device.close()
        isClosed = true
    }

    private func perform(_ action: RumblePlan.Action) throws(ForceFeedbackError) {
        switch action {
        case .play(let voice, let magnitudes, let length):
            var effect = RumbleEffect(id: slots[voice] ?? -1, magnitudes: magnitudes,
                                      lengthMilliseconds: UInt16(clamping: length))
            try call("EVIOCSFF") { device.uploadEffect(&effect) }
            slots[voice] = effect.id
            try call("write EV_FF play") { device.writeEvent(.play(effect.id, count: 1)) }
        case .stop(let voice):
            guard let id = slots[voice] else { return }
            try call("write EV_FF stop") { device.writeEvent(.play(id, count: 0)) }
        }
    }

    /// Stops and removes every uploaded effect, in voice order.
    private func removeAll() throws(ForceFeedbackError) {
        for voice in slots.indices {
            guard let id = slots[voice] else { continue }
            try call("write EV_FF stop") { device.writeEvent(.play(id, count: 0)) }
            try call("EVIOCRMFF") { device.removeEffect(id: id) }
            slots[voice] = nil
        }
    }

    /// The same on the way out of an error: each effect is tried once; failures (the
    /// device is likely gone) are ignored.
    private func removeAllIgnoringErrors() {
        for voice in slots.indices {
            guard let id = slots[voice] else { continue }
            _ = try? call("write EV_FF stop") { device.writeEvent(.play(id, count: 0)) }
            _ = try? call("EVIOCRMFF") { device.removeEffect(id: id) }
            slots[voice] = nil
        }
    }

    private func call<T: BinaryInteger>(_ operation: String, _ body: () -> T) throws(ForceFeedbackError) {
        do { try checkedCall(operation, body) } catch { throw ForceFeedbackError(error, device: info.path) }
    }

    /// Sleeps until `target` after `start`; false when cancelled first.
    private func wait(until target: Duration, from start: Duration, clock: any RumbleClock,
                      isCancelled: () -> Bool) -> Bool {
        while true {
            if isCancelled() { return false }
            let elapsed = clock.now() - start
            if elapsed >= target { return true }
            clock.sleep(for: min(target - elapsed, .milliseconds(10)))
        }
    }
}
