import Foundation
import Glibc

/// A small HTTP server on 127.0.0.1 for the cases a radio player must survive: it answers
/// every connection (each on its own thread, so a client that reconnects is answered while
/// an earlier connection is still held) with one scripted reply: raw bytes, then closing or
/// holding the connection open without sending more; or a stream, sent as fast as the
/// client reads or paced to a byte rate. Runs until `stop`, at most `lifetime` seconds.
public final class HostileHTTPServer: @unchecked Sendable {
    public enum Reply: Sendable {
        /// These bytes (status line, headers, body), then close.
        case bytes([UInt8])
        /// These bytes, then keep the connection open and send nothing more.
        case hold([UInt8])
        /// `head` at once, then `body` once and then `tail` over and over (without end; an empty
        /// tail closes after the body), at `bytesPerSecond` (nil: as fast as the client reads,
        /// so only TCP's flow control slows the server).
        case stream(head: [UInt8], body: [UInt8], tail: [UInt8], bytesPerSecond: Double?)

        /// A response with `status`, headers and a body.
        public static func response(_ status: String, headers: [String] = [], body: [UInt8] = [], hold: Bool = false) -> Reply {
            let head = (["HTTP/1.1 \(status)"] + headers + ["Content-Length: \(body.count)", "", ""]).joined(separator: "\r\n")
            return hold ? .hold(Array(head.utf8) + body) : .bytes(Array(head.utf8) + body)
        }

        /// The head of a response: `status` (a whole status line, `ICY 200 OK` for SHOUTcast
        /// v1, or after `HTTP/1.1`) and `headers`, with no Content-Length.
        public static func head(_ status: String, headers: [String] = []) -> [UInt8] {
            let line = status.hasPrefix("ICY ") ? status : "HTTP/1.1 \(status)"
            return Array(([line] + headers + ["", ""]).joined(separator: "\r\n").utf8)
        }
    }

    public let port: Int
    private let listener: Int32
    private let reply: Reply
    private let deadline: Date
    private var thread: Thread?
    private let lock = NSLock()
    private var running = true
    private var connections = 0
    private var sent = 0
    private let finished = DispatchSemaphore(value: 0)
    private let clients = DispatchGroup()

    public init(reply: Reply, lifetime: Double = 60) throws {
        self.reply = reply
        deadline = Date().addingTimeInterval(lifetime)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    public func url(_ path: String = "stream") -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Connections accepted so far.
    public var connectionCount: Int { lock.lock(); defer { lock.unlock() }; return connections }
    /// Bytes sent so far, on all connections (what TCP let through).
    public var bytesSent: Int { lock.lock(); defer { lock.unlock() }; return sent }

    /// Stops serving: waits for the accepting thread and every connection's (each closes its
    /// own socket), then closes the listener — so no thread touches a descriptor number the
    /// process has reused.
    public func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        guard wasRunning else { return }
        finished.wait()
        clients.wait()
        close(listener)
    }

    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running && Date() < deadline }

    private func serve() {
        defer { finished.signal() }
        while isRunning {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            lock.lock(); connections += 1; lock.unlock()
            clients.enter()
            Thread { [self] in
                answer(client)
                close(client)
                clients.leave()
            }.start()
        }
    }

    private func answer(_ client: Int32) {
        // Read the request head (up to a blank line or 100 ms).
        var buffer = [UInt8](repeating: 0, count: 4096)
        var request: [UInt8] = []
        var p = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        while poll(&p, 1, 100) > 0 {
            let n = read(client, &buffer, buffer.count)
            if n <= 0 { break }
            request += buffer[0..<n]
            if request.count >= 4 && Array(request.suffix(4)) == [13, 10, 13, 10] { break }
        }
        switch reply {
        case .bytes(let bytes):
            _ = send(bytes[...], to: client)
        case .hold(let bytes):
            guard send(bytes[...], to: client) else { return }
            // Until stopped, or until the client hangs up.
            while isRunning {
                var h = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
                if poll(&h, 1, 100) > 0, read(client, &buffer, buffer.count) <= 0 { return }
            }
        case .stream(let head, let body, let tail, let rate):
            guard send(head[...], to: client) else { return }
            let start = Date()
            var offset = 0  // into body, then body.count + (into tail, cycling)
            while isRunning {
                if offset >= body.count && tail.isEmpty { return }
                var count = 65_536
                if let rate {
                    count = min(count, Int(rate * Date().timeIntervalSince(start)) - offset)
                    if count <= 0 { usleep(10_000); continue }
                }
                let chunk = offset < body.count
                    ? body[offset..<min(body.count, offset + count)]
                    : tail[((offset - body.count) % tail.count)..<min(tail.count, (offset - body.count) % tail.count + count)]
                guard send(chunk, to: client) else { return }
                offset += chunk.count
            }
        }
    }

    /// Sends all of `bytes`, waiting while the client's window is full (100 ms at a time, so
    /// `stop` is never held up); false when the client is gone or the server stopped.
    private func send(_ bytes: ArraySlice<UInt8>, to client: Int32) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            guard isRunning else { return false }
            var p = pollfd(fd: client, events: Int16(POLLOUT), revents: 0)
            guard poll(&p, 1, 100) > 0 else { continue }
            let n = rest.withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard n > 0 else { return false }
            lock.lock(); sent += n; lock.unlock()
            rest = rest.dropFirst(n)
        }
        return true
    }
}
