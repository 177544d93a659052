import CabinIO
import CabinTestSupport
import Foundation
import FoundationXML
import Testing

/// Issue 31.1, terminal escape injection: text from outside (a station's ICY title and
/// `icy-name`, a tag, a playlist entry's name, a document's title and marks, a control
/// socket's replies) reaches the terminal with its control characters made visible, one
/// event per line; `--json` stays valid JSON and `session plot` well-formed XML.
@Suite(.serialized)
struct TerminalEscapeInjectionTests {
    /// What a hostile title holds: an OSC retitle ended by BEL, a clear screen, blink, a
    /// newline and a carriage return, DEL and a C1 CSI (U+009B).
    static let hostile = "Song 1 \u{1B}]0;PWNED\u{07}\u{1B}[2J\u{1B}[5mBLINK\nsecond line\r\u{7F}\u{9B}2J"

    /// The control characters a terminal acts on (C0, DEL, C1) found in `text`.
    static func controls(_ text: String) -> [UInt32] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }.map(\.value)
    }

    /// `text` as a JSON string's contents (the escapes a document author would write).
    static func jsonEscaped(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed])
        return String(String(decoding: data, as: UTF8.self).dropFirst(2).dropLast(2))
    }

    /// An MP3 of a tone (6 s unless told), rendered by cabin itself.
    static func mp3(in dir: URL, seconds: Int = 6) throws -> [UInt8] {
        let doc = dir.appendingPathComponent("tone.json").path
        try Data("""
            { "cabin": 1, "duration": "\(seconds)s", "layers": { "t": { "bus": "ambient", "sound": "synth:sine?frequency=440", "loop": true } },
              "cues": [ { "at": 0, "start": "t" } ] }
            """.utf8).write(to: URL(fileURLWithPath: doc))
        let out = dir.appendingPathComponent("tone.mp3").path
        let rendered = try ExternalTool.cabin(["render", doc, "-o", out])
        try #require(rendered.status == 0, "\(rendered.stderr)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// An ICY station (a hostile `icy-name`, and after every 8192 bytes of audio a metadata
    /// block of 4080 bytes: the hostile title, then filler) played for 3 s with no sound,
    /// as lines and as `--json`.
    @Test func terminalEscapeInjection() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-escape")
        defer { try? FileManager.default.removeItem(at: dir) }
        let audio = try Self.mp3(in: dir)
        let interval = 8192
        var meta = Array("StreamTitle='\(Self.hostile) \(String(repeating: "x", count: 3900))';".utf8)
        meta = Array(meta.prefix(4080))
        meta += [UInt8](repeating: 0, count: (16 - meta.count % 16) % 16)
        var body: [UInt8] = []
        var i = 0
        while i < audio.count {
            let chunk = audio[i..<min(audio.count, i + interval)]
            body += chunk
            i += interval
            guard chunk.count == interval else { break }
            body.append(UInt8(meta.count / 16))
            body += meta
        }
        let server = try HostileHTTPServer(reply: .response("200 OK", headers: [
            "Content-Type: audio/mpeg", "icy-metaint: \(interval)", "icy-name: \u{1B}]0;NAME\u{07}Evil\u{1B}[2J FM",
        ], body: body))
        defer { server.stop() }
        let path = dir.appendingPathComponent("s.json").path
        try Data(RadioCommandTests.session(station: server.url(), seconds: 3).utf8).write(to: URL(fileURLWithPath: path))

        let lines = try ExternalTool.cabin(["play", path, "-D", "none"])
        #expect(lines.status == 0, "\(lines.stderr)")
        let output = lines.stdout + lines.stderr
        #expect(Self.controls(output).isEmpty, "\(output.debugDescription)")
        let now = output.split(separator: "\n").filter { $0.contains(": now \"") }
        // The title is the same in every block (and after a reconnection): one event, or the same again.
        #expect(!now.isEmpty && Set(now).count == 1, "\(output)")
        // One line, the title cut to 256 characters.
        let prefix = "radio \(server.url()): now \""
        #expect(now.first.map { $0.hasPrefix(prefix + "Song 1 ]0;PWNED [2J [5mBLINK second line 2J xxx") && $0.hasSuffix("…\"") } == true,
                "\(now)")
        #expect(now.first.map { $0.count - prefix.count - 1 } == 256)
        let playing = output.split(separator: "\n").filter { $0.hasPrefix("radio ") && $0.contains(": playing ") }
        #expect(!playing.isEmpty && playing.allSatisfy { $0.contains("playing \"]0;NAME Evil [2J FM\" (MP3)") }, "\(output)")

        let json = try ExternalTool.cabin(["play", path, "-D", "none", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        var titles: [String] = [], names: [String] = []
        for line in json.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            if object["event"] as? String == "radio-title" { titles.append(object["title"] as? String ?? "") }
            if object["event"] as? String == "radio-playing" { names.append(object["name"] as? String ?? "") }
        }
        #expect(!titles.isEmpty && titles.allSatisfy { Self.controls($0).isEmpty && $0.count == 256 }, "\(titles)")
        #expect(!names.isEmpty && names.allSatisfy { $0 == "]0;NAME Evil [2J FM" }, "\(names)")
        #expect(Self.controls(json.stdout).isEmpty)
    }

    /// A document whose title holds escapes (a mark's title must already be one line of
    /// words): `play` prints it with visible escapes, `session plot` writes well-formed XML
    /// without them.
    @Test func terminalEscapeInjectionFromADocument() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-escape")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        let evil = Self.jsonEscaped(Self.hostile + "\u{0}\u{FFFE}\u{FFFF}&<>\"")
        try Data("""
            { "cabin": 1, "title": "\(evil)", "duration": "2s",
              "layers": { "t": { "bus": "ambient", "sound": "synth:sine?frequency=440", "loop": true } },
              "cues": [ { "at": 0, "start": "t", "mark": { "name": "m", "title": "rest & <stop>" } },
                        { "at": "1s", "mark": "n" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let played = try ExternalTool.cabin(["play", path, "-D", "none"])
        #expect(played.status == 0, "\(played.stderr)")
        #expect(Self.controls(played.stdout + played.stderr).isEmpty, "\(played.stdout.debugDescription)")
        #expect(played.stdout.contains("playing \"Song 1 \\u{1b}]0;PWNED\\u{7}\\u{1b}[2J"), "\(played.stdout)")

        // Start, two marks, the end, each one line. The silent clock reports an underrun like
        // a card when the loaded machine (2 cores, the parallel phase) keeps the player from
        // writing in time; those lines are the clock's, not the document's, so they are not counted.
        let lines = played.stdout.split(separator: "\n").filter { !$0.contains(": recovered, skipped ") }
        #expect(lines.count == 4, "\(played.stdout)")

        let svg = dir.appendingPathComponent("s.svg").path
        let plotted = try ExternalTool.cabin(["session", "plot", path, "-o", svg])
        #expect(plotted.status == 0, "\(plotted.stderr)")
        #expect(Self.controls(plotted.stdout + plotted.stderr).isEmpty)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        let xml = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: svg)))
        #expect(xml.rootElement()?.name == "svg")
        #expect(text.contains("&amp;&lt;&gt;"))
    }

    /// A playlist entry whose file name holds escapes and an Opus file whose title tag does.
    @Test(.enabled(if: ExternalTool.which("opusenc") != nil && ExternalTool.which("sox") != nil, "needs opusenc and sox"))
    func terminalEscapeInjectionFromTagsAndPlaylistNames() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-escape")
        defer { try? FileManager.default.removeItem(at: dir) }
        let named = "a\u{1B}]0;PWNED\u{07}\u{1B}[2J.wav"
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", dir.appendingPathComponent(named).path, "synth", "1", "sine", "300", "vol", "0.2"])
        let wav = dir.appendingPathComponent("b.wav").path
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", wav, "synth", "1", "sine", "500", "vol", "0.2"])
        _ = try ExternalTool.check("opusenc", ["--quiet", "--title", Self.hostile, wav, dir.appendingPathComponent("b.opus").path])
        try Data("\(named)\nb.opus\n".utf8).write(to: dir.appendingPathComponent("list.m3u"))
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "2500ms", "layers": { "radio": { "bus": "radio", "sound": "list.m3u" } },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let played = try ExternalTool.cabin(["play", path, "-D", "none"])
        #expect(played.status == 0, "\(played.stderr)")
        let output = played.stdout + played.stderr
        #expect(Self.controls(output).isEmpty, "\(output.debugDescription)")
        let titles = output.split(separator: "\n").filter { $0.contains(": now \"") }
        #expect(titles == ["radio list.m3u: now \"a ]0;PWNED [2J\"",
                           "radio list.m3u: now \"Song 1 ]0;PWNED [2J [5mBLINK second line 2J\""], "\(output)")
    }

    /// A fake control socket whose replies hold escapes: `cabin ctl status` prints them
    /// visibly, `--json` prints valid JSON with them escaped, an error is one safe line.
    @Test func terminalEscapeInjectionFromAControlSocket() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-escape")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("control").path
        nonisolated(unsafe) let listener = try LocalSocketListener(path: socket)   // the serving thread's, until it is done
        let evil = Self.jsonEscaped(Self.hostile)
        let replies = [
            "{\"request_id\":1,\"error\":\"success\",\"data\":{\"title\":\"\(evil)\",\"state\":\"playing\",\"position\":1,\"duration\":9,\"remaining\":8,\"segment\":\"\(evil)\",\"device\":\"\(evil)\",\"xruns\":0,\"parameters\":{\"\(evil)\":1},\"volume\":{\"master\":0,\"muted\":false,\"buses\":{\"\(evil)\":-6}}}}",
            "{\"request_id\":1,\"error\":\"success\",\"data\":{\"title\":\"\(evil)\"}}",
            "{\"request_id\":1,\"error\":\"\(evil)\"}",
            "{\"event\":\"mark\",\"name\":\"\(evil)\"}\n{\"event\":\"end\",\"name\":\"\(evil)\"}",
        ]
        let served = Thread {
            for reply in replies {
                let deadline = Date().addingTimeInterval(10)
                var connection: LocalSocketConnection?
                while connection == nil && Date() < deadline {
                    connection = try? listener.accept()
                    if connection == nil { Thread.sleep(forTimeInterval: 0.01) }
                }
                guard let connection else { return }
                Thread.sleep(forTimeInterval: 0.1)   // the request has arrived
                _ = try? connection.receive()
                try? connection.sendAll(Array((reply + "\n").utf8))
                Thread.sleep(forTimeInterval: 0.1)
                connection.close()
            }
        }
        served.start()
        defer { listener.close() }
        let ipc = ["--ipc", socket]
        let status = try ExternalTool.cabin(["ctl"] + ipc + ["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(Self.controls(status.stdout).isEmpty, "\(status.stdout.debugDescription)")
        #expect(status.stdout.hasPrefix("Song 1 \\u{1b}]0;PWNED\\u{7}"), "\(status.stdout)")
        #expect(status.stdout.split(separator: "\n").count == 5, "\(status.stdout)")
        let json = try ExternalTool.cabin(["ctl"] + ipc + ["status", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(Self.controls(json.stdout).isEmpty, "\(json.stdout.debugDescription)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["title"] as? String == Self.hostile)
        let failed = try ExternalTool.cabin(["ctl"] + ipc + ["pause"])
        #expect(failed.status == 1)
        #expect(Self.controls(failed.stderr).isEmpty && failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr.debugDescription)")
        let observed = try ExternalTool.cabin(["ctl"] + ipc + ["observe"])
        #expect(Self.controls(observed.stdout).isEmpty, "\(observed.stdout.debugDescription)")
        let events = observed.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.count == 2 && events.allSatisfy { $0["name"] as? String == Self.hostile }, "\(observed.stdout)")
    }
}
