/// How long to wait before reconnecting a dropped stream: 1 s, doubling, capped at 30 s (as
/// FFmpeg's reconnect and Icecast's relays do); back to 1 s once audio flows again.
///
/// Thread: a value; pure.
public struct ReconnectBackoff: Sendable, Equatable {
    public var initialDelay = 1.0
    public var maximumDelay = 30.0
    /// Attempts since audio last flowed.
    public private(set) var attempts = 0

    public init() {}

    /// The delay before the next attempt (and counts it).
    public mutating func next() -> Double {
        let delay = min(maximumDelay, initialDelay * Double(1 << min(attempts, 20)))
        attempts += 1
        return delay
    }

    /// Audio flowed again.
    public mutating func reset() { attempts = 0 }
}
