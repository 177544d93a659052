import CabinIO
import Dispatch
import Synchronization

/// Plays one preview at a time on a thread of its own, each new one replacing the one that
/// plays (stopped between two of its periods): `cabin haptics watch`, which plays a pattern
/// again on every save while its terminal stays free for the next. A preview is a closure that
/// plays once, blocking — `BufferPlayer.play` or `RumblePlayer.play` — given when to stop and
/// what to call once its sound has begun.
///
/// ```swift
/// let previews = PreviewPlayer()
/// previews.play(id: 1, loop: true) { isCancelled, started in
///     _ = try BufferPlayer.play(buffer, device: "default", isCancelled: isCancelled, started: started)
/// }
/// for event in previews.takeEvents() { print(event) }   // .started(id: 1, at: …)
/// ```
///
/// Thread: any thread; previews play on the player's own (a serial dispatch queue).
public final class PreviewPlayer: Sendable {
    /// Plays once, blocking, until done or `isCancelled()`; calls `started()` when the sound begins.
    public typealias Preview = @Sendable (_ isCancelled: () -> Bool, _ started: () -> Void) throws -> Void

    /// What a preview did. `at` is `FileWatcher.now()`'s clock (monotonic seconds).
    public enum Event: Sendable, Equatable {
        /// Its sound began (each time round when it loops, the first time only).
        case started(id: Int, at: Double)
        /// It played to its end (not looping) or was replaced or stopped.
        case ended(id: Int)
        /// It could not play: the device's error.
        case failed(id: Int, message: String)
    }

    private let generation = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "cabin.preview-player")
    private let events = Mutex<[Event]>([])

    /// A player with nothing playing; its queue starts a thread only when `play` is called.
    public init() {}

    /// Stops what plays and plays `preview` (again and again while `loop`), reported as `id`.
    public func play(id: Int, loop: Bool, _ preview: @escaping Preview) {
        let mine = generation.add(1, ordering: .sequentiallyConsistent).newValue
        queue.async { [self] in
            let cancelled = { self.generation.load(ordering: .sequentiallyConsistent) != mine }
            var first = true
            while !cancelled() {
                do {
                    try preview(cancelled) {
                        if first { self.events.withLock { $0.append(.started(id: id, at: FileWatcher.now())) } }
                        first = false
                    }
                } catch {
                    events.withLock { $0.append(.failed(id: id, message: "\(error)")) }
                    return
                }
                if !loop { break }
            }
            events.withLock { $0.append(.ended(id: id)) }
        }
    }

    /// Stops what plays (at its next period), and waits until it has.
    public func stop() {
        generation.add(1, ordering: .sequentiallyConsistent)
        queue.sync {}
    }

    /// The events since the last call, oldest first.
    public func takeEvents() -> [Event] {
        events.withLock { taken in defer { taken.removeAll() }; return taken }
    }
}
