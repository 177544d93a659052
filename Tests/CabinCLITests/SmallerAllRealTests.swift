import CabinIO
import CabinTestSupport
import Foundation
import Glibc
import Testing

/// Issue 31.11, smaller, all real: each from its reproducer, with the real binary.
@Suite(.serialized)
struct SmallerAllRealTests {
    /// A session playing `list.m3u` (beside it) on its radio bus for `seconds`; its path.
    static func playlistSession(in dir: URL, seconds: Int = 1) throws -> String {
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "\(seconds)s", "layers": { "radio": { "bus": "radio", "sound": "list.m3u" } },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Playlist entries that climb out with `../`, name `/etc/shadow` (any file whose name is
    /// not a sound file's), or use a scheme Cabin does not play (`ftp://`, `gopher://`, read as
    /// relative paths before): each is skipped in one line, unopened (a FIFO named so is not
    /// reported as a pipe, as it would be once opened), and the real track plays.
    @Test func playlistEntriesThatClimbOutOrAreNotSoundFiles() throws {
        let root = try TestEnvironment.temporaryDirectory("cabin-playlist-out")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.appendingPathComponent("lists")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for file in [dir.appendingPathComponent("a.wav"), root.appendingPathComponent("outside.wav")] {
            try PlaylistCommandTests.tone(file, seconds: 2)
        }
        #expect(mkfifo(dir.appendingPathComponent("secret").path, 0o600) == 0)
        let entries = ["../outside.wav", "sub/../../outside.wav", "/etc/shadow", dir.appendingPathComponent("secret").path,
                       "ftp://example.invalid/a.mp3", "gopher://example.invalid/b.mp3", "a.wav"]
        try Data(entries.joined(separator: "\n").utf8).write(to: dir.appendingPathComponent("list.m3u"))
        let result = try ExternalTool.cabin(["play", try Self.playlistSession(in: dir), "-D", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = (result.stdout + result.stderr).split(separator: "\n").filter { $0.hasPrefix("radio list.m3u: ") }
        let expected = [
            "skipped ../outside.wav: leaves the playlist's folder: \"..\" is not allowed in an entry (give an absolute path)",
            "skipped sub/../../outside.wav: leaves the playlist's folder",
            "skipped /etc/shadow: not opened: its name is not a sound file's",
            "skipped \(dir.appendingPathComponent("secret").path): not opened",
            "skipped ftp://example.invalid/a.mp3: ftp:// is not a scheme Cabin plays",
            "skipped gopher://example.invalid/b.mp3: gopher:// is not a scheme Cabin plays",
            "now \"a\"",
        ]
        #expect(lines.count == expected.count, "\(lines)")
        for (line, start) in zip(lines, expected) { #expect(line.dropFirst("radio list.m3u: ".count).hasPrefix(start), "\(line)") }
        #expect(!lines.contains { $0.contains("outside\"") || $0.contains("pipe") }, "\(lines)")
    }

    /// 100,000 missing playlist entries: the first 100 are a line each, then one line counts
    /// the rest, then the playlist's error (before: only the last 999 lines, no count).
    @Test func manyMissingPlaylistEntriesAreCounted() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-missing")
        defer { try? FileManager.default.removeItem(at: dir) }
        let entries = (0..<100_000).map { "missing-\($0).wav" }
        try Data(entries.joined(separator: "\n").utf8).write(to: dir.appendingPathComponent("list.m3u"))
        let started = Date()
        let result = try ExternalTool.cabin(["play", try Self.playlistSession(in: dir), "-D", "none", "--json"])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        var skipped: [String] = [], errors: [String] = []
        for line in result.stdout.split(separator: "\n") {
            guard let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            if o["event"] as? String == "radio-skipped" { skipped.append(o["message"] as? String ?? "") }
            if o["event"] as? String == "radio-error" { errors.append(o["message"] as? String ?? "") }
        }
        #expect(skipped.count == 101, "\(skipped.count) skipped lines")
        #expect(skipped.first?.contains("missing-0.wav") == true, "\(skipped.first ?? "")")
        #expect(skipped.dropLast().last?.contains("missing-99.wav") == true)
        #expect(skipped.last == "99900 more (the first 100 are listed)", "\(skipped.last ?? "")")
        #expect(errors == ["no track of the playlist can be played"], "\(errors)")
        #expect(seconds < 30, "\(seconds) s")
    }

    /// `cabin ctl` against a socket that answers with bytes and never a newline (before: 151 MB
    /// and growing): one line, exit 1, after 1 MiB.
    @Test func ctlReplyWithoutANewlineIsCapped() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-ctl-flood")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("control").path
        let socket = try NewlineFreeSocket(path: path)
        defer { socket.stop() }
        let started = Date()
        let result = try ExternalTool.cabin(["ctl", "--ipc", path, "status"])
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n") == ["cabin: error: reading the reply: more than 1 MiB without a newline: not a Cabin session's socket"],
                "\(result.stderr)")
        #expect(seconds < 15, "\(seconds) s")
        #expect(socket.sent < 64 << 20, "it stopped reading soon after 1 MiB: \(socket.sent) bytes sent")
    }

    /// A control request with a key twice: refused in one line, the command not carried out
    /// (before: accepted, the last one winning).
    @Test func duplicateKeysInAControlRequestAreRefused() throws {
        let session = try ControlSocketTests.Session()
        defer { _ = session.finish(timeout: 0) }
        let client = try ControlSocketTests.Client(session.socket)
        try client.sendLine(#"{"command": ["pause"], "command": ["status"], "request_id": 1}"#)
        let reply = try client.line()
        #expect(reply["error"] as? String == #"malformed request: duplicate key "command" (each key once)"#, "\(reply)")
        try client.sendLine(#"{"command": ["status"], "request_id": 2, "request_id": 3}"#)
        #expect((try client.line())["error"] as? String == #"malformed request: duplicate key "request_id" (each key once)"#)
        #expect(try client.status()["state"] as? String == "playing")
        _ = try client.command("quit")
    }

    /// `--ipc` at a path in a folder that does not exist (before: the error named the
    /// temporary, `control.PID`, and the `-D none` note with its render hint came first,
    /// for a session then refused): one line naming the path given, exit 1, no note.
    @Test func ipcErrorsNameThePathGivenAndARefusedSessionGetsNoHint() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-ipc-error")
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = dir.appendingPathComponent("s.json").path
        try Data(ControlLoopStarvationTests.session("2s").utf8).write(to: URL(fileURLWithPath: session))
        let socket = dir.appendingPathComponent("missing/control").path
        let result = try ExternalTool.cabin(["play", session, "-D", "none", "--ipc", socket, "--no-mpris"])
        #expect(result.status == 1)
        #expect(result.stderr == "cabin: error: --ipc: bind \(socket): No such file or directory (errno 2)\n", "\(result.stderr)")
        // A socket path one byte short of the limit (107) is used as given: no temporary
        // name past the limit is refused on its behalf.
        let long = dir.path + "/" + String(repeating: "s", count: 106 - dir.path.utf8.count)
        let played = try ExternalTool.cabin(["play", session, "-D", "none", "--ipc", long, "--no-mpris", "--length", "300ms", "--quiet"])
        #expect(long.utf8.count == 107 && played.status == 0, "\(played.stderr)")
    }

    /// A session with a live stream under `-D none` (before: the note suggested `cabin
    /// render`, which refuses a live stream): the note says it plays silently, with no
    /// render to try; the session plays.
    @Test func theSilentNoteSuggestsNoRenderForALiveStream() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-live-note")
        defer { try? FileManager.default.removeItem(at: dir) }
        let session = dir.appendingPathComponent("live.json").path
        try Data("""
            { "cabin": 1, "duration": "1s", "layers": { "r": { "bus": "radio", "sound": "http://127.0.0.1:9/stream.mp3" } },
              "cues": [ { "at": 0, "start": "r" } ] }
            """.utf8).write(to: URL(fileURLWithPath: session))
        let result = try ExternalTool.cabin(["play", session, "-D", "none", "--ipc", "off", "--no-mpris"])
        #expect(result.status == 0, "\(result.stderr)")
        let notes = result.stderr.split(separator: "\n").filter { $0.hasPrefix("cabin: -D none") }
        #expect(notes == ["cabin: -D none: playing silently on the system clock"], "\(result.stderr)")
        let render = try ExternalTool.cabin(["render", session, "-o", dir.appendingPathComponent("live.wav").path])
        #expect(render.status == 1 && render.stderr.contains("plays a live stream"), "\(render.stderr)")
    }
}

/// A control socket that answers its first client with bytes and never a newline, until the
/// client goes (or 20 s pass).
final class NewlineFreeSocket: @unchecked Sendable {
    // @unchecked Sendable: the listener is used by the serving thread until `stop` joins it.
    private let listener: LocalSocketListener
    private let lock = NSLock()
    private var count = 0
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(path: String) throws {
        listener = try LocalSocketListener(path: path)
        Thread { [self] in serve() }.start()
    }

    /// Bytes sent so far.
    var sent: Int { lock.lock(); defer { lock.unlock() }; return count }
    private var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }

    func stop() {
        lock.lock(); running = false; lock.unlock()
        done.wait()
        listener.close()
    }

    private func serve() {
        defer { done.signal() }
        let deadline = Date().addingTimeInterval(20)
        var connection: LocalSocketConnection?
        while connection == nil && isRunning && Date() < deadline {
            connection = try? listener.accept()
            if connection == nil { usleep(10_000) }
        }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
        while let c = connection, isRunning, Date() < deadline {
            guard let n = try? c.send(chunk[...]) else { break }
            if n > 0 { lock.lock(); count += n; lock.unlock() } else { usleep(1_000) }
        }
        connection?.close()
    }
}
