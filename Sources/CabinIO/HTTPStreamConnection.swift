import CabinAudio
import CCabinCurl
import Glibc

/// One HTTP or HTTPS GET read as an endless stream with libcurl's multi interface, pumped by
/// the one thread that owns it (a network radio station's thread).
///
/// Redirects are followed up to `maxRedirects`; `Icy-Metadata: 1` is sent, so a SHOUTcast or
/// Icecast server interleaves its metadata (read `icy-metaint` from `headers`). A SHOUTcast v1
/// server's `ICY 200 OK` status line is read as HTTP/1.0's 200 (`CURLOPT_HTTP200ALIASES`;
/// without it libcurl takes the reply for HTTP/0.9 and refuses it). HTTP errors (4xx, 5xx)
/// end the transfer. A stall — less than 1 byte/s for `stallSeconds` — ends it too
/// (libcurl's low-speed limit; not counted while paused). Response headers are capped at
/// `maximumHeaderBytes` (libcurl caps one line at 100 KB): beyond, the transfer ends with
/// `Ending.isHeaderTooLarge`.
///
/// `isPaused` stops reading (`curl_easy_pause`): the socket's buffers fill and TCP slows the
/// server, which is how a reader that has enough lets a faster-than-real-time server wait.
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
        /// The server answered with an HTTP error status (400 or above: `status` says which).
        public var isHTTPError: Bool { code == Int(CURLE_HTTP_RETURNED_ERROR.rawValue) }
        /// The stream stalled: under 1 byte/s for the `stallSeconds` the connection was made
        /// with (or connecting took longer than its `connectTimeoutSeconds`).
        public var isStall: Bool { code == Int(CURLE_OPERATION_TIMEDOUT.rawValue) }
        /// The redirects went past the `maxRedirects` the connection was made with.
        public var isRedirectLoop: Bool { code == Int(CURLE_TOO_MANY_REDIRECTS.rawValue) }
        /// The TLS handshake failed or the server's certificate was refused (see also
        /// `isCertificateRejected`).
        public var isTLSFailure: Bool {
            [CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE]
                .contains { Int($0.rawValue) == code }
        }
        /// The server's certificate did not verify (self-signed, unknown issuer, wrong name, expired).
        public var isCertificateRejected: Bool { code == Int(CURLE_PEER_FAILED_VERIFICATION.rawValue) }
        /// The response's headers passed `maximumHeaderBytes` (or one line libcurl's 100 KB).
        public var isHeaderTooLarge = false
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
    private var statusAliases: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var received: [UInt8] = []
    private var headerLines: [String] = []
    private var headerBytes = 0
    private var headerOverflow = false
    private var finished = false
    /// Paused by the reader (`isPaused`), and by the write callback once a pump has
    /// `maximumPumpBytes` (libcurl reads up to 100 × 16 KB a call; unpaused at the next pump).
    private var paused = false
    private var pumpFull = false
    private var curlPaused = false

    /// The most body bytes one `pump` returns (give or take libcurl's 16 KB buffer), so a
    /// fast server cannot hand the reader megabytes to decode at once.
    public static let maximumPumpBytes = 64 * 1024

    /// The most bytes of response headers taken (each response of a redirect counts anew).
    public static let maximumHeaderBytes = 64 * 1024

    /// Body bytes received in all.
    public private(set) var bodyBytes = 0

    /// Whether reading is paused: nothing arrives until it is false again, and the server
    /// waits on TCP's flow control (libcurl's stall detector does not count the pause).
    public var isPaused: Bool {
        get { paused }
        set {
            paused = newValue
            applyPause()
        }
    }

    private func applyPause() {
        let pause = paused || pumpFull
        guard pause != curlPaused, !closed, !finished else { return }
        curlPaused = pause
        cabin_curl_easy_pause(easy, pause ? CURLPAUSE_RECV : CURLPAUSE_CONT)
    }

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
        statusAliases = cabin_curl_slist_append(nil, "ICY 200 OK")
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
        if code == CURLE_OK { code = cabin_curl_set_pointer(easy, CURLOPT_HTTP200ALIASES, UnsafeRawPointer(statusAliases)) }
        if code == CURLE_OK { code = cabin_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, UnsafeRawPointer(errorBuffer)) }
        if code == CURLE_OK { code = cabin_curl_set_write(easy, { data, size, count, user in
            let me = Unmanaged<HTTPStreamConnection>.fromOpaque(user!).takeUnretainedValue()
            if me.received.count >= HTTPStreamConnection.maximumPumpBytes {
                // libcurl keeps these bytes and pauses; the next pump resumes (applyPause).
                me.pumpFull = true
                me.curlPaused = true
                return Int(CURL_WRITEFUNC_PAUSE)
            }
            me.received.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
            me.bodyBytes += size * count
            return size * count
        }, me) }
        if code == CURLE_OK { code = cabin_curl_set_header(easy, { data, size, count, user in
            let me = Unmanaged<HTTPStreamConnection>.fromOpaque(user!).takeUnretainedValue()
            var bytes = UnsafeRawBufferPointer(start: data, count: size * count)[...]
            while let last = bytes.last, last == 10 || last == 13 { bytes = bytes.dropLast() }
            let line = String(decoding: bytes, as: UTF8.self)
            if line.hasPrefix("HTTP/") || line.hasPrefix("ICY ") {
                me.headerLines = [line]
                me.headerBytes = 0
            } else if !line.isEmpty {
                me.headerLines.append(line)
            }
            me.headerBytes += size * count
            // Returning less than given ends the transfer (CURLE_WRITE_ERROR).
            if me.headerBytes > HTTPStreamConnection.maximumHeaderBytes { me.headerOverflow = true; return 0 }
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
        cabin_curl_slist_free_all(statusAliases)
        errorBuffer.deallocate()
    }

    /// Moves the transfer on, waiting up to `timeoutMilliseconds` for the network, and returns
    /// the body bytes that arrived and, once, how the transfer ended.
    public func pump(timeoutMilliseconds: Int32) -> Step {
        guard !finished, !closed else { return Step(bytes: [], ending: nil) }
        pumpFull = false
        applyPause()
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
            // libcurl 7.x says "Out of memory" for a header line over its 100 KB.
            let tooLarge = headerOverflow || (result == CURLE_OUT_OF_MEMORY && bodyBytes == 0)
            ending = Ending(code: Int(result.rawValue), status: status,
                            message: result == CURLE_OK ? "the server closed the stream"
                                : tooLarge ? "the server's response header is larger than 64 KB: not a radio station" : text,
                            isHeaderTooLarge: tooLarge)
            finished = true
        }
        let bytes = received
        received.removeAll(keepingCapacity: true)
        return Step(bytes: bytes, ending: ending)
    }
}
