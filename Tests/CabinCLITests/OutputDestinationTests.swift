import CabinIO
import CabinTestSupport
import Foundation
import Glibc
import Testing

/// Where `cabin render -o` writes: regular files through a temporary, devices, FIFOs and
/// standard output streamed to, symlinks' targets; and what it says when it cannot.
@Suite struct OutputDestinationTests {
    /// 2 s of stereo noise: a 16-bit WAV of 384 044 bytes.
    static let session = """
        { "cabin": 1, "title": "Short", "duration": "2s",
          "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
          "cues": [ { "at": 0, "start": "rain" } ] }
        """
    static let wavBytes = 384_044

    static func folder(_ session: String = Self.session) throws -> (dir: URL, session: String) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-output")
        let path = dir.appendingPathComponent("s.json").path
        try Data(session.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    static func names(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    static func mode(_ path: String, follow: Bool = false) -> mode_t {
        var info = stat()
        let status = follow ? stat(path, &info) : lstat(path, &info)
        return status == 0 ? info.st_mode & S_IFMT : 0
    }

    /// Runs the real binary with `stdin`, keeping stdout as bytes (it may be a WAV).
    static func cabinRaw(_ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: Data, stderr: String) {
        let result = try ExternalTool.run(ExternalTool.cabinBinary, arguments, stdin: stdin)
        return (result.status, result.stdoutBytes, result.stderr)
    }

    @Test func devNullStaysACharacterDevice() throws {
        let (dir, session) = try Self.folder()
        let result = try ExternalTool.cabin(["render", session, "-o", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("/dev/null: 0:02.000 of Short at 48000 Hz (WAV 16-bit), rendered in "))
        #expect(Self.mode("/dev/null") == S_IFCHR)
        #expect(try Self.names(URL(fileURLWithPath: "/dev")).allSatisfy { !$0.hasSuffix("cabin-tmp") })
        #expect(try Self.names(dir) == ["s.json"])
    }

    @Test func aSymlinksTargetIsWrittenAndTheLinkStays() throws {
        let (dir, session) = try Self.folder()
        let target = dir.appendingPathComponent("target.wav").path, link = dir.appendingPathComponent("link.wav").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.wav")
        let result = try ExternalTool.cabin(["render", session, "-o", link])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.mode(link) == S_IFLNK)
        let data = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(data.count == Self.wavBytes && data.prefix(4) == Data("RIFF".utf8))
        #expect(try Self.names(dir) == ["link.wav", "s.json", "target.wav"])
    }

    @Test func aFIFOsReaderGetsTheStream() throws {
        let (dir, session) = try Self.folder()
        let fifo = dir.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        nonisolated(unsafe) var received = Data()
        let reader = Thread { received = FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data() }
        reader.start()
        let result = try ExternalTool.cabin(["render", session, "-o", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        while reader.isExecuting || !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(received.count == Self.wavBytes && received.prefix(4) == Data("RIFF".utf8))
        #expect(Self.mode(fifo) == S_IFIFO)
        #expect(try Self.names(dir) == ["pipe.wav", "s.json"])
    }

    @Test func unwritableDestinationsFailAtOnceInOneLine() throws {
        // An hour of noise: each failure must come before any rendering.
        let (dir, session) = try Self.folder(Self.session.replacingOccurrences(of: "\"2s\"", with: "\"1h\""))
        let file = dir.appendingPathComponent("file.txt").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: file))
        for (output, message) in [
            (dir.path, "\(dir.path): is a directory; give a file name"),
            (dir.path + "/missing/x.wav", "\(dir.path)/missing/x.wav: cannot write: no such folder \(dir.path)/missing"),
            (file + "/x.wav", "\(file)/x.wav: cannot write: a part of the path is not a folder"),
        ] {
            let result = try ExternalTool.cabin(["render", session, "-o", output])
            #expect(result.status == 1)
            #expect(result.stderr == "cabin: error: \(message)\n")
            #expect(result.stdout.isEmpty)
            #expect(result.seconds < 5, "no rendering first")
        }
        #expect(try Self.names(dir) == ["file.txt", "s.json"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("keep".utf8))
    }

    @Test func standardOutputGetsTheWAVAndStandardInputTheDocument() throws {
        let (dir, session) = try Self.folder()
        let toStdout = try Self.cabinRaw(["render", session, "-o", "-"])
        #expect(toStdout.status == 0, "\(toStdout.stderr)")
        #expect(toStdout.stdout.count == Self.wavBytes && toStdout.stdout.prefix(4) == Data("RIFF".utf8))
        #expect(toStdout.stderr.hasPrefix("standard output: 0:02.000 of Short at 48000 Hz (WAV 16-bit), rendered in "))

        let out = dir.appendingPathComponent("from-stdin.wav").path
        let fromStdin = try Self.cabinRaw(["render", "-", "-o", out], stdin: Data(Self.session.utf8))
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(String(decoding: fromStdin.stdout, as: UTF8.self).hasPrefix("\(out): 0:02.000 of Short at 48000 Hz"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == toStdout.stdout, "the same bits")

        if ExternalTool.which("script") != nil {  // util-linux: a terminal as stdout
            let tty = try ExternalTool.run("script", ["-qec", "\(ExternalTool.cabinBinary) render \(session) -o -", "/dev/null"])
            #expect(tty.status == 1)
            #expect(tty.stdout == "cabin: error: standard output: is a terminal; redirect it to a file or a pipe (> out.wav, | aplay)\r\n")
        }

        let broken = try Self.cabinRaw(["render", "-", "-o", "-"], stdin: Data("{ nope".utf8))
        #expect(broken.status == 1 && broken.stdout.isEmpty)
        #expect(broken.stderr.hasPrefix("-:1:3: error: "), "\(broken.stderr)")
        #expect(try Self.names(dir) == ["from-stdin.wav", "s.json"])
    }

    @Test func errnoNamesTheRealCause() {
        #expect(OutputError("a.wav", code: ENOSPC).description == "a.wav: cannot write: no space left on the device")
        #expect(OutputError("a.wav", code: EROFS).description == "a.wav: cannot write: read-only file system")
        #expect(OutputError("a.wav", code: EACCES).description == "a.wav: cannot write: permission denied")
        #expect(OutputError("a.wav", code: EISDIR).description == "a.wav: is a directory; give a file name")
        #expect(OutputError("a.wav", code: EDQUOT).description == "a.wav: cannot write: disk quota exceeded")
    }
}
