import CabinAudio
import CabinHaptics
import CabinIO
import CabinOutput
import CabinSession
import Synchronization

/// The running session's haptics on a rumble device, following the session live on the
/// audio clock: the rumble's time is the position the listener hears, and what it plays is
/// the session's haptic signal (`LiveHapticSignal`: the haptic layers with the parameter
/// values the render thread publishes, the haptic cues, and the cues live events make), so
/// a `+`/`−` speed change moves the road texture, `leave-focus` plays the speed-bump where
/// it was sent, a pause stops the motors and a seek goes on from the new place.
///
/// Each step of 50 ms becomes motor magnitudes as a `RumblePlan` would make them
/// (`RumbleStepper`); transients play on their own slots when the listener reaches them.
/// The device is behind `ForceFeedbackDevice` (a recording fake in tests).
///
/// Thread: `init`, `start` and `stop` from the control thread; `follow` on the rumble thread
/// `start` makes (or, without `start`, on one thread of the caller's: a test's fake clock).
public final class SessionRumble: @unchecked Sendable {
    private let rumble: RumblePlayer
    private let player: LivePlayer
    private var thread: RealtimeThread?
    /// Set by `stop` on the control thread, read by the rumble thread.
    private let cancelled = Atomic<Bool>(false)
    /// The error that ended the rumble early, if any (one line).
    public private(set) var failure: String?
    // The follower's state (the rumble thread's).
    private var signal: LiveHapticSignal
    private var stepper: RumbleStepper
    private var nextStep = 0
    private var nextTransient = 0
    private var lastPosition: Double?
    private var heldSharpness = 0.0
    private var isBegun = false

    /// Opens `device` (a `/dev/input/event*` path). The corresponding C function is `open`.
    public init(device: String, player: LivePlayer,
                system: any ForceFeedbackSystem = EvdevSystem()) throws(ForceFeedbackError) {
        rumble = try RumblePlayer.open(device, system: system)
        self.player = player
        signal = LiveHapticSignal(player.session, carried: player.hapticFeed.parameters)
        stepper = RumbleStepper(options: rumble.planOptions())
        player.hapticFeed.isListening = true
    }

    deinit { player.hapticFeed.isListening = false }

    /// Starts the rumble thread; `clock` defaults to the player's audio clock.
    public func start(gain: Double = 1, clock: (any RumbleClock & Sendable)? = nil) {
        let clock = clock ?? AudioClock(player: player)
        // While it rumbles it follows what is heard closely: a need for a small latency.
        player.setLatencyNeed(.rumble, true)
        let thread = RealtimeThread(name: "cabin-rumble", realtime: false) { [self] _ in
            // Without the control lock: the control side may hold it while it joins this thread.
            defer { player.markLatencyNeed(.rumble, false) }
            do {
                try begin(gain: gain)
                while !cancelled.load(ordering: .acquiring) && !player.isFinished {
                    try follow(position: clock.now().inSeconds, isPaused: player.isPaused)
                    clock.sleep(for: .milliseconds(5))
                }
            } catch {
                failure = "\(error)"
            }
            rumble.close()
        }
        do {
            try thread.start()
            self.thread = thread
        } catch {
            failure = "\(error)"
            rumble.close()
            player.markLatencyNeed(.rumble, false)
        }
    }

    /// Stops and removes every effect, and waits for the rumble thread.
    public func stop() {
        guard thread != nil else { return }
        cancelled.store(true, ordering: .releasing)
        thread?.join()
        thread = nil
    }

    /// Gets the device ready (slots, `FF_GAIN`); `follow` does it on its first call.
    public func begin(gain: Double = 1) throws(ForceFeedbackError) {
        try rumble.begin(voiceCount: stepper.voiceCount, gain: gain)
        isBegun = true
    }

    /// Plays what the session's haptics do up to `position` (seconds of the session, where
    /// the listener is): reads the render thread's states and the live cues, sends the
    /// continuous steps that have begun and the transients reached. A jump (a seek, a skip
    /// past a stall) stops everything and goes on from the new place; while `isPaused`
    /// the motors are stopped.
    public func follow(position: Double, isPaused: Bool = false) throws(ForceFeedbackError) {
        if !isBegun { try begin() }
        let feed = player.hapticFeed
        feed.drainStates { signal.receive($0) }
        let triggers = feed.takeTriggers()
        for trigger in triggers { signal.trigger(pattern: trigger.pattern, frame: trigger.frame) }
        let step = stepper.options.stepMilliseconds
        let now = Int((position * 1000).rounded(.down))
        if isPaused {
            try perform(stepper.reset())
            lastPosition = nil
            return
        }
        if let last = lastPosition, position < last - 0.001 || position > last + 0.5 {
            // A seek or a skip: stop, and go on from here.
            if position < last { signal.jumped(back: position) }
            try perform(stepper.reset())
            lastPosition = nil
        }
        if lastPosition == nil {
            nextStep = now / step * step
            nextTransient = signal.firstTransient(after: position - 0.0005)
        } else if !triggers.isEmpty, let last = lastPosition {
            nextTransient = signal.firstTransient(after: last)
        }
        while nextTransient < signal.transients.count && signal.transients[nextTransient].time <= position {
            if let t = signal.felt(nextTransient),
               let action = stepper.transient(at: Int((t.time * 1000).rounded()), intensity: t.intensity, sharpness: t.sharpness) {
                try rumble.perform(live: action)
            }
            nextTransient += 1
        }
        while nextStep <= now && Double(nextStep) / 1000 < signal.duration {
            let window = signal.sampled(fromMilliseconds: nextStep, count: step, heldSharpness: heldSharpness)
            heldSharpness = Double(window.sharpness.last ?? 0)
            try perform(stepper.continuous(at: nextStep, intensity: window.intensity, sharpness: window.sharpness))
            nextStep += step
        }
        signal.forget(before: position - 1)
        lastPosition = position
    }

    private func perform(_ actions: [RumblePlan.Action]) throws(ForceFeedbackError) {
        for action in actions { try rumble.perform(live: action) }
    }

    /// The listener's position as the rumble's clock.
    public struct AudioClock: RumbleClock, Sendable {
        let player: LivePlayer
        /// The clock of `player`'s position: `now()` is the time into the session the listener
        /// hears (it stands while paused and jumps with a seek).
        public init(player: LivePlayer) { self.player = player }
        public func now() -> Duration { .microseconds(Int64(player.position * 1_000_000)) }
        public func sleep(for duration: Duration) {
            ThreadSleep.microseconds(UInt32(min(max(duration.inSeconds * 1_000_000, 500), 20_000)))
        }
    }
}
