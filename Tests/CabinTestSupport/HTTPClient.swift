import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// HTTP for tests (URLSession): a whole response, or a stream read as it comes (a server's
/// server-sent events).
public enum HTTPClient {
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
        /// A header by name, in any case.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// `method` `url` with a JSON body (or none); the response, redirects not followed.
    public static func request(_ url: String, method: String = "GET", json: Any? = nil, timeout: Double = 30) throws -> Response {
        guard let address = URL(string: url) else { throw Failure(description: "not an address: \(url)") }
        var request = URLRequest(url: address, timeoutInterval: timeout)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let result = Mutex<Result<Response, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            if let error { result.withLock { $0 = .failure(error) } } else {
                let http = response as? HTTPURLResponse
                var headers: [String: String] = [:]
                for (k, v) in http?.allHeaderFields ?? [:] { headers["\(k)"] = "\(v)" }
                result.withLock { $0 = .success(Response(status: http?.statusCode ?? 0, headers: headers, body: data ?? Data())) }
            }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + timeout + 1) == .success, let outcome = result.withLock({ $0 }) else {
            throw Failure(description: "\(method) \(url): no answer in \(timeout) s")
        }
        return try outcome.get()
    }

    /// A response body read as it arrives, until `close`.
    public final class Stream: @unchecked Sendable {
        private let received = RunningTool.Gathered()
        private let session: URLSession
        private let task: URLSessionDataTask

        public init(_ url: String) throws {
            guard let address = URL(string: url) else { throw Failure(description: "not an address: \(url)") }
            let collector = Collector()
            session = URLSession(configuration: .ephemeral, delegate: collector, delegateQueue: nil)
            task = session.dataTask(with: URLRequest(url: address, timeoutInterval: 60))
            collector.append = { [received] data in received.data.withLock { $0.append(data) } }
            task.resume()
        }

        public var text: String { received.text }

        /// Waits (at most `timeout` s) until `condition` holds for what arrived; whether it did.
        @discardableResult
        public func wait(timeout: Double = 10, until condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition(text) { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return condition(text)
        }

        public func close() {
            task.cancel()
            session.invalidateAndCancel()
        }

        deinit { close() }
    }

    final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        var append: (@Sendable (Data) -> Void)?
        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) { append?(data) }
    }

    final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            completionHandler(nil)
        }
    }

    /// `method` `url` (http://127.0.0.1:PORT/…) over a plain socket, HTTP/1.1 with
    /// `Connection: close`, read to the end. For chromedriver: its header lines have no space
    /// after the colon (`Content-Length:252`), which swift-corelibs-foundation's URLSession
    /// refuses ("Failed writing header").
    public static func plainRequest(_ url: String, method: String = "GET", json: Any? = nil, timeout: Double = 30) throws -> Response {
        guard let address = URL(string: url), let host = address.host, let port = address.port else {
            throw Failure(description: "not an address: \(url)")
        }
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var seconds = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var peer = sockaddr_in()
        peer.sin_family = sa_family_t(AF_INET)
        peer.sin_addr.s_addr = inet_addr(host)
        peer.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "\(method) \(url): cannot connect (errno \(errno))") }
        let path = address.path.isEmpty ? "/" : address.path
        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n".utf8)
        if json != nil { request += Data("Content-Type: application/json\r\n".utf8) }
        request += Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == request.count else { throw Failure(description: "\(method) \(url): short send") }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        // To the end of the body its Content-Length gives (chromedriver keeps the
        // connection open whatever `Connection: close` says), else to the close.
        func complete() -> Bool {
            guard let split = received.range(of: Data("\r\n\r\n".utf8)) else { return false }
            let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).lowercased()
            guard let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                  let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return false }
            return received.distance(from: split.upperBound, to: received.endIndex) >= length
        }
        while !complete() {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received.append(contentsOf: chunk[0..<n])
        }
        guard let split = received.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "\(method) \(url): no answer")
        }
        let head = String(decoding: received[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var content = Data(received[split.upperBound...])
        if headers.first(where: { $0.key.lowercased() == "transfer-encoding" })?.value.lowercased() == "chunked" {
            content = dechunked(content)
        }
        return Response(status: status, headers: headers, body: content)
    }

    static func dechunked(_ data: Data) -> Data {
        var out = Data(), rest = data[...]
        while let end = rest.range(of: Data("\r\n".utf8)) {
            let size = Int(String(decoding: rest[..<end.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            guard size > 0, rest.distance(from: end.upperBound, to: rest.endIndex) >= size else { break }
            let start = end.upperBound, stop = rest.index(start, offsetBy: size)
            out.append(contentsOf: rest[start..<stop])
            rest = rest[stop...].dropFirst(2)
        }
        return out
    }
}
