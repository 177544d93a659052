import CabinAudio

/// A player's events as an `AsyncSequence`: `for await event in player.events { … }` gets
/// every event in order, ending after `.ended`. It polls the player (`poll()`) every
/// `interval` while nothing is new, sleeping in between with `Task.sleep` (no thread is
/// held), and stops early when its task is cancelled.
///
/// Use either this or `poll()`: both take the same queue, so two readers would each see
/// some of the events.
///
/// Thread: any task.
public struct PlayerEvents: AsyncSequence, Sendable {
    public typealias Element = PlayerEvent
    public typealias Failure = Never
    let player: LivePlayer
    let interval: Duration

    public func makeAsyncIterator() -> Iterator { Iterator(player: player, interval: interval) }

    /// Reads the player's events in order (see the type); one iterator per sequence.
    public struct Iterator: AsyncIteratorProtocol {
        /// A player event.
        public typealias Element = PlayerEvent
        public typealias Failure = Never
        let player: LivePlayer
        let interval: Duration
        var pending: [PlayerEvent] = []
        var next = 0
        var ended = false

        public mutating func next() async -> PlayerEvent? {
            while true {
                if next < pending.count {
                    let event = pending[next]
                    next += 1
                    if case .ended = event { ended = true }
                    return event
                }
                if ended || Task.isCancelled { return nil }
                let finished = player.isFinished
                (pending, next) = (player.poll(), 0)
                // Ended before it ever started (or its end was taken by `poll`): nothing more comes.
                if pending.isEmpty && finished { return nil }
                if pending.isEmpty { try? await Task.sleep(for: interval) }
            }
        }
    }
}

extension LivePlayer {
    /// Every event from now on, as an `AsyncSequence` that ends after `.ended` (see
    /// `PlayerEvents`); polled every 50 ms while nothing is new.
    public var events: PlayerEvents { PlayerEvents(player: self, interval: .milliseconds(50)) }

    /// The same, polled every `interval`.
    public func events(every interval: Duration) -> PlayerEvents { PlayerEvents(player: self, interval: interval) }
}

extension PlayerEvent: CustomStringConvertible {
    /// One line for people, with what came from outside (device messages, station names and
    /// titles) made safe for a terminal: `mark rest at 1500.000 s (rest stop)`.
    public var description: String {
        func s(_ t: Double) -> String { String(cFormat: "%.3f s", t) }
        switch self {
        case .started(let i):
            let sound = i.silentReason.map { ": no sound (\($0.terminalSafe))" } ?? ""
            return "started on \(i.device.terminalSafe) at \(i.sampleRate) Hz, period \(i.periodFrames), buffer \(i.bufferFrames), "
                + "\(i.format.rawValue), \(i.scheduling.terminalSafe)\(sound)"
        case .mark(let name, let time, let title):
            return "mark \(name.terminalSafe) at \(s(time))" + (title.map { " (\($0.terminalSafe))" } ?? "")
        case .xrun(let count, let time, let lost): return "underrun \(count) at \(s(time)), \(s(lost)) skipped"
        case .deviceError(let message): return "device error: \(message.terminalSafe)"
        case .deviceRestored(let time): return "device restored at \(s(time))"
        case .paused(let time): return "paused at \(s(time))"
        case .resumed(let time): return "resumed at \(s(time))"
        case .seeked(let time): return "seeked to \(s(time))"
        case .triggered(let name, let time): return "triggered \(name.terminalSafe) at \(s(time))"
        case .volumeChanged(let bus, let decibels, let muted):
            let level = decibels.isFinite ? String(cFormat: "%.1f dB", decibels) : "silent"
            return "volume \(bus.map { "of \($0.terminalSafe)" } ?? "(master)") \(level)" + (muted ? ", muted" : "")
        case .ended(let reason, let time, let xruns): return "ended (\(reason.rawValue)) at \(s(time)), \(xruns) underruns"
        case .radio(let event): return "radio: " + PlayerEvent.radioLine(event)
        case .latencyChanged(let latency, let period, let buffer):
            return "latency \(latency.rawValue): period \(period), buffer \(buffer)"
        }
    }

    private static func radioLine(_ event: RadioEvent) -> String {
        let url = event.url.terminalSafe
        switch event {
        case .buffering(_, let reason): return "\(url) buffering (\(reason.terminalSafe))"
        case .playing(_, let name, let codec, let seconds):
            return "\(url) playing\(name.map { " \"\($0.terminalSafe)\"" } ?? "") (\(codec.terminalSafe), \(s3(seconds)) to start)"
        case .title(_, let title): return "\(url) title \"\(title.terminalSafe)\""
        case .reconnect(_, let attempt, let delay, let reason):
            return "\(url) reconnecting (attempt \(attempt) in \(s3(delay))): \(reason.terminalSafe)"
        case .error(_, let message): return "\(url) error: \(message.terminalSafe)"
        case .skipped(_, let message): return "\(url) skipped: \(message.terminalSafe)"
        }
    }

    private static func s3(_ t: Double) -> String { String(cFormat: "%.3f s", t) }
}
