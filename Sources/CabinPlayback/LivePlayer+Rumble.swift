import CabinAudio
import CabinHaptics
import CabinIO
import CabinSession
import Glibc
import Synchronization

/// The session's haptic cues on a rumble device, following the audio clock: the rumble
/// plan's time is the position the listener hears, so a cue's rumble starts with its
/// sound, stops while the session is pulled over, and follows seeks.
///
/// Thread: `start` and `stop` from the control thread; the rumble runs on its own thread.
public final class SessionRumble: @unchecked Sendable {
    private let rumble: RumblePlayer
    private let player: LivePlayer
    private var thread: RealtimeThread?
    /// Set by `stop` on the control thread, read by the rumble thread.
    private let cancelled = Atomic<Bool>(false)
    /// The error that ended the rumble early, if any (one line).
    public private(set) var failure: String?

    /// Opens `device` (a `/dev/input/event*` path). The corresponding C function is `open`.
    public init(device: String, player: LivePlayer,
                system: any ForceFeedbackSystem = EvdevSystem()) throws(ForceFeedbackError) {
        rumble = try RumblePlayer.open(device, system: system)
        self.player = player
    }

    /// Starts the rumble thread; `clock` defaults to the player's audio clock.
    public func start(gain: Double = 1, clock: (any RumbleClock & Sendable)? = nil) {
        let plan = player.session.rumblePlan(options: rumble.planOptions())
        let clock = clock ?? AudioClock(player: player)
        let thread = RealtimeThread(name: "cabin-rumble", realtime: false) { [self] _ in
            do {
                try rumble.play(plan, gain: gain, clock: clock) { self.cancelled.load(ordering: .acquiring) || self.player.isFinished }
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
        }
    }

    /// Stops and removes every effect, and waits for the rumble thread.
    public func stop() {
        guard thread != nil else { return }
        cancelled.store(true, ordering: .releasing)
        thread?.join()
        thread = nil
    }

    /// The listener's position as the rumble plan's clock.
    public struct AudioClock: RumbleClock, Sendable {
        let player: LivePlayer
        public init(player: LivePlayer) { self.player = player }
        public func now() -> Duration { .microseconds(Int64(player.position * 1_000_000)) }
        public func sleep(for duration: Duration) {
            usleep(UInt32(min(max(duration.inSeconds * 1_000_000, 500), 20_000)))
        }
    }
}
