import CabinTestSupport
import Foundation
import Glibc
import Testing

/// What `cabin` will not do to files: leave a truncated file on a full disk.
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
}
