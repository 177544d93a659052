import CCabinShims
import Glibc

/// A dedicated thread for audio, with SCHED_FIFO priority when the system allows it
/// (root, RLIMIT_RTPRIO or rtkit); otherwise it runs at normal priority and says why.
/// With `realtime: false` it is a plain named thread (the rumble thread).
///
/// Thread: `start` and `join` from the control thread.
public final class RealtimeThread: @unchecked Sendable {
    /// How the thread is scheduled.
    public enum Scheduling: Sendable, Equatable {
        /// SCHED_FIFO at this priority.
        case realtime(priority: Int32)
        /// Normal scheduling, with the reason real-time was refused.
        case normal(reason: String)
    }

    private var thread: pthread_t?
    private let body: @Sendable (Scheduling) -> Void
    private let priority: Int32
    private let realtime: Bool
    private let name: String

    /// Creates (does not start) a thread that runs `body`, telling it how it is scheduled;
    /// `realtime: false` does not ask for SCHED_FIFO.
    public init(name: String, priority: Int32 = 70, realtime: Bool = true,
                body: @escaping @Sendable (Scheduling) -> Void) {
        self.name = name
        self.priority = priority
        self.realtime = realtime
        self.body = body
    }

    /// Starts the thread. The corresponding C function is `pthread_create`.
    public func start() throws(SystemError) {
        let box = Unmanaged.passRetained(self).toOpaque()
        var tid = pthread_t()
        let err = pthread_create(&tid, nil, { raw in
            let me = Unmanaged<RealtimeThread>.fromOpaque(raw!).takeRetainedValue()
            me.run()
            return nil
        }, box)
        if err != 0 {
            Unmanaged<RealtimeThread>.fromOpaque(box).release()
            throw SystemError(operation: "pthread_create (\(name))", code: err)
        }
        thread = tid
    }

    /// Waits for the thread to end. The corresponding C function is `pthread_join`.
    public func join() {
        guard let t = thread else { return }
        pthread_join(t, nil)
        thread = nil
    }

    /// Lets the thread end on its own, its resources freed when it does (it cannot be
    /// joined after). The corresponding C function is `pthread_detach`.
    public func detach() {
        guard let t = thread else { return }
        pthread_detach(t)
        thread = nil
    }

    private func run() {
        cabin_set_thread_name(name)
        body(realtime ? Self.requestRealtime(priority: priority) : .normal(reason: "not requested"))
    }

    /// Asks for SCHED_FIFO on the calling thread, clamped to what RLIMIT_RTPRIO allows.
    /// The corresponding C functions are `getrlimit` and `pthread_setschedparam`.
    static func requestRealtime(priority wanted: Int32) -> Scheduling {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(14), &limit) // RLIMIT_RTPRIO (bits/resource.h)
        let maxPriority = sched_get_priority_max(Int32(SCHED_FIFO))
        var priority = min(wanted, maxPriority)
        if geteuid() != 0 {
            let allowed = limit.rlim_cur == rlim_t.max ? UInt(maxPriority) : UInt(limit.rlim_cur)
            priority = min(priority, Int32(clamping: allowed))
            if priority <= 0 { return .normal(reason: "RLIMIT_RTPRIO is 0 (not root, no rtprio in limits.conf)") }
        }
        var param = sched_param(sched_priority: priority)
        let err = pthread_setschedparam(pthread_self(), Int32(SCHED_FIFO), &param)
        if err == 0 { return .realtime(priority: priority) }
        return .normal(reason: "SCHED_FIFO refused: \(SystemError.describe(errno: err))")
    }
}
