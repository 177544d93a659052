import CabinIO
import CabinJSON
import CabinPlayback
import Glibc

/// The control socket of a playing session, in mpv's style: a Unix socket (mode 0600)
/// speaking newline-delimited JSON. A request `{"command": ["pause"], "request_id": 7}` gets
/// the reply `{"request_id": 7, "error": "success", "data": …}` (`error` is the one-line
/// reason otherwise); `["observe"]` makes the connection also receive every event, one
/// JSON object a line, as `eventLine` writes it (`cabin play` gives `PlayerEvent.jsonLine`,
/// the lines its `--json` prints). The commands are `ControlCommands`'.
///
/// It never blocks the player or the control loop, and no client can starve it or the
/// others: it runs on the control thread from the caller's loop (`serve` waits at most its
/// timeout), every socket is non-blocking, and
/// - clients take turns: each gets at most `requestsPerTurn` requests answered in a tick of
///   `tickMilliseconds`, the rest wait in its socket for the next tick, so one pipelining
///   client can neither take the processor nor make others wait more than a tick;
/// - a client's requests are read only while its replies are being taken: one that sends
///   and never reads fills its own socket and then costs nothing; replies and events queue
///   per client, and one with `maximumQueuedBytes` unread (an observer that stopped
///   reading) is dropped;
/// - at most `maximumClients` at once (fewer under a low open-file limit, keeping a share
///   of it for the rest of the program): a client past that gets one error line and is
///   closed;
/// - at the open-file limit (EMFILE, ENFILE) it stops watching for new clients for
///   `acceptPauseMilliseconds` at a time, refusing the waiting ones with a line through a
///   descriptor held in reserve, and says so once (`takeNotices`).
///
/// A malformed line gets an error reply and the connection stays usable.
///
/// ```swift
/// let server = try ControlServer(path: ControlServer.defaultPath()!, player: player, title: "Drive") { event in
///     event.jsonLine(title: "Drive")   // the lines `cabin play --json` prints
/// }
/// while !player.isFinished {
///     server.publish(player.poll())
///     server.serve(timeoutMilliseconds: 50)
/// }
/// server.close()
/// ```
///
/// Thread: control thread (the thread that calls the player's methods).
public final class ControlServer {
    /// The socket file it listens on.
    public let path: String
    /// The player the commands act on.
    public let player: LivePlayer
    /// The session's title, for `status` and the `start` event.
    public let title: String
    /// A client that has not read this much of its replies and events is disconnected.
    public static let maximumQueuedBytes = 256 * 1024
    /// A request line longer than this is answered with an error and skipped.
    public static let maximumLineBytes = 64 * 1024
    /// The most clients at once, whatever the open-file limit.
    public static let maximumClients = 256
    /// Requests answered per client per tick.
    public static let requestsPerTurn = 16
    /// The length of a tick, the unit of the clients' turns.
    public static let tickMilliseconds = 50
    /// How long the listener is left alone after `accept` fails for want of descriptors.
    public static let acceptPauseMilliseconds = 100
    /// The clients this server takes: `maximumClients`, or fewer so that a quarter of the
    /// open-file limit (at least 16 descriptors) stays free for the rest of the program.
    public let clientLimit: Int
    /// One JSON object (one line) for an event, for `observe`.
    public let eventLine: (PlayerEvent) -> String
    /// Set by the `quit` command (`stop` ends the session the same way without it).
    public private(set) var quitRequested = false
    private let listener: LocalSocketListener
    private var clients: [Client] = []
    private let fileLimit: Int
    /// Where the current tick began (monotonic seconds).
    private var tickStart = -Double.infinity
    /// The listener is not watched before this (monotonic seconds): descriptors ran out.
    private var acceptPausedUntil = -Double.infinity
    private var notices: [String] = []
    private var saidOutOfDescriptors = false, saidFull = false

    /// Listens on `path` (see `LocalSocketListener`: socket mode 0600; a stale socket is
    /// replaced, a live one is an error).
    public init(path: String, player: LivePlayer, title: String,
                eventLine: @escaping (PlayerEvent) -> String) throws(SystemError) {
        listener = try LocalSocketListener(path: path)
        self.path = path
        self.player = player
        self.title = title
        self.eventLine = eventLine
        fileLimit = DescriptorLimit.openFileLimit
        let free = fileLimit == Int.max ? Int.max : fileLimit - DescriptorLimit.openCount
        clientLimit = max(1, min(ControlServer.maximumClients, free - max(16, fileLimit / 4)))
    }

    deinit { close() }

    /// `$XDG_RUNTIME_DIR/cabin/control`, its folder made (mode 0700) if missing; nil when
    /// `XDG_RUNTIME_DIR` is not set. Throws when the folder cannot be made or is open to
    /// other users.
    public static func defaultPath() throws(SystemError) -> String? {
        guard let runtime = ThisProcess.environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        try LocalSocketListener.preparePrivateDirectory(runtime + "/cabin")
        return runtime + "/cabin/control"
    }

    /// Where the default socket is, without making anything (for the client).
    public static var defaultPathIfSet: String? {
        guard let runtime = ThisProcess.environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        return runtime + "/cabin/control"
    }

    /// Clients connected now.
    public var clientCount: Int { clients.count }

    /// Closes every connection and removes the socket file.
    public func close() {
        for client in clients { client.connection.close() }
        clients.removeAll()
        listener.close()
    }

    /// What the server has to say to the person running it (each thing once): clients
    /// refused at the limit, descriptors run out.
    public func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }

    /// Waits up to `timeoutMilliseconds` for a connection, a request, room to send, or
    /// `extraDescriptor` (e.g. the terminal's keys) to be readable; then accepts, answers
    /// (each client its turn) and sends what it can without blocking. Returns whether
    /// `extraDescriptor` is readable.
    @discardableResult
    public func serve(timeoutMilliseconds: Int32, extraDescriptor: Int32? = nil) -> Bool {
        serve(timeoutMilliseconds: timeoutMilliseconds, extraDescriptors: extraDescriptor.map { [$0] } ?? []).first ?? false
    }

    /// As `serve(timeoutMilliseconds:extraDescriptor:)`, waiting on several descriptors
    /// besides the clients (the terminal's keys, a surface's `wakeDescriptor`, the
    /// session's end); returns whether each is readable, in their order.
    @discardableResult
    public func serve(timeoutMilliseconds: Int32, extraDescriptors: [Int32]) -> [Bool] {
        var now = MonotonicClock.seconds()
        let tick = Double(ControlServer.tickMilliseconds) / 1000
        if now - tickStart >= tick {
            tickStart = now
            for client in clients { client.answered = 0 }
        }
        // Requests already read wait for their client's turn: answered now when it has one left.
        answerWaiting()
        var timeout = timeoutMilliseconds
        // A client whose turn is used up is not read until the next tick.
        if clients.contains(where: { !$0.hasTurnLeft }) { timeout = min(timeout, ControlServer.milliseconds(until: tickStart + tick, from: now)) }
        let watchesListener = now >= acceptPausedUntil
        if !watchesListener { timeout = min(timeout, ControlServer.milliseconds(until: acceptPausedUntil, from: now)) }
        var watched: [(descriptor: Int32, readable: Bool, writable: Bool)] = [(listener.descriptor, watchesListener, false)]
        // A client that hung up is watched only while its replies go out (a hang-up is
        // reported to every poll, whatever is asked).
        watched += clients.map { ($0.hasHungUp && !$0.hasOutbound ? -1 : $0.connection.descriptor, $0.wantsToRead, $0.hasOutbound) }
        watched += extraDescriptors.map { ($0, true, false) }
        let ready = DescriptorPoll.wait(watched, timeoutMilliseconds: max(0, timeout))
        now = MonotonicClock.seconds()
        let extras = ready.suffix(extraDescriptors.count).map(\.readable)
        for (client, readiness) in zip(clients, ready.dropFirst()) {
            if readiness.writable { flush(client) }
            if readiness.readable || readiness.closed { read(client) }
        }
        if watchesListener && ready[0].readable { acceptWaiting(now: now) }
        answerWaiting()
        for client in clients where client.hasOutbound { flush(client) }
        clients.removeAll { client in
            if client.isFinished { client.connection.close() }
            return client.isFinished
        }
        return extras
    }

    /// Sends `events` to the clients that observe.
    public func publish(_ events: [PlayerEvent]) {
        guard !events.isEmpty else { return }
        for client in clients where client.isObserving {
            for event in events { queue(eventLine(event), to: client) }
            flush(client)
        }
    }

    private static func milliseconds(until deadline: Double, from now: Double) -> Int32 {
        Int32(max(0, min(1000, ((deadline - now) * 1000).rounded(.up))))
    }

    /// Accepts the waiting connections: up to `clientLimit` clients, a refusal line for each
    /// past it; at the open-file limit, a refusal through the reserve and a pause.
    private func acceptWaiting(now: Double) {
        while true {
            if clients.count >= clientLimit {
                let limit = fileLimit == Int.max ? "" : " under its open-file limit of \(fileLimit)"
                let reason = "too many clients: this session takes \(clientLimit) at once\(limit); try again when one has gone"
                guard listener.refuseWaiting(with: ControlServer.refusal(reason)) else { return }
                if !saidFull { notices.append("control socket: \(clientLimit) clients connected, the most it takes\(limit): refusing others"); saidFull = true }
                continue
            }
            do throws(SystemError) {
                guard let connection = try listener.accept() else { return }
                clients.append(Client(connection: connection))
            } catch where error.code == EMFILE || error.code == ENFILE {
                // The listener stays readable while the connection waits: left alone for a
                // moment (no busy loop), the waiting ones told why through the reserve.
                acceptPausedUntil = now + Double(ControlServer.acceptPauseMilliseconds) / 1000
                while listener.refuseWaiting(with: ControlServer.refusal("the session has too many open files; try again later")) {}
                if !saidOutOfDescriptors {
                    notices.append("control socket: \(SystemError.describe(errno: error.code).lowercased()): refusing new clients until descriptors are free (those connected are served)")
                    saidOutOfDescriptors = true
                }
                return
            } catch {
                return
            }
        }
    }

    private static func refusal(_ reason: String) -> [UInt8] { Array((reply(id: nil, error: reason) + "\n").utf8) }

    /// Reads what one client has sent (once: its turn decides how much is answered).
    private func read(_ client: Client) {
        do {
            guard let bytes = try client.connection.receive() else { return }   // nothing more now
            if bytes.isEmpty { client.hasHungUp = true; return }                 // the client hung up (or half-closed)
            client.inbound += bytes
        } catch {
            client.isClosed = true
        }
    }

    /// Each client with a turn left answers its complete lines, in order, up to its turn.
    private func answerWaiting() {
        for client in clients where !client.isClosed { takeLines(client) }
    }

    /// Answers complete lines while the client has a turn left; an overlong one is answered
    /// once and skipped.
    private func takeLines(_ client: Client) {
        let tooLong = "request too long (more than \(ControlServer.maximumLineBytes) bytes on one line)"
        while client.hasTurnLeft && !client.isClosed, let newline = client.inbound.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Array(client.inbound[..<newline])
            client.inbound.removeSubrange(...newline)
            client.answered += 1
            if client.isSkippingLine {
                client.isSkippingLine = false
            } else if line.count > ControlServer.maximumLineBytes {
                queue(ControlServer.reply(id: nil, error: tooLong), to: client)
            } else {
                answer(line, from: client)
            }
        }
        if !client.hasWaitingLine && client.inbound.count > ControlServer.maximumLineBytes && !client.isSkippingLine {
            client.isSkippingLine = true
            queue(ControlServer.reply(id: nil, error: tooLong), to: client)
        }
        if client.isSkippingLine && !client.hasWaitingLine { client.inbound.removeAll() }
    }

    private func answer(_ line: [UInt8], from client: Client) {
        let text = line.last == UInt8(ascii: "\r") ? Array(line.dropLast()) : line
        if text.allSatisfy({ $0 == 32 || $0 == 9 }) { return }   // empty lines are ignored, as mpv does
        let request: ControlRequest
        switch ControlRequest.parse(text) {
        case .failure(let failure):
            queue(ControlServer.reply(id: failure.id, error: failure.message), to: client)
            return
        case .success(let parsed):
            request = parsed
        }
        switch request.name {
        case "observe":
            client.isObserving = true
            queue(ControlServer.reply(id: request.id, data: .null), to: client)
        case "unobserve":
            client.isObserving = false
            queue(ControlServer.reply(id: request.id, data: .null), to: client)
        default:
            let answer = ControlServer.perform(request, player: player, title: title)
            if request.name == "quit" && answer.succeeded { quitRequested = true }
            queue(answer.reply, to: client)
        }
    }

    /// The reply line to one request line (`{"command": ["volume", "music", "-12dB"]}`), as
    /// a client of the socket gets it, for a request that came another way (the studio's
    /// page): the same parsing, the same commands (`ControlCommands`), the same replies.
    /// `observe` and `unobserve` need a connection and are refused here.
    ///
    /// Thread: any thread (the command runs under the player's control lock).
    public static func answer(_ line: [UInt8], player: LivePlayer, title: String) -> (reply: String, succeeded: Bool) {
        switch ControlRequest.parse(line) {
        case .failure(let failure):
            return (reply(id: failure.id, error: failure.message), false)
        case .success(let request) where request.name == "observe" || request.name == "unobserve":
            return (reply(id: request.id, error: "\(request.name) needs the control socket: events are sent on its connection"), false)
        case .success(let request):
            return player.control.withLock { perform(request, player: player, title: title) }
        }
    }

    private static func perform(_ request: ControlRequest, player: LivePlayer, title: String) -> (reply: String, succeeded: Bool) {
        do {
            let data = try ControlCommands(player: player, title: title).perform(request.name, request.arguments)
            return (reply(id: request.id, data: data), true)
        } catch {
            return (reply(id: request.id, error: error.description), false)
        }
    }

    private func queue(_ line: String, to client: Client) {
        client.outbound += Array(line.utf8)
        client.outbound.append(UInt8(ascii: "\n"))
        if client.outbound.count - client.sent > ControlServer.maximumQueuedBytes { client.isClosed = true }
    }

    private func flush(_ client: Client) {
        while !client.isClosed && client.sent < client.outbound.count {
            guard let n = try? client.connection.send(client.outbound[client.sent...]) else { client.isClosed = true; return }
            if n == 0 { break }
            client.sent += n
        }
        if client.sent == client.outbound.count {
            client.outbound.removeAll(keepingCapacity: true)
            client.sent = 0
        }
    }

    static func reply(id: JSONValue?, data: JSONValue) -> String {
        JSONValue.object([("request_id", id ?? .null), ("error", .string("success")), ("data", data)]).serialized(pretty: false)
    }

    static func reply(id: JSONValue?, error: String) -> String {
        JSONValue.object([("request_id", id ?? .null), ("error", .string(error))]).serialized(pretty: false)
    }

    private final class Client {
        let connection: LocalSocketConnection
        var inbound: [UInt8] = []
        var outbound: [UInt8] = []
        /// Bytes of `outbound` already sent.
        var sent = 0
        /// Requests answered in this tick.
        var answered = 0
        var isObserving = false
        var isSkippingLine = false
        /// The connection failed, or the client is dropped.
        var isClosed = false
        /// The client sent its last byte (it may still read its replies).
        var hasHungUp = false
        init(connection: LocalSocketConnection) { self.connection = connection }

        var hasTurnLeft: Bool { answered < ControlServer.requestsPerTurn }
        var hasOutbound: Bool { sent < outbound.count }
        var hasWaitingLine: Bool { inbound.contains(UInt8(ascii: "\n")) }
        /// Read only with a turn left, nothing read waiting, and its replies taken (one that
        /// does not read its replies is not read either: its requests wait in its socket).
        var wantsToRead: Bool { !isClosed && !hasHungUp && hasTurnLeft && !hasOutbound && !hasWaitingLine }
        /// Gone, or hung up with everything answered and sent.
        var isFinished: Bool { isClosed || (hasHungUp && !hasWaitingLine && !hasOutbound) }
    }
}

/// One request line: `{"command": [NAME, ARGS…], "request_id": ID}`.
struct ControlRequest {
    var name: String
    var arguments: [JSONValue]
    var id: JSONValue?

    struct Failure: Error {
        var id: JSONValue?
        var message: String
    }

    static func parse(_ line: [UInt8]) -> Result<ControlRequest, Failure> {
        var diagnostics = Diagnostics(file: "request")
        let parsed = JSONParser.parse(line, diagnostics: &diagnostics)
        guard !diagnostics.hasErrors, let value = parsed else {
            var message = "malformed request: not JSON"
            if let problem = diagnostics.errors.first { message += " (column \(problem.column): \(problem.message))" }
            return .failure(Failure(id: nil, message: message))
        }
        if let duplicate = diagnostics.warnings.first(where: { $0.rule == "json.duplicate-key" }) {
            return .failure(Failure(id: nil, message: "malformed request: \(duplicate.message.split(separator: ";").first ?? "a duplicate key") (each key once)"))
        }
        guard let object = value.objectValue else {
            return .failure(Failure(id: nil, message: "malformed request: expected an object such as {\"command\": [\"status\"]}, got \(value.typeName)"))
        }
        let id = object["request_id"]
        if let id {
            var isInteger = false
            if let n = id.numberValue { isInteger = n == n.rounded() }
            if !isInteger && id.kind != .null {
                return .failure(Failure(id: nil, message: "malformed request: request_id must be an integer"))
            }
        }
        guard let command = object["command"] else {
            return .failure(Failure(id: id, message: "malformed request: no \"command\" (e.g. {\"command\": [\"pause\"]})"))
        }
        if let name = command.stringValue { return .success(ControlRequest(name: name, arguments: [], id: id)) }
        guard let items = command.arrayValue, let name = items.first?.stringValue else {
            return .failure(Failure(id: id, message: "malformed request: \"command\" must be an array starting with the command's name"))
        }
        let unknown = object.members.map(\.key).filter { $0 != "command" && $0 != "request_id" }
        if let key = unknown.first { return .failure(Failure(id: id, message: "malformed request: unknown key \"\(key)\"")) }
        return .success(ControlRequest(name: name, arguments: Array(items.dropFirst()), id: id))
    }
}
