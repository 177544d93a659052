import CabinIO
import CabinPlayback
import Synchronization

/// What a station's thread shares with the control thread, for every kind of station
/// (internet, playlist): the thread itself, the flag that stops it, and the events and
/// status it publishes behind one lock.
///
/// Thread: `start`, `stop`, `takeEvents` and `status` on the control thread; `isRunning`
/// and `withShared` on the station's thread as well.
final class StationWorker: @unchecked Sendable {
    // @unchecked Sendable: `thread` is started and stopped on the control thread only; the
    // rest is a Mutex.
    struct Shared {
        var events: [RadioEvent] = []
        var status: RadioStatus
        /// `.skipped` events since the last take: kept (up to `maxSkipped`), and counted beyond.
        var skippedKept = 0
        var moreSkipped = 0
    }

    /// The most events kept for a control thread that does not take them.
    static let maxEvents = 1000
    /// The most `.skipped` events kept between two takes; the rest become one line saying
    /// how many more (a playlist of 100,000 missing files is 100 lines and a count, not the
    /// last 999 of them).
    static let maxSkipped = 100
    private let thread = StoppableThread()
    private let shared: Mutex<Shared>

    init(status: RadioStatus) {
        shared = Mutex(Shared(status: status))
    }

    /// Runs `body` on a new (not real-time) thread called `name`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        try thread.start(name: name, body)
    }

    /// Asks the thread to stop and waits for it.
    func stop() { thread.stop() }

    /// False once `stop` was called: the thread's loop ends.
    var isRunning: Bool { thread.isRunning }

    /// The events since the last call.
    func takeEvents() -> [RadioEvent] {
        shared.withLock { s in
            Self.summarizeSkips(&s)
            defer { s.events = []; s.skippedKept = 0 }
            return s.events
        }
    }
    var status: RadioStatus { shared.withLock { $0.status } }

    /// Changes the shared state under the lock (events beyond `maxEvents` drop the oldest).
    func withShared(_ body: (inout Shared) -> Void) {
        shared.withLock { s in
            let start = s.events.count
            body(&s)
            Self.limitSkips(&s, from: start)
            if s.events.count > Self.maxEvents { s.events.removeFirst(s.events.count - Self.maxEvents) }
        }
    }

    /// Keeps the new events from `start` on, but only `maxSkipped` `.skipped` ones between
    /// takes; the others are counted, and the count is one event before the next other event.
    private static func limitSkips(_ s: inout Shared, from start: Int) {
        guard s.moreSkipped > 0 || s.events[start...].contains(where: \.isSkipped) else { return }
        let new = Array(s.events[start...])
        s.events.removeSubrange(start...)
        for event in new {
            if event.isSkipped {
                if s.skippedKept < maxSkipped {
                    s.skippedKept += 1
                    s.events.append(event)
                } else {
                    s.moreSkipped += 1
                }
            } else {
                summarizeSkips(&s)
                s.events.append(event)
            }
        }
    }

    /// The skipped events counted and not kept, as one event.
    private static func summarizeSkips(_ s: inout Shared) {
        guard s.moreSkipped > 0 else { return }
        s.events.append(.skipped(url: s.status.url, message: "\(s.moreSkipped) more (the first \(maxSkipped) are listed)"))
        s.moreSkipped = 0
    }

    /// Publishes `event`, updating the status with it.
    func post(_ event: RadioEvent, _ update: (inout RadioStatus) -> Void = { _ in }) {
        withShared { s in
            s.events.append(event)
            update(&s.status)
        }
    }
}

/// A named thread (not real-time) with a stop flag: the loop a station or a generator runs
/// checks `isRunning`; `stop` clears it and joins.
///
/// Thread: `start` and `stop` on the control thread; `isRunning` on the thread as well.
final class StoppableThread: @unchecked Sendable {
    // @unchecked Sendable: `thread` is set and joined on the control thread only; the flag
    // is an atomic.
    private let running = Atomic<Bool>(true)
    private var thread: RealtimeThread?

    /// Whether `start` has run (and `stop` not yet).
    var isStarted: Bool { thread != nil }

    /// Runs `body` on a new thread called `name`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let thread = RealtimeThread(name: name, realtime: false) { _ in body() }
        try thread.start()
        self.thread = thread
    }

    /// Asks the thread to stop (its loop ends at its next check), without waiting.
    func requestStop() { running.store(false, ordering: .relaxed) }

    /// Asks the thread to stop and waits for it.
    func stop() {
        requestStop()
        thread?.join()
        thread = nil
    }

    /// False once `stop` was called: the thread's loop ends.
    var isRunning: Bool { running.load(ordering: .relaxed) }
}
