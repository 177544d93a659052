/// How long to wait before reconnecting a dropped stream: 1 s, doubling, capped at 30 s (as
/// FFmpeg's reconnect and Icecast's relays do); back to 1 s once a connection has stayed up
/// with audio (`RadioStation.steadySeconds`), not at each brief success — a file sent at once
/// and closed would otherwise be fetched every second.
///
/// Thread: a value; pure.
public struct ReconnectBackoff: Sendable, Equatable {
    /// Seconds before the first attempt.
    public var initialDelay = 1.0
    /// The longest wait, however many attempts failed.
    public var maximumDelay = 30.0
    /// Attempts since a connection last stayed up.
    public private(set) var attempts = 0

    /// No attempt made yet: the next waits `initialDelay`.
    public init() {}

    /// The delay before the next attempt (and counts it).
    public mutating func next() -> Double {
        let delay = min(maximumDelay, initialDelay * Double(1 << min(attempts, 20)))
        attempts += 1
        return delay
    }

    /// A connection has stayed up with audio.
    public mutating func reset() { attempts = 0 }
}
