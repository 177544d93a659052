import ArgumentParser
import CabinAudio
import CabinIO
import CabinJSON
import CabinPlayback
import CabinRemote
import Glibc

/// `cabin ctl COMMAND…`: a playing session's control socket, from the command line.
struct Ctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Control a playing session (pause, seek, volume, status …) through its control socket.",
        discussion: """
            Sends one command to the session 'cabin play' is playing and prints the answer. Commands: pause, resume, toggle, seek SECONDS|TIME [relative|absolute] (relative by default: seek -30, seek 24m50s absolute), set PARAMETER VALUE (or just PARAMETER VALUE: speed 40), volume [BUS] LEVEL (80, 80%, -6dB), mute [on|off|toggle], trigger EVENT, next-station, previous-station, latency low|relaxed|auto (the output latency while playing, kept until changed; auto: it follows what needs it, as at the start), stop, quit, status, help, observe (prints every event as JSON lines until the session ends).

            Words that are numbers are sent as numbers. The socket is $XDG_RUNTIME_DIR/cabin/control unless --ipc names another (the same path given to 'cabin play --ipc'). Any client speaking newline-delimited JSON works too: echo '{"command": ["status"]}' | socat - UNIX-CONNECT:PATH.

            Examples:
              cabin ctl pause
              cabin ctl speed 40
              cabin ctl seek -30
              cabin ctl volume radio -6dB
              cabin ctl status --json
              cabin ctl observe
            """)

    @Argument(parsing: .captureForPassthrough, help: "The command and its arguments.")
    var command: [String] = []

    @Option(help: ArgumentHelp("The control socket (default: $XDG_RUNTIME_DIR/cabin/control).", valueName: "path"))
    var ipc: String?

    @Flag(help: "Print the reply's data as JSON.")
    var json = false

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("give a command, e.g. 'cabin ctl status' (see 'cabin ctl --help')") }
    }

    /// The command words, with `--json` and `--ipc PATH` taken out wherever they stand
    /// (the command's own arguments may be negative numbers, so they are passed through).
    private var parsed: (words: [String], json: Bool, ipc: String?) {
        var words: [String] = [], json = self.json, ipc = self.ipc
        var i = 0
        while i < command.count {
            let word = command[i]
            if word == "--json" { json = true } else if word == "--ipc", i + 1 < command.count { ipc = command[i + 1]; i += 1 } else if word.hasPrefix("--ipc=") { ipc = String(word.dropFirst(6)) } else { words.append(word) }
            i += 1
        }
        return (words, json, ipc)
    }

    private var words: [String] { parsed.words }

    func run() throws {
        let (words, json, ipc) = parsed
        guard let path = ipc ?? ControlServer.defaultPathIfSet else {
            CLIOutput.error("XDG_RUNTIME_DIR is not set, so there is no default control socket: give it with --ipc PATH")
            throw ExitCode.failure
        }
        let connection: LocalSocketConnection
        do { connection = try LocalSocketConnection(connectingTo: path, timeoutSeconds: 5) } catch {
            let hint = error.code == ENOENT || error.code == ECONNREFUSED ? " (is 'cabin play' running with this socket?)" : ""
            CLIOutput.error("\(error)\(hint)")
            throw ExitCode.failure
        }
        defer { connection.close() }
        do { try converse(connection, words: words, json: json) } catch let error as SystemError {
            CLIOutput.error(error.code == EAGAIN ? "no answer from \(path) within 5 s" : "\(error)")
            throw ExitCode.failure
        }
    }

    /// The request for `words` (`seek -30` → `{"command": ["seek", -30], "request_id": 1}`):
    /// words that read as numbers are numbers.
    static func request(_ words: [String]) -> JSONValue {
        let arguments: [JSONValue] = words.dropFirst().map { word in
            guard let n = Double(word), n.isFinite, word.first.map({ $0.isNumber || "-+.".contains($0) }) == true else {
                return .string(word)
            }
            return n == n.rounded() && abs(n) < 1e15 ? .number(Int(n)) : .number(n)
        }
        return JSONValue.object([("command", .array([.string(words[0])] + arguments)), ("request_id", .number(1))])
    }

    /// Sends the request and prints its reply (or, for observe, every event until the
    /// session ends); a refusal or an error reply is one line (exit 1).
    private func converse(_ connection: LocalSocketConnection, words: [String], json: Bool) throws {
        var reader = LineReader(connection: connection)
        do { try connection.sendAll(Array((Ctl.request(words).serialized(pretty: false) + "\n").utf8)) } catch {
            // A session that refused the connection (too many clients) said why before closing it.
            if let line = try? reader.next(), let reply = JSONField.objectValue(JSONParser.parse(line, file: "reply").value),
               let refusal = JSONField.stringValue(reply["error"]), refusal != "success" {
                CLIOutput.error(refusal)
                throw ExitCode.failure
            }
            throw error
        }
        let observing = words[0] == "observe"
        while let line = try reader.next() {
            guard let reply = JSONField.objectValue(JSONParser.parse(line, file: "reply").value) else { continue }
            if reply["event"] != nil {   // an event (observe), written again: valid and terminal-safe JSON
                print(JSONValue.object(reply.members.map { ($0.key, $0.value) }).serialized(pretty: false))
                CLIOutput.flush()
                continue
            }
            // Its reply, or a line with no request id: a refusal (too many clients) or a
            // reply to a request the session could not read.
            let unaddressed = reply["request_id"].map { $0.kind == .null } ?? true
            guard JSONField.numberValue(reply["request_id"]) == 1 || unaddressed else { continue }
            if let error = JSONField.stringValue(reply["error"]), error != "success" {
                CLIOutput.error(error)
                throw ExitCode.failure
            }
            if !observing { return show(reply["data"] ?? .null, command: words[0], json: json) }
        }
        if !observing {
            CLIOutput.error("the session closed the connection without answering")
            throw ExitCode.failure
        }
    }

    private func show(_ data: JSONValue, command: String, json: Bool) {
        if json {
            print(data.serialized(pretty: true), terminator: "")
        } else if command == "status", let s = data.objectValue {
            print(CtlStatus.describe(s))
        } else if command == "help", let h = data.objectValue {
            for item in JSONField.arrayValue(h["commands"]) ?? [] { print((item.stringValue ?? "").terminalSafe) }
            for (label, key) in [("parameters", "parameters"), ("buses", "buses"), ("live events", "events")] {
                let items = (JSONField.arrayValue(h[key]) ?? []).compactMap(\.stringValue)
                print("\(label): \(items.isEmpty ? "none" : items.joined(separator: ", "))".terminalSafe)
            }
        } else if data.kind != .null {
            print(data.serialized(pretty: true), terminator: "")
        }
    }
}

/// Reads newline-terminated lines from a blocking connection (its timeout ends a wait), each
/// at most `maximumLine` bytes: a peer that never sends a newline is an error, not a buffer
/// that grows for ever.
struct LineReader {
    let connection: LocalSocketConnection
    var buffer: [UInt8] = []
    /// A session's longest reply (`help`, `status` with every bus) is a few KB.
    static let maximumLine = 1 << 20

    /// The next line without its newline; nil when the other end closed.
    mutating func next() throws(SystemError) -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            guard let bytes = try connection.receive() else { throw SystemError(operation: "recv", code: EAGAIN) }
            if bytes.isEmpty { return nil }
            buffer += bytes
            if buffer.count > Self.maximumLine && !buffer.contains(UInt8(ascii: "\n")) {
                throw SystemError(operation: "reading the reply", code: 0,
                                  reason: "more than 1 MiB without a newline: not a Cabin session's socket")
            }
        }
    }
}

/// `cabin ctl status` for people.
enum CtlStatus {
    static func describe(_ s: JSONObject) -> String {
        func clock(_ key: String) -> String { String(CLIOutput.clock(JSONField.numberValue(s[key]) ?? 0).dropLast(4)) }
        func db(_ v: JSONValue?) -> String { JSONField.numberValue(v).map { String(cFormat: "%+.1f dB", $0) } ?? "-∞ dB" }
        var lines = ["\(JSONField.stringValue(s["title"]) ?? "")  \(JSONField.stringValue(s["state"]) ?? "")  \(clock("position")) / \(clock("duration"))  (\(clock("remaining")) left)"]
        if let segment = JSONField.stringValue(s["segment"]) { lines.append("segment: \(segment)") }
        let parameters = JSONField.objectValue(s["parameters"])?.members ?? []
        if !parameters.isEmpty {
            lines.append("parameters: " + parameters.map { "\($0.key) \(NumberText.plain((($0.value.numberValue ?? 0) * 100).rounded() / 100))" }.joined(separator: ", "))
        }
        if let volume = JSONField.objectValue(s["volume"]) {
            var text = "volume: master \(db(volume["master"]))" + (JSONField.isTrue(volume["muted"]) ? " (muted)" : "")
            for bus in JSONField.objectValue(volume["buses"])?.members ?? [] where bus.value.numberValue != 0 {
                text += ", \(bus.key) \(db(bus.value))"
            }
            lines.append(text)
        }
        var device = "device: \(JSONField.stringValue(s["device"]) ?? "")  xruns \(JSONField.numberValue(s["xruns"]).map { Int($0) } ?? 0)"
        if let ms = JSONField.numberValue(s["latency"]) {
            var mode = JSONField.stringValue(s["latencyMode"]) ?? ""
            if JSONField.isTrue(s["latencyAuto"]) {
                let needs = (JSONField.arrayValue(s["latencyNeeds"]) ?? []).compactMap(\.stringValue)
                mode += mode.isEmpty ? "auto" : ", auto" + (needs.isEmpty ? "" : ": " + needs.joined(separator: ", "))
            }
            device += String(cFormat: "  latency %.0f ms", ms) + (mode.isEmpty ? "" : " (\(mode))")
        }
        lines.append(device)
        // The reply is the peer's: its strings are shown terminal-safe, one line each.
        return lines.map(\.terminalSafe).joined(separator: "\n")
    }
}

/// Optional members read through functions (optional chaining into `JSONValue`'s accessors
/// crashes this compiler's ownership verifier).
enum JSONField {
    static func numberValue(_ v: JSONValue?) -> Double? { guard let v else { return nil }; return v.numberValue }
    static func stringValue(_ v: JSONValue?) -> String? { guard let v else { return nil }; return v.stringValue }
    static func arrayValue(_ v: JSONValue?) -> [JSONValue]? { guard let v else { return nil }; return v.arrayValue }
    static func objectValue(_ v: JSONValue?) -> JSONObject? { guard let v else { return nil }; return v.objectValue }
    static func isTrue(_ v: JSONValue?) -> Bool { guard let v else { return false }; return v.kind == .bool(true) }
}
