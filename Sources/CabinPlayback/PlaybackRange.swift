/// The part of the timeline `cabin play` plays (`--from`, `--to`/`--length`) and whether it
/// loops (`--loop`): at the range's end the session stops (fading out as `stop` does), or
/// seeks back to its start (the seek's 30 ms fade is the seam).
///
/// The control loop calls `update` several times a second. A loop seeks back `lead` seconds
/// before the end, so a late call never lets a session reach its own end and finish.
///
/// Thread: control thread.
public struct PlaybackRange: Sendable {
    /// Where the range starts on the session's timeline, in seconds (never negative): where a
    /// loop returns to. Playing from it is the caller's (`LivePlayer.Options.startTime`).
    public let start: Double
    /// The end on the session's timeline; `nil`: the session's own end.
    public let end: Double?
    /// Whether reaching the end seeks back to `start` (true) or stops the session (false).
    public let loops: Bool
    /// How many times it has gone round.
    public private(set) var laps = 0
    /// Whether it has stopped the session (at `end`, not looping).
    public private(set) var hasStopped = false
    /// After a seek back, nothing happens until the position is back before the end.
    private var armed = true
    /// How early the seek back is asked for: the control loop wakes at least every 100 ms.
    public static let lead = 0.25
    /// How long before the end (or a loop's turn) the range needs a small output latency
    /// (`LatencyNeed.rangeEnd`), in seconds: what is queued by then is short, so the stop or
    /// the seek back is heard on time.
    public static let nearEnd = 3.0
    /// Whether the range has told the player it is near its end.
    private var near = false

    /// A range from `start` to `end`, in seconds; a negative `start` counts as 0 and an `end`
    /// before `start` as `start`.
    public init(start: Double = 0, end: Double? = nil, loops: Bool = false) {
        let start = max(0, start)
        self.start = start
        self.end = end.map { max($0, start) }
        self.loops = loops
    }

    /// Whether there is anything to do (a range that is the whole session, not looping, is not).
    public var isActive: Bool { end != nil || loops }

    /// Where this range ends on a session `duration` seconds long.
    public func end(in duration: Double) -> Double { min(end ?? duration, duration) }

    /// Stops or loops `player` when its position reaches the end; says when the end is near
    /// (`LatencyNeed.rangeEnd`, within `nearEnd` seconds) and when it is not any more.
    public mutating func update(_ player: LivePlayer) {
        guard isActive, !hasStopped, !player.isFinished else { return }
        let end = self.end(in: player.session.duration)
        let position = player.position
        // Seek back just before the end, once per lap; never for a range shorter than the lead.
        let turn = loops ? max(start + 0.05, end - (self.end == nil || end >= player.session.duration - PlaybackRange.lead ? PlaybackRange.lead : 0))
            : end
        let nearNow = position >= turn - Self.nearEnd && position < turn
        if nearNow != near {
            near = nearNow
            player.setLatencyNeed(.rangeEnd, nearNow)
        }
        if loops {
            if armed && position >= turn {
                armed = false
                laps += 1
                // From the range's first frame, not from where the wall clock would be.
                player.seek(to: start, keepingTime: false)
            } else if !armed && position < turn {
                armed = true
            }
        } else if position >= end {
            hasStopped = true
            player.stop()
        }
    }
}
