import Glibc

/// A mutex the thread holding it may take again (POSIX `PTHREAD_MUTEX_RECURSIVE`): the
/// live player's control side, where a live event's `perform` calls back into the player
/// that is triggering it.
///
/// Thread: any thread but a real-time one (it blocks while another thread holds it).
public final class RecursiveLock: @unchecked Sendable {
    // @unchecked Sendable: the mutex is used only through pthread calls.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// An unlocked lock (a `PTHREAD_MUTEX_RECURSIVE` mutex). The corresponding C function is
    /// `pthread_mutex_init`.
    public init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
