import Glibc

/// Unix-domain stream sockets for local control (`cabin play --ipc`, `cabin ctl`): a
/// listener whose socket file only its user can use, non-blocking connections for a server
/// that must never wait on a client, and a blocking client connection with a timeout.
///
/// ```swift
/// let listener = try LocalSocketListener(path: "/run/user/1000/cabin/control")
/// if let client = try listener.accept() { _ = try client.send(Array("hello\n".utf8)) }
/// ```
///
/// Thread: one thread at a time per object.
public final class LocalSocketListener {
    /// The socket file's path, as given.
    public let path: String
    /// The listening socket (non-blocking): readable in `poll` when a client waits to be
    /// accepted. Owned by the listener: closed by `close()`.
    public let descriptor: Int32
    /// The socket file's device and inode, so `close` removes only its own file.
    private let identity: (dev_t, ino_t)
    /// A descriptor held in reserve (`/dev/null`) so that at the open-file limit a waiting
    /// connection can still be accepted, told why and closed (`refuseWaiting`).
    private var spare: Int32

    /// Binds and listens on `path` (non-blocking), then makes the socket file mode 0600. A
    /// socket file of this user's that refuses connections (ECONNREFUSED: its process is
    /// gone) is replaced; anything else is an error and never removed — a live one
    /// (something accepts connections there), one whose listener does not answer in 1 s (a
    /// hung program with a full backlog), another user's socket (a test connect fails
    /// with EACCES, which says nothing about staleness), a file that is not a socket. The
    /// corresponding C functions are `socket`, `bind`, `chmod`, `listen` and `rename`.
    public init(path: String) throws(SystemError) {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemError(operation: "bind \(path)", code: EEXIST, reason: "the file exists and is not a socket; not replacing it")
            }
            guard info.st_uid == getuid() else {
                throw SystemError(operation: "bind \(path)", code: EPERM,
                                  reason: "the socket there belongs to another user (uid \(info.st_uid)); not replacing it")
            }
            do throws(SystemError) {
                let live = try LocalSocketConnection(connectingTo: path, timeoutSeconds: 1)
                live.close()
                throw SystemError(operation: "bind \(path)", code: EADDRINUSE, reason: "another program is listening there")
            } catch where error.code == ECONNREFUSED {
                unlink(path)   // stale: nothing listens there any more
            } catch where error.code == EADDRINUSE {
                throw error
            } catch {
                throw SystemError(operation: "bind \(path)", code: error.code,
                                  reason: "a program holds the socket there but does not answer (\(SystemError.describe(errno: error.code).lowercased())); not replacing it")
            }
        }
        // Bound and listening under a temporary name, then renamed into place: a client
        // that sees the file can connect (between bind and listen it would be refused).
        // (A path too long for the temporary's suffix is bound in place.)
        _ = try LocalSocketAddress(path)
        let suffixed = path + ".\(getpid())"
        let temporary = (try? LocalSocketAddress(suffixed)) == nil ? path : suffixed
        var address = try LocalSocketAddress(temporary)
        let fd = try checkedCall("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do {
            // Errors name the path asked for: the temporary name is this call's own business.
            unlink(temporary)
            try checkedCall("bind \(path)") { address.withSockaddr { bind(fd, $0, $1) } }
            try checkedCall("chmod \(path)") { chmod(temporary, 0o600) }
            try checkedCall("listen \(path)") { listen(fd, 16) }
            if temporary != path { try checkedCall("rename \(path)") { rename(temporary, path) } }
        } catch {
            Glibc.close(fd)
            unlink(temporary)
            throw error
        }
        lstat(path, &info)
        self.path = path
        descriptor = fd
        identity = (info.st_dev, info.st_ino)
        spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    deinit { close() }

    private var isClosed = false

    /// Stops listening and removes the socket file (if it is still this socket's).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
        if spare >= 0 { Glibc.close(spare) }
        spare = -1
        var info = stat()
        if lstat(path, &info) == 0 && info.st_dev == identity.0 && info.st_ino == identity.1 { unlink(path) }
    }

    /// A waiting connection (non-blocking), or nil when none waits.
    /// The corresponding C functions are `accept` and `fcntl`.
    public func accept() throws(SystemError) -> LocalSocketConnection? {
        let fd = Glibc.accept(descriptor, nil, nil)
        if fd >= 0 {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            return LocalSocketConnection(descriptor: fd)
        }
        let code = errno
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNABORTED { return nil }
        throw SystemError(operation: "accept \(path)", code: code)
    }

    /// Accepts the oldest waiting connection, sends it `line` (without blocking) and closes
    /// it: a refusal. At the open-file limit (`accept` failing with EMFILE or ENFILE while
    /// the listener stays readable) the descriptor held in reserve is given up for the
    /// moment it takes, as nginx and libuv do. Whether a connection was waiting and refused.
    /// The corresponding C functions are `accept`, `send` and `close`.
    @discardableResult
    public func refuseWaiting(with line: [UInt8]) -> Bool {
        var fd = Glibc.accept(descriptor, nil, nil)
        if fd < 0 && (errno == EMFILE || errno == ENFILE) && spare >= 0 {
            Glibc.close(spare)
            fd = Glibc.accept(descriptor, nil, nil)
            spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        guard fd >= 0 else { return false }
        _ = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        Glibc.close(fd)
        return true
    }

    /// Makes `directory` (and its parent) if missing, mode 0700, and checks that it is this
    /// user's and closed to others: a control socket's folder. The corresponding C
    /// functions are `mkdir` and `stat`.
    public static func preparePrivateDirectory(_ directory: String) throws(SystemError) {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw SystemError(operation: "mkdir \(directory)", code: errno)
        }
        var info = stat()
        guard lstat(directory, &info) == 0 else { throw SystemError(operation: "stat \(directory)", code: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else {
            throw SystemError(operation: directory, code: EPERM, reason: "not a folder of this user's")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw SystemError(operation: directory, code: EPERM,
                              reason: "open to other users (mode \(String(info.st_mode & 0o777, radix: 8))); make it private: chmod 700 \(directory)")
        }
    }
}

/// One end of a local stream connection: non-blocking on the server side (`accept`),
/// blocking with a timeout on the client side (`init(connectingTo:)`).
///
/// Thread: one thread at a time.
public final class LocalSocketConnection {
    /// The connected socket, for `poll`; owned by the connection (closed by `close()` or when
    /// it is freed).
    public let descriptor: Int32
    private var isClosed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Connects to the socket at `path`; reads and writes block at most `timeoutSeconds`.
    /// The corresponding C functions are `socket`, `setsockopt` and `connect`.
    public init(connectingTo path: String, timeoutSeconds: Double) throws(SystemError) {
        var address = try LocalSocketAddress(path)
        let fd = try checkedCall("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        do {
            try checkedCall("connect \(path)") { address.withSockaddr { connect(fd, $0, $1) } }
        } catch {
            Glibc.close(fd)
            throw error
        }
        descriptor = fd
    }

    deinit { close() }

    /// Closes the connection (the peer reads end-of-file); a second call does nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    /// Reads what is there (up to `maximum` bytes): an empty array means the other end
    /// closed; nil means nothing to read now (non-blocking) or the timeout passed.
    /// The corresponding C function is `recv`.
    public func receive(maximum: Int = 65536) throws(SystemError) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
            if n >= 0 { return Array(buffer.prefix(n)) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return nil }
            if code == ECONNRESET { return [] }
            throw SystemError(operation: "recv", code: code)
        }
    }

    /// Sends as much of `bytes` as the socket takes now; returns how many (never raises
    /// SIGPIPE). The corresponding C function is `send`.
    public func send(_ bytes: ArraySlice<UInt8>) throws(SystemError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n >= 0 { return n }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return 0 }
            throw SystemError(operation: "send", code: code)
        }
    }

    /// Sends all of `bytes` (blocking sockets: the client side).
    public func sendAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = try send(bytes[offset...])
            if n == 0 { throw SystemError(operation: "send", code: ETIMEDOUT) }
            offset += n
        }
    }
}

/// Waiting on several descriptors at once.
public enum DescriptorPoll {
    /// What one descriptor is ready for (`POLLIN`, `POLLOUT`, `POLLHUP`/`POLLERR`/`POLLNVAL`);
    /// all false when the wait timed out.
    public struct Readiness: Sendable, Equatable {
        /// A read would not block (data, or a connection to accept).
        public var readable: Bool
        /// A write would not block.
        public var writable: Bool
        /// Hung up or failed.
        public var closed: Bool
    }

    /// Waits up to `timeoutMilliseconds` until one of `descriptors` is readable or writable,
    /// each watched only for what is asked (one watched for neither still reports a hang-up
    /// or an error); their readiness, in order. The corresponding C function is `poll`.
    public static func wait(_ descriptors: [(descriptor: Int32, readable: Bool, writable: Bool)],
                            timeoutMilliseconds: Int32) -> [Readiness] {
        var fds = descriptors.map {
            pollfd(fd: $0.descriptor, events: ($0.readable ? Int16(POLLIN) : 0) | ($0.writable ? Int16(POLLOUT) : 0), revents: 0)
        }
        let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
        return fds.map { pfd in
            let r = n > 0 ? pfd.revents : 0
            return Readiness(readable: r & Int16(POLLIN) != 0, writable: r & Int16(POLLOUT) != 0,
                             closed: r & (Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0)
        }
    }
}

/// A `sockaddr_un` for a path (at most 107 bytes).
struct LocalSocketAddress {
    var storage = sockaddr_un()

    init(_ path: String) throws(SystemError) {
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SystemError(operation: path, code: ENAMETOOLONG, reason: "a socket path must be 1–\(capacity - 1) bytes long")
        }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    mutating func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
