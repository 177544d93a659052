import CabinTestSupport
import Foundation
import Glibc
import Testing

/// What `cabin` will not do to files: write over its own inputs, leave a truncated file on
/// a full disk, or leave temporaries behind after a signal.
@Suite struct OutputSafetyTests {
    static let pattern = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics/engine-start.ahap").path
    static let sounds = TestEnvironment.packageRoot.appendingPathComponent("Sounds").path

    static func long(_ dir: URL) throws -> String {
        let path = dir.appendingPathComponent("s.json").path
        try Data(OutputDestinationTests.session.replacingOccurrences(of: "\"2s\"", with: "\"1h\"").utf8)
            .write(to: URL(fileURLWithPath: path))
        return path
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func anOutputThatIsAnInputIsRefused() throws {
        let (dir, session) = try OutputDestinationTests.folder()
        let hum = dir.appendingPathComponent("hum.wav").path
        #expect(try ExternalTool.cabin(["render", session, "-o", hum]).status == 0)
        let withSound = dir.appendingPathComponent("hum.json").path
        try Data(#"{ "cabin": 1, "duration": "1s", "layers": { "hum": { "bus": "engine", "sound": "hum.wav", "loop": true } }, "cues": [ { "at": 0, "start": "hum" } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: withSound))
        let link = dir.appendingPathComponent("hard.json").path
        #expect(link.withCString { l in session.withCString { Glibc.link($0, l) } } == 0)
        let ahap = dir.appendingPathComponent("p.ahap").path
        try FileManager.default.copyItem(atPath: Self.pattern, toPath: ahap)
        let withPattern = dir.appendingPathComponent("tap.json").path
        try Data(#"{ "cabin": 1, "duration": "1s", "cues": [ { "at": 0, "haptic": "p.ahap" } ] }"#.utf8)
            .write(to: URL(fileURLWithPath: withPattern))
        let before = try [session, hum, withSound, ahap].map(Self.bytes)
        let dotted = dir.path + "/./s.json"
        for (arguments, message) in [
            (["render", session, "-o", dotted], "\(dotted): is the same file as the input \(session)"),
            (["render", link, "-o", session], "\(session): is the same file as the input \(link)"),
            (["render", session, "-o", dir.path + "/x.wav", "--haptics", dotted], "\(dotted): is the same file as the input \(session)"),
            (["render", withSound, "-o", hum], "\(hum): is the same file as the input \(dir.path)/hum.wav"),
            (["render", withPattern, "-o", dir.path + "/x.wav", "--haptics", ahap], "\(ahap): is the same file as the input \(dir.path)/p.ahap"),
            (["haptics", "render", ahap, "-o", ahap], "\(ahap): is the same file as the input \(ahap)"),
            (["haptics", "convert", ahap, "-o", dir.path + "/./p.ahap"], "\(dir.path)/./p.ahap: is the same file as the input \(ahap)"),
            (["haptics", "plot", ahap, "-o", ahap], "\(ahap): is the same file as the input \(ahap)"),
        ] {
            let result = try ExternalTool.cabin(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr == "cabin: error: \(message); write the output to another file\n")
        }
        #expect(try [session, hum, withSound, ahap].map(Self.bytes) == before)
        #expect(try OutputDestinationTests.names(dir) == ["hard.json", "hum.json", "hum.wav", "p.ahap", "s.json", "tap.json"])
    }

    /// A 1 MiB tmpfs (root only; `nil` where mounting is not allowed).
    static func smallDisk() throws -> URL? {
        let dir = try TestEnvironment.temporaryDirectory("cabin-disk")
        guard getuid() == 0, try ExternalTool.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.path]).status == 0 else {
            return nil
        }
        return dir
    }

    @Test func aFullDiskKeepsTheOldFileAndSaysSo() throws {
        guard let disk = try Self.smallDisk() else { return }  // errnoNamesTheRealCause covers the message
        defer { _ = try? ExternalTool.run("umount", [disk.path]) }
        let out = disk.appendingPathComponent("out.wav").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        let sessionDir = try TestEnvironment.temporaryDirectory("cabin-disk-session")
        let session = try Self.long(sessionDir)
        let render = try ExternalTool.cabin(["render", session, "-o", out, "--to", "10s"])
        #expect(render.status == 1)
        #expect(render.stderr == "cabin: error: \(out): cannot write: no space left on the device\n")
        // Nearly full: the short writers fail too, and leave the old file.
        try Data(count: 1_000_000).write(to: disk.appendingPathComponent("filler"))
        let haptics = try ExternalTool.cabin(["haptics", "render", Self.pattern, "-o", out])
        #expect(haptics.status == 1)
        #expect(haptics.stderr == "cabin: error: \(out): cannot write: no space left on the device\n")
        let sound = try ExternalTool.cabin(["sounds", "render", "ui/horn", "-o", out], environment: ["CABIN_SOUNDS": Self.sounds])
        #expect(sound.status == 1)
        #expect(sound.stderr == "cabin: error: \(out): cannot write: no space left on the device\n")
        #expect(try Self.bytes(out) == Data("old".utf8))
        #expect(try OutputDestinationTests.names(disk) == ["filler", "out.wav"])

        #expect(try ExternalTool.run("mount", ["-o", "remount,ro", disk.path]).status == 0)
        let readOnly = try ExternalTool.cabin(["render", session, "-o", out])
        #expect(readOnly.status == 1)
        #expect(readOnly.stderr == "cabin: error: \(out): cannot write: read-only file system\n")
        #expect(readOnly.seconds < 5, "before any rendering")
    }

    /// Issue 31.2: an MP3 render to a full disk (a 200 KB tmpfs) failed silently — exit 0,
    /// its summary line, and a 200,704-byte file holding 11 s of the 120. Now the render,
    /// `sounds render` and `haptics render` say so in one line and leave nothing; so do
    /// FLAC and WAV, in Cabin's words (31.11: not libsndfile's "System error : …").
    @Test func mp3RenderToAFullDisk() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-full")
        guard getuid() == 0, try ExternalTool.run("mount", ["-t", "tmpfs", "-o", "size=200k", "tmpfs", dir.path]).status == 0 else {
            print("mp3RenderToAFullDisk skipped: mounting a tmpfs needs root")
            return
        }
        defer { _ = try? ExternalTool.run("umount", [dir.path]) }
        let full = "cannot write: no space left on the device"
        for name in ["x.mp3", "x.flac", "x.wav"] {
            let out = dir.appendingPathComponent(name).path
            let render = try ExternalTool.cabin(["render", "--preset", "drive", "--to", "2m", "-o", out])
            #expect(render.status == 1, "\(name): \(render.stdout)")
            #expect(render.stderr == "cabin: error: \(out): \(full)\n", "\(name)")
            #expect(render.stdout.isEmpty, "no summary line: \(render.stdout)")
            #expect(try OutputDestinationTests.names(dir) == [], "\(name) leaves nothing")
        }
        // Nearly full: the short writers (a horn, a haptic pattern) meet the full disk too.
        try Data(count: 200_000).write(to: dir.appendingPathComponent("filler"))   // one 4 KiB page left
        let out = dir.appendingPathComponent("x.mp3").path
        let sound = try ExternalTool.cabin(["sounds", "render", "ui/horn", "-o", out], environment: ["CABIN_SOUNDS": Self.sounds])
        #expect(sound.status == 1, "\(sound.stdout)")
        #expect(sound.stderr == "cabin: error: \(out): \(full)\n")
        let haptics = try ExternalTool.cabin(["haptics", "render", Self.pattern, "-o", out])
        #expect(haptics.status == 1, "\(haptics.stdout)")
        #expect(haptics.stderr == "cabin: error: \(out): \(full)\n")
        #expect(try OutputDestinationTests.names(dir) == ["filler"])
    }

    static func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment()
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.5)
        return process
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalDuringRenderLeavesNothing(signal: Int32) throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-signal")
        let session = try Self.long(dir)
        let process = try Self.start(["render", session, "-o", dir.appendingPathComponent("long.wav").path])
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(try OutputDestinationTests.names(dir) == ["s.json"])
    }

    @Test func aKilledRendersTemporaryIsSweptByTheNextWrite() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-kill")
        let session = try Self.long(dir)
        let out = dir.appendingPathComponent("long.wav").path
        let process = try Self.start(["render", session, "-o", out])
        let pid = process.processIdentifier
        kill(pid, SIGKILL)
        process.waitUntilExit()
        #expect(try OutputDestinationTests.names(dir) == [".long.wav.\(pid).cabin-tmp", "s.json"])
        let result = try ExternalTool.cabin(["render", session, "-o", out, "--to", "1s"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try OutputDestinationTests.names(dir) == ["long.wav", "s.json"])
    }
}
