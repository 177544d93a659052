import Foundation
import Glibc

/// A small HTTP server on 127.0.0.1 for the cases a radio player must survive: it answers
/// every connection with one scripted reply (raw bytes, then either closing or holding the
/// connection open without sending more). Runs until `stop`, at most `lifetime` seconds.
public final class HostileHTTPServer: @unchecked Sendable {
    public enum Reply: Sendable {
        /// These bytes (status line, headers, body), then close.
        case bytes([UInt8])
        /// These bytes, then keep the connection open and send nothing more.
        case hold([UInt8])

        /// A response with `status`, headers and a body.
        public static func response(_ status: String, headers: [String] = [], body: [UInt8] = [], hold: Bool = false) -> Reply {
            let head = (["HTTP/1.1 \(status)"] + headers + ["Content-Length: \(body.count)", "", ""]).joined(separator: "\r\n")
            return hold ? .hold(Array(head.utf8) + body) : .bytes(Array(head.utf8) + body)
        }
    }

    public let port: Int
    private let listener: Int32
    private let reply: Reply
    private var thread: Thread?
    private let lock = NSLock()
    private var running = true
    private var held: [Int32] = []
    private let finished = DispatchSemaphore(value: 0)

    public init(reply: Reply, lifetime: Double = 60) throws {
        self.reply = reply
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
        let deadline = Date().addingTimeInterval(lifetime)
        let thread = Thread { [self] in serve(until: deadline) }
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    public func url(_ path: String = "stream") -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Stops serving: waits for the serving thread, then closes every socket (in that order,
    /// so the thread never touches a descriptor number the process has reused).
    public func stop() {
        lock.lock()
        let wasRunning = running
        running = false
        lock.unlock()
        guard wasRunning else { return }
        finished.wait()
        lock.lock()
        for fd in held { close(fd) }
        held = []
        lock.unlock()
        close(listener)
    }

    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }

    private func serve(until deadline: Date) {
        defer { finished.signal() }
        while isRunning && Date() < deadline {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
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
                bytes.withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            case .hold(let bytes):
                bytes.withUnsafeBytes { _ = send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                lock.lock(); held.append(client); lock.unlock()
            }
        }
    }
}
