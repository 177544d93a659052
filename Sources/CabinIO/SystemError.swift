import Glibc

/// An error from a system call or a C library call: the operation that failed and why.
///
/// Prints as one readable line, e.g. `open /dev/input/event3: Permission denied (errno 13)`.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, e.g. `open /dev/input/event3` or `snd_pcm_hw_params`.
    public var operation: String
    /// The errno value (positive), or 0 when the library gave no errno.
    public var code: Int32
    /// The library's own explanation (strerror, snd_strerror, sf_strerror …).
    public var reason: String

    /// An error for `operation` with errno `code`; `reason` nil: the errno's own text
    /// (`describe(errno:)`).
    public init(operation: String, code: Int32, reason: String? = nil) {
        self.operation = operation
        self.code = code
        self.reason = reason ?? SystemError.describe(errno: code)
    }

    public var description: String {
        code != 0 ? "\(operation): \(reason) (errno \(code))" : "\(operation): \(reason)"
    }

    /// strerror for an errno value. The corresponding C function is `strerror`.
    public static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// Calls a syscall-style function that returns −1 and sets `errno` on failure, retrying
/// on `EINTR`. `EBADF` and `EFAULT` are programming errors and stop the program;
/// anything else throws a `SystemError` naming `operation`.
///
/// Thread: any thread except the render thread (it may throw).
@discardableResult
public func checkedCall<T: BinaryInteger>(_ operation: @autoclosure () -> String,
                                          _ call: () -> T) throws(SystemError) -> T {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        precondition(code != EBADF && code != EFAULT,
                     "\(operation()): \(SystemError.describe(errno: code)) — a bug in Cabin")
        throw SystemError(operation: operation(), code: code)
    }
}
