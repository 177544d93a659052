import Dispatch
import Glibc
import Synchronization

/// A studio's server on a task of its own, for a command whose thread watches the files:
/// started at once, then asked for its address (or why it could not listen) and stopped.
///
/// Thread: any thread.
public final class StudioServing: Sendable {
    private final class Shared: Sendable {
        let address = Mutex<String?>(nil)
        let problem = Mutex<String?>(nil)
        let stopped = DispatchSemaphore(value: 0)
    }

    private let shared: Shared
    private let task: Task<Void, Never>

    /// Serves `studio` on 127.0.0.1:`port` (0: any free port).
    public init(_ studio: Studio, port: Int) {
        let shared = Shared()
        self.shared = shared
        task = Task.detached {
            do {
                try await studio.serve(port: port) { url in shared.address.withLock { $0 = url } }
            } catch is CancellationError {
            } catch {
                shared.problem.withLock { $0 = "cannot serve on 127.0.0.1:\(port): \(error)" }
            }
            shared.stopped.signal()
        }
    }

    /// Why the server stopped serving (it could not listen, or failed), or nil.
    public var failure: String? { shared.problem.withLock { $0 } }

    /// The page's address once the server listens; nil when it failed (`failure`) or
    /// `giveUp` said so first (asked every 5 ms).
    public func waitForAddress(giveUp: () -> Bool) -> String? {
        while true {
            if let url = shared.address.withLock({ $0 }) { return url }
            if failure != nil || giveUp() { return nil }
            usleep(5_000)
        }
    }

    /// Stops the server and waits for it, at most 2 s (close the studio first: its pages'
    /// event streams end).
    public func stop() {
        task.cancel()
        _ = shared.stopped.wait(timeout: .now() + 2)
    }
}
