import CCabinShims
import Glibc

/// A Linux eventfd: one thread signals, another wakes from `poll`. Used to shut the
/// render thread down cleanly (it sits in `poll`, never in a blocking write).
///
/// Thread: `signal` from any thread; `drain` from the polling thread.
public final class EventFD: @unchecked Sendable {
    /// The eventfd (non-blocking), for `poll`: readable while a signal is pending. Owned by
    /// this object, closed when it is freed.
    public let descriptor: Int32

    /// The corresponding C function is `eventfd`.
    public init() throws(SystemError) {
        descriptor = try checkedCall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit { close(descriptor) }

    /// Wakes the poller. Render thread: safe (one `write` syscall, no allocation).
    /// The corresponding C function is `eventfd_write`.
    public func signal() {
        _ = eventfd_write(descriptor, 1)
    }

    /// Whether a signal is pending (without clearing it). The corresponding C function is `poll`.
    public var isSignalled: Bool { EventFD.isReadable(descriptor) }

    /// Whether `descriptor` is readable now (a zero-timeout `poll`).
    public static func isReadable(_ descriptor: Int32) -> Bool {
        waitReadable(descriptor, timeoutMilliseconds: 0)
    }

    /// Waits up to `timeoutMilliseconds` for `descriptor` to be readable; whether it is.
    /// Render thread: safe (one `poll` syscall). The corresponding C function is `poll`.
    public static func waitReadable(_ descriptor: Int32, timeoutMilliseconds: Int32) -> Bool {
        var pfd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, timeoutMilliseconds) > 0 && pfd.revents & Int16(POLLIN) != 0
    }

    /// Clears pending signals. The corresponding C function is `eventfd_read`.
    public func drain() {
        var value: eventfd_t = 0
        _ = eventfd_read(descriptor, &value)
    }
}
