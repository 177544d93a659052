import Synchronization

/// What the server sends, made by the control thread: each pattern's JSON (compact) and
/// WAV, and the pages listening for new versions (server-sent events). The server reads it
/// under a mutex and never waits for a pattern to be read or rendered.
///
/// Thread: any thread (a mutex inside).
public final class StudioFeed: Sendable {
    struct Entry {
        var json = "null"
        var wav: [UInt8]?
    }

    struct State {
        var entries: [Entry]
        var listeners: [Int: AsyncStream<String>.Continuation] = [:]
        var nextListener = 0
        var closed = false
    }

    private let state: Mutex<State>

    /// A feed for `count` patterns, each `null` with no sound until published.
    public init(count: Int) {
        state = Mutex(State(entries: Array(repeating: Entry(), count: count)))
    }

    /// Sets pattern `index`'s JSON and WAV and sends the JSON to every listening page as a
    /// `pattern` event.
    public func publish(index: Int, json: String, wav: [UInt8]?) {
        let listeners = state.withLock { state -> [AsyncStream<String>.Continuation] in
            state.entries[index] = Entry(json: json, wav: wav)
            return Array(state.listeners.values)
        }
        let event = Self.event("pattern", json)
        for listener in listeners { listener.yield(event) }
    }

    /// Every pattern's JSON, as one array.
    public var patternsJSON: String {
        state.withLock { "[" + $0.entries.map(\.json).joined(separator: ",") + "]" }
    }

    /// Pattern `index`'s sound, or nil (no such pattern, or no sound).
    public func wav(_ index: Int) -> [UInt8]? {
        state.withLock { $0.entries.indices.contains(index) ? $0.entries[index].wav : nil }
    }

    /// How many patterns the feed holds (the `count` it was made with).
    public var count: Int { state.withLock { $0.entries.count } }

    /// A new page's events: every pattern as it is now, then each new version as it is
    /// published, until the page goes away or the feed is closed.
    public func listen() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            for entry in state.entries { continuation.yield(Self.event("pattern", entry.json)) }
            let id = state.nextListener
            state.nextListener += 1
            state.listeners[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many pages listen now.
    public var listenerCount: Int { state.withLock { $0.listeners.count } }

    /// Ends every page's events (the studio stops); later pages get none.
    public func close() {
        let listeners = state.withLock { state -> [AsyncStream<String>.Continuation] in
            state.closed = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    /// One server-sent event: `event: NAME`, the data on one line (compact JSON has no
    /// line breaks), a blank line.
    static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\ndata: \(data)\n\n"
    }
}
