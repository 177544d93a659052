import CabinIO
import Glibc

/// Time for the rumble player: a monotonic "now" and a sleep, so tests can run a player
/// against a clock that only moves when it sleeps.
///
/// Thread: the playing thread.
public protocol RumbleClock {
    /// Time since an arbitrary fixed origin (monotonic).
    func now() -> Duration
    /// Sleeps about `duration`.
    func sleep(for duration: Duration)
}

/// The monotonic system clock.
///
/// Thread: any thread.
public struct SystemRumbleClock: RumbleClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func now() -> Duration { ContinuousClock.now - origin }

    /// The corresponding C function is `nanosleep` (an interrupted sleep returns early;
    /// the player's loop waits again).
    public func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var request = timespec(tv_sec: Int(max(0, seconds)), tv_nsec: Int(max(0, attoseconds / 1_000_000_000)))
        _ = nanosleep(&request, nil)
    }
}
