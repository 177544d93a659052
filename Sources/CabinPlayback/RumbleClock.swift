import CabinIO

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

    /// A clock whose `now()` counts from this moment.
    public init() {}

    public func now() -> Duration { ContinuousClock.now - origin }

    /// An interrupted sleep returns early; the player's loop waits again (`ThreadSleep`).
    public func sleep(for duration: Duration) {
        ThreadSleep.sleep(for: duration)
    }
}
