import CabinIO
import CabinTestSupport
import Foundation
import Glibc
import Testing

/// `cabin play` with a playlist on the radio, switched through the control socket with
/// `cabin ctl next-station` / `previous-station` (the real binary, `-D none`: on the
/// system clock, in real time).
@Suite(.serialized)
struct PlaylistCommandTests {
    static func ctl(_ socket: String, _ words: [String]) throws -> ExternalTool.Result {
        try ExternalTool.cabin(["ctl", "--ipc", socket] + words)
    }

    /// The title the status reports for the playlist, within `timeout` seconds of asking.
    static func waitForTitle(_ socket: String, _ title: String, timeout: Double = 3) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let status = try ctl(socket, ["status", "--json"])
            if let object = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any],
               let stations = object["stations"] as? [[String: Any]], stations.first?["title"] as? String == title {
                return true
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    @Test func nextAndPreviousSwitchTracksAndReportThem() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, f) in [("a.wav", 300), ("b.wav", 500), ("c.wav", 700)] {
            _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", dir.appendingPathComponent(name).path,
                                               "synth", "20", "sine", "\(f)", "vol", "0.2"])
        }
        try Data("a.wav\nb.wav\nc.wav\n".utf8).write(to: dir.appendingPathComponent("list.m3u"))
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "30s", "layers": { "radio": { "bus": "radio", "sound": "list.m3u" } },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let socket = dir.appendingPathComponent("control").path
        let process = Process()
        let stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment()
        process.arguments = ["play", path, "-D", "none", "--ipc", socket, "--json"]
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }

        #expect(try Self.waitForTitle(socket, "a"))
        #expect(try Self.ctl(socket, ["next-station"]).status == 0)
        // Heard after what is already in the ring (0.5 s at most).
        #expect(try Self.waitForTitle(socket, "b", timeout: 1.5))
        #expect(try Self.ctl(socket, ["next-station"]).status == 0)
        #expect(try Self.waitForTitle(socket, "c", timeout: 1.5))
        #expect(try Self.ctl(socket, ["previous-station"]).status == 0)
        #expect(try Self.waitForTitle(socket, "b", timeout: 1.5))
        #expect(try Self.ctl(socket, ["quit"]).status == 0)
        process.waitUntilExit()
        let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let titles = text.split(separator: "\n").compactMap { line -> String? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["event"] as? String == "radio-title" else { return nil }
            #expect(o["url"] as? String == "list.m3u")
            return o["title"] as? String
        }
        #expect(titles == ["a", "b", "c", "b"], "\(text)")
    }

    @Test func aSessionWithoutAPlaylistSaysWhy() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "10s", "layers": { "bed": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": 0, "start": "bed" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let socket = dir.appendingPathComponent("control").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment()
        process.arguments = ["play", path, "-D", "none", "--ipc", socket, "--quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let next = try Self.ctl(socket, ["next-station"])
        #expect(next.status != 0)
        #expect(next.stderr.split(separator: "\n") == ["cabin: error: no radio in this session"], "\(next.stderr)")
        _ = try Self.ctl(socket, ["quit"])
        process.waitUntilExit()
    }

    /// A 300 Hz tone of `seconds` (16-bit stereo WAV at 48 kHz) written to `file` by sox.
    static func tone(_ file: URL, seconds: Int) throws {
        _ = try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", file.path,
                                           "synth", "\(seconds)", "sine", "300", "vol", "0.2"])
    }

    /// `cabin ARGUMENTS` with standard input a pipe nobody writes to; killed after `timeout`
    /// seconds (nil then: it hung).
    static func runGuarded(_ arguments: [String], timeout: Double) throws -> (status: Int32, stdout: String, stderr: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment()
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        (process.standardOutput, process.standardError, process.standardInput) = (out, err, input)
        try process.run()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let hung = process.isRunning
        if hung { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        group.wait()
        try? input.fileHandleForWriting.close()
        guard !hung else { return nil }
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Issue 31.3, hangs before playback starts: a playlist entry that is a FIFO, /dev/stdin
    /// (a pipe nobody writes to) or /dev/tty blocked play and render forever in openat (the
    /// tag prefix was read before the regular-file check), and 1 MiB was read from
    /// /dev/urandom before it was refused. Now each is skipped in one line and the real track
    /// plays (/dev/stdin and /dev/urandom unopened: their names are not sound files').
    @Test func playlistEntriesThatWouldHang() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-hang")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("fifo.mp3").path, 0o600) == 0)
        try Self.tone(dir.appendingPathComponent("a.wav"), seconds: 5)
        try Data("fifo.mp3\n/dev/stdin\n/dev/tty\n/dev/urandom\na.wav\n".utf8).write(to: dir.appendingPathComponent("list.m3u"))
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "1s", "layers": { "radio": { "bus": "radio", "sound": "list.m3u" } },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        for arguments in [["play", path, "-D", "none"], ["render", path, "-o", dir.appendingPathComponent("out.wav").path]] {
            let result = try Self.runGuarded(arguments, timeout: 20)
            try #require(result != nil, "\(arguments[0]) hung")
            guard let result else { return }
            #expect(result.status == 0, "\(arguments[0]): \(result.stderr)")
            let output = result.stdout + result.stderr
            let skipped = output.split(separator: "\n").filter { $0.contains("skipped") }
            #expect(skipped.contains { $0.contains("fifo.mp3") && $0.contains("is a pipe (FIFO)") }, "\(output)")
            #expect(skipped.contains { $0.contains("/dev/urandom: not opened") }, "\(output)")
            #expect(skipped.contains { $0.contains("/dev/stdin") }, "\(output)")
            if arguments[0] == "play" { #expect(output.contains("radio list.m3u: now \"a\""), "\(output)") }
        }
    }

    /// Issue 31.3, the loop half: a music folder holding ten `ln -s . lN` links spun a core
    /// for 40 s and never started (links followed 8 deep: ~10^8 listings), and `up -> ..`
    /// walked out into the parent tree. Now each folder is listed once and no link leads out.
    @Test func musicFolderSymlinkLoops() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-playlist-loops")
        defer { try? FileManager.default.removeItem(at: dir) }
        let music = dir.appendingPathComponent("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        for file in [music.appendingPathComponent("a.wav"), dir.appendingPathComponent("outside.wav")] { try Self.tone(file, seconds: 3) }
        for i in 0..<10 { try FileManager.default.createSymbolicLink(atPath: music.appendingPathComponent("l\(i)").path, withDestinationPath: ".") }
        try FileManager.default.createSymbolicLink(atPath: music.appendingPathComponent("up").path, withDestinationPath: "..")
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "1s", "layers": { "radio": { "bus": "radio", "sound": "music/" } },
              "cues": [ { "at": 0, "start": "radio" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let result = try Self.runGuarded(["play", path, "-D", "none", "--json"], timeout: 20)
        try #require(result != nil, "play hung on the folder's links")
        guard let result else { return }
        #expect(result.status == 0, "\(result.stderr)")
        let titles = result.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  o["event"] as? String == "radio-title" else { return nil }
            return o["title"] as? String
        }
        #expect(titles == ["a"], "\(result.stdout)")
        #expect(!result.stdout.contains("outside"))
    }
}
