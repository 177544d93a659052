import Glibc

/// A mutex and a condition variable: one thread waits until a condition holds, another
/// wakes it after changing what the condition reads (the radio's `GeneratedStation.fillAhead`
/// and the thread composing ahead).
///
/// ```swift
/// let signal = WakeSignal()
/// // the waiter (the condition is read under the lock):
/// signal.wait { queue.count > 0 }
/// // the waker:
/// signal.locked { queue.append(item) }
/// signal.wakeAll()
/// ```
///
/// Thread: any threads except the render thread (it locks and blocks). The corresponding
/// C functions are `pthread_mutex_lock`/`unlock` and `pthread_cond_wait`/`broadcast`.
public final class WakeSignal: @unchecked Sendable {
    // @unchecked Sendable: the mutex and condition are used only through pthread calls.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// An unlocked mutex and its condition variable. The corresponding C functions are
    /// `pthread_mutex_init` and `pthread_cond_init`.
    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` under the lock.
    public func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Blocks until `condition` holds (checked under the lock, again after every wake-up).
    public func wait(until condition: () -> Bool) {
        pthread_mutex_lock(mutex)
        while !condition() { pthread_cond_wait(self.condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Wakes every waiter, after whatever its condition reads has changed.
    public func wakeAll() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
