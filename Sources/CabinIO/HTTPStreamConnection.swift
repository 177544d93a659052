import CabinAudio
import CCabinCurl
import Glibc

/// One HTTP or HTTPS GET read as an endless stream with libcurl's multi interface, pumped by
/// the one thread that owns it (a network radio station's thread).
///
/// Redirects are followed up to `maxRedirects`; `Icy-Metadata: 1` is sent, so a SHOUTcast or
/// Icecast server interleaves its metadata (read `icy-metaint` from `headers`); libcurl
/// accepts an `ICY 200 OK` status line as HTTP/1.0. HTTP errors (4xx, 5xx) end the transfer.
/// A stall — less than 1 byte/s for `stallSeconds` — ends it too (libcurl's low-speed limit).
///
/// HTTPS: the server's certificate is always verified (there is no switch to turn that off),
/// against the system's certificates and, when given, `certificateBundle` — by default the
/// file `CURL_CA_BUNDLE` names (else `SSL_CERT_FILE`), as for the curl command: how a user
/// trusts a station with a self-signed or private certificate. Debian's libcurl keeps the
/// system's certificate folder (`/etc/ssl/certs`) beside that file, so public stations still
/// verify.
///
/// ```swift
/// let connection = try HTTPStreamConnection(url: "http://127.0.0.1:8000/radio.opus")
/// while true {
///     let step = connection.pump(timeoutMilliseconds: 10)
///     consume(step.bytes)
///     if let end = step.ending { print(end); break }
/// }
/// ```
///
/// libcurl is opened (dlopen) by the first connection. The corresponding C functions are
/// `curl_easy_init`, `curl_easy_setopt`, `curl_multi_perform`, `curl_multi_poll` and
/// `curl_multi_info_read`.
///
/// Thread: one thread at a time (never the render thread: it allocates and does I/O).
public final class HTTPStreamConnection {
    /// How a transfer ended.
    public struct Ending: Sendable, Equatable, CustomStringConvertible {
        /// libcurl's result code (0: the server closed the stream normally).
        public var code: Int
        /// The HTTP status of the last response (0 when none arrived).
        public var status: Int
        /// One line: what went wrong, from libcurl's error buffer.
        public var message: String
        /// The server closed a stream it had started (not an error of the request itself).
        public var isClosedByServer: Bool { code == 0 }
        public var isHTTPError: Bool { code == Int(CURLE_HTTP_RETURNED_ERROR.rawValue) }
        public var isStall: Bool { code == Int(CURLE_OPERATION_TIMEDOUT.rawValue) }
        public var isRedirectLoop: Bool { code == Int(CURLE_TOO_MANY_REDIRECTS.rawValue) }
        public var isTLSFailure: Bool {
            [CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE]
                .contains { Int($0.rawValue) == code }
        }
        /// The server's certificate did not verify (self-signed, unknown issuer, wrong name, expired).
        public var isCertificateRejected: Bool { code == Int(CURLE_PEER_FAILED_VERIFICATION.rawValue) }
        public var description: String { message }
    }

    /// What one `pump` brought.
    public struct Step {
        /// Body bytes received (ICY metadata still interleaved).
        public var bytes: [UInt8]
        /// Set once, when the transfer has ended.
        public var ending: Ending?
    }

    private let multi: UnsafeMutableRawPointer
    private let easy: UnsafeMutableRawPointer
    private var requestHeaders: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var received: [UInt8] = []
    private var headerLines: [String] = []
    private var finished = false

    /// The header lines of the last response (after redirects), without line ends; the first
    /// is its status line (`HTTP/1.1 200 OK`, `ICY 200 OK`).
    public var headers: [String] { headerLines }

    /// The value of header `name` in the last response (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        let key = name.lowercased() + ":"
        for line in headerLines.dropFirst() where line.lowercased().hasPrefix(key) {
            return line.dropFirst(key.count).trimmingWhitespace()
        }
        return nil
    }

    /// The HTTP status code of the last response (0 before one arrived).
    public var status: Int { cabin_curl_info_long(easy, CURLINFO_RESPONSE_CODE) }

    /// The certificate file the environment names for HTTPS: `CURL_CA_BUNDLE`, else
    /// `SSL_CERT_FILE` (the variables the curl command reads); nil when neither is set.
    public static var environmentCertificateBundle: String? {
        for name in ["CURL_CA_BUNDLE", "SSL_CERT_FILE"] {
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
        }
        return nil
    }

    /// Starts the request (nothing is sent until the first `pump`).
    public init(url: String, userAgent: String = "Cabin", maxRedirects: Int = 5, stallSeconds: Int = 4,
                connectTimeoutSeconds: Int = 8,
                certificateBundle: String? = HTTPStreamConnection.environmentCertificateBundle) throws(SystemError) {
        if let reason = cabin_curl_load() {
            throw SystemError(operation: "libcurl", code: 0, reason: String(cString: reason))
        }
        guard let multi = cabin_curl_multi_init(), let easy = cabin_curl_easy_init() else {
            throw SystemError(operation: "curl_easy_init", code: 0, reason: "libcurl could not start a transfer")
        }
        self.multi = multi
        self.easy = easy
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        requestHeaders = cabin_curl_slist_append(nil, "Icy-Metadata: 1")
        let me = Unmanaged.passUnretained(self).toOpaque()
        var code = cabin_curl_set_pointer(easy, CURLOPT_URL, url)
        for (option, value) in [(CURLOPT_FOLLOWLOCATION, 1), (CURLOPT_MAXREDIRS, maxRedirects), (CURLOPT_FAILONERROR, 1),
                                (CURLOPT_NOSIGNAL, 1), (CURLOPT_LOW_SPEED_LIMIT, 1), (CURLOPT_LOW_SPEED_TIME, stallSeconds),
                                (CURLOPT_CONNECTTIMEOUT, connectTimeoutSeconds), (CURLOPT_TCP_KEEPALIVE, 1)] where code == CURLE_OK {
            code = cabin_curl_set_long(easy, option, value)
        }
        if code == CURLE_OK { code = cabin_curl_set_pointer(easy, CURLOPT_PROTOCOLS_STR, "http,https") }
        if code == CURLE_OK { code = cabin_curl_set_pointer(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") }
        if code == CURLE_OK { code = cabin_curl_set_pointer(easy, CURLOPT_USERAGENT, userAgent) }
        if code == CURLE_OK, let certificateBundle { code = cabin_curl_set_pointer(easy, CURLOPT_CAINFO, certificateBundle) }
        if code == CURLE_OK { code = cabin_curl_set_pointer(easy, CURLOPT_HTTPHEADER, UnsafeRawPointer(requestHeaders)) }
        if code == CURLE_OK { code = cabin_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeRawPointer(errorBuffer)) }
        if code == CURLE_OK { code = cabin_curl_set_write(easy, { data, size, count, user in
            let me = Unmanaged<HTTPStreamConnection>.fromOpaque(user!).takeUnretainedValue()
            me.received.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }, me) }
        if code == CURLE_OK { code = cabin_curl_set_header(easy, { data, size, count, user in
            let me = Unmanaged<HTTPStreamConnection>.fromOpaque(user!).takeUnretainedValue()
            var bytes = UnsafeRawBufferPointer(start: data, count: size * count)[...]
            while let last = bytes.last, last == 10 || last == 13 { bytes = bytes.dropLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            if line.hasPrefix("HTTP/") || line.hasPrefix("ICY ") { me.headerLines = [line] } else if !line.isEmpty {
                me.headerLines.append(line)
            }
            return size * count
        }, me) }
        if code != CURLE_OK {
            let reason = String(cString: cabin_curl_easy_strerror(code))
            close()
            throw SystemError(operation: "curl_easy_setopt", code: 0, reason: reason)
        }
        cabin_curl_multi_add_handle(multi, easy)
    }

    deinit { close() }

    private var closed = false

    /// Ends the transfer and frees libcurl's handles (also done by deinit).
    public func close() {
        guard !closed else { return }
        closed = true
        cabin_curl_multi_remove_handle(multi, easy)
        cabin_curl_easy_cleanup(easy)
        cabin_curl_multi_cleanup(multi)
        cabin_curl_slist_free_all(requestHeaders)
        errorBuffer.deallocate()
    }

    /// Moves the transfer on, waiting up to `timeoutMilliseconds` for the network, and returns
    /// the body bytes that arrived and, once, how the transfer ended.
    public func pump(timeoutMilliseconds: Int32) -> Step {
        guard !finished, !closed else { return Step(bytes: [], ending: nil) }
        var running: Int32 = 0
        cabin_curl_multi_perform(multi, &running)
        if running > 0 && received.isEmpty {
            cabin_curl_multi_poll(multi, nil, 0, Int32(timeoutMilliseconds), nil)
            cabin_curl_multi_perform(multi, &running)
        }
        var ending: Ending?
        var queued: Int32 = 0
        while let message = cabin_curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE else { continue }
            let result = message.pointee.data.result
            let detail = String(cString: errorBuffer)
            let text = detail.isEmpty ? String(cString: cabin_curl_easy_strerror(result)) : detail
            ending = Ending(code: Int(result.rawValue), status: status,
                            message: result == CURLE_OK ? "the server closed the stream" : text)
            finished = true
        }
        let bytes = received
        received.removeAll(keepingCapacity: true)
        return Step(bytes: bytes, ending: ending)
    }
}
