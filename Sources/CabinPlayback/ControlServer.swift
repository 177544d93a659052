import CabinIO
import CabinJSON
import Glibc

/// The control socket of a playing session, in mpv's style: a Unix socket (mode 0600)
/// speaking newline-delimited JSON. A request `{"command": ["pause"], "request_id": 7}` gets
/// the reply `{"request_id": 7, "error": "success", "data": …}` (`error` is the one-line
/// reason otherwise); `["observe"]` makes the connection also receive every event, one
/// JSON object a line, as `eventLine` writes it (`cabin play` gives `PlayerEvent.jsonLine`,
/// the lines its `--json` prints). The commands are `ControlCommands`'.
///
/// It never blocks the player or the control loop: it runs on the control thread from the
/// caller's loop (`serve` waits at most its timeout), every socket is non-blocking, replies
/// and events queue per client, and a client that stops reading is dropped once
/// `maximumQueuedBytes` wait for it. A malformed line gets an error reply and the
/// connection stays usable. Any number of clients at once.
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
    public let path: String
    public let player: LivePlayer
    /// The session's title, for `status` and the `start` event.
    public let title: String
    /// A client that has not read this much of its replies and events is disconnected.
    public static let maximumQueuedBytes = 256 * 1024
    /// A request line longer than this is answered with an error and skipped.
    public static let maximumLineBytes = 64 * 1024
    /// One JSON object (one line) for an event, for `observe`.
    public let eventLine: (PlayerEvent) -> String
    /// Set by the `quit` command (`stop` ends the session the same way without it).
    public private(set) var quitRequested = false
    private let listener: LocalSocketListener
    private var clients: [Client] = []

    /// Listens on `path` (see `LocalSocketListener`: socket mode 0600; a stale socket is
    /// replaced, a live one is an error).
    public init(path: String, player: LivePlayer, title: String,
                eventLine: @escaping (PlayerEvent) -> String) throws(SystemError) {
        listener = try LocalSocketListener(path: path)
        self.path = path
        self.player = player
        self.title = title
        self.eventLine = eventLine
    }

    deinit { close() }

    /// `$XDG_RUNTIME_DIR/cabin/control`, its folder made (mode 0700) if missing; nil when
    /// `XDG_RUNTIME_DIR` is not set. Throws when the folder cannot be made or is open to
    /// other users.
    public static func defaultPath() throws(SystemError) -> String? {
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty else { return nil }
        try LocalSocketListener.preparePrivateDirectory(runtime + "/cabin")
        return runtime + "/cabin/control"
    }

    /// Where the default socket is, without making anything (for the client).
    public static var defaultPathIfSet: String? {
        guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty else { return nil }
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

    /// Waits up to `timeoutMilliseconds` for a connection, a request, room to send, or
    /// `extraDescriptor` (e.g. the terminal's keys) to be readable; then accepts, answers
    /// and sends what it can without blocking. Returns whether `extraDescriptor` is readable.
    @discardableResult
    public func serve(timeoutMilliseconds: Int32, extraDescriptor: Int32? = nil) -> Bool {
        var watched: [(descriptor: Int32, writable: Bool)] = [(listener.descriptor, false)]
        watched += clients.map { ($0.connection.descriptor, !$0.outbound.isEmpty) }
        if let extraDescriptor { watched.append((extraDescriptor, false)) }
        let ready = DescriptorPoll.wait(watched, timeoutMilliseconds: timeoutMilliseconds)
        for (client, readiness) in zip(clients, ready.dropFirst()) {
            if readiness.readable || readiness.closed { read(client) }
            if readiness.writable { flush(client) }
        }
        if ready[0].readable { acceptAll() }
        clients.removeAll { client in
            if client.isClosed { client.connection.close() }
            return client.isClosed
        }
        return extraDescriptor != nil && ready.last?.readable == true
    }

    /// Sends `events` to the clients that observe.
    public func publish(_ events: [PlayerEvent]) {
        guard !events.isEmpty else { return }
        for client in clients where client.isObserving {
            for event in events { queue(eventLine(event), to: client) }
            flush(client)
        }
    }

    private func acceptAll() {
        while let connection = try? listener.accept() {
            clients.append(Client(connection: connection))
        }
    }

    private func read(_ client: Client) {
        while !client.isClosed {
            do {
                guard let bytes = try client.connection.receive() else { break }   // nothing more now
                if bytes.isEmpty { client.isClosed = true; break }                 // the client hung up
                client.inbound += bytes
                takeLines(client)
            } catch {
                client.isClosed = true
            }
        }
    }

    /// Answers every complete line; an overlong one is answered once and skipped.
    private func takeLines(_ client: Client) {
        let tooLong = "request too long (more than \(ControlServer.maximumLineBytes) bytes on one line)"
        while let newline = client.inbound.firstIndex(of: UInt8(ascii: "\n")) {
            let line = Array(client.inbound[..<newline])
            client.inbound.removeSubrange(...newline)
            if client.isSkippingLine {
                client.isSkippingLine = false
            } else if line.count > ControlServer.maximumLineBytes {
                queue(ControlServer.reply(id: nil, error: tooLong), to: client)
            } else {
                answer(line, from: client)
            }
            if client.isClosed { return }
        }
        if client.inbound.count > ControlServer.maximumLineBytes && !client.isSkippingLine {
            client.isSkippingLine = true
            queue(ControlServer.reply(id: nil, error: tooLong), to: client)
        }
        if client.isSkippingLine { client.inbound.removeAll() }
        flush(client)
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
            let commands = ControlCommands(player: player, title: title)
            do {
                let data = try commands.perform(request.name, request.arguments)
                if request.name == "quit" { quitRequested = true }
                queue(ControlServer.reply(id: request.id, data: data), to: client)
            } catch {
                queue(ControlServer.reply(id: request.id, error: error.description), to: client)
            }
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
        var isObserving = false
        var isSkippingLine = false
        var isClosed = false
        init(connection: LocalSocketConnection) { self.connection = connection }
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
        if diagnostics.hasErrors || parsed == nil {
            var message = "malformed request: not JSON"
            if let problem = diagnostics.errors.first { message += " (column \(problem.column): \(problem.message))" }
            return .failure(Failure(id: nil, message: message))
        }
        if let duplicate = diagnostics.warnings.first(where: { $0.rule == "json.duplicate-key" }) {
            return .failure(Failure(id: nil, message: "malformed request: \(duplicate.message.split(separator: ";").first ?? "a duplicate key") (each key once)"))
        }
        let value = parsed!
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
