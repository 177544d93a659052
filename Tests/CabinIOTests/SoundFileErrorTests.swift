import CabinAudio
import CabinIO
import CabinTestSupport
import Foundation
import Testing

/// Every kind of bad input gives one line naming the file and the cause, never a crash.
@Suite struct SoundFileErrorTests {
    /// Makes the bad file in `dir` and returns its path.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var make: @Sendable (URL) throws -> String
        var kind: SoundFileError.Kind
        var reason: String
        var testDescription: String { name }
    }

    static func sine(_ dir: URL, _ name: String, _ extra: [String] = []) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16"] + extra + [path, "synth", "2", "sine", "440"])
        return path
    }

    /// Keeps the first `fraction` of the file.
    static func truncate(_ path: String, keeping fraction: Double) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = Int(Double(data.count) * fraction)
        let out = path.replacingOccurrences(of: "sine", with: "cut")
        try data.prefix(bytes).write(to: URL(fileURLWithPath: out))
        return out
    }

    static let cases: [Case] = [
        Case(name: "missing", make: { $0.appendingPathComponent("nope.wav").path },
             kind: .notFound, reason: "no such file"),
        Case(name: "directory", make: { dir in
            let d = dir.appendingPathComponent("folder.wav")
            try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
            return d.path
        }, kind: .isDirectory, reason: "is a directory, not a sound file"),
        Case(name: "empty", make: { dir in
            let p = dir.appendingPathComponent("empty.flac").path
            _ = FileManager.default.createFile(atPath: p, contents: Data())
            return p
        }, kind: .empty, reason: "empty file (0 bytes)"),
        Case(name: "not audio", make: { dir in
            let p = dir.appendingPathComponent("notes.wav").path
            try Data("these are not samples\n".utf8).write(to: URL(fileURLWithPath: p))
            return p
        }, kind: .notAudio, reason: "not a sound file libsndfile can read (Format not recognised.)"),
        Case(name: "truncated WAV", make: { try truncate(try sine($0, "sine.wav"), keeping: 0.25) },
             kind: .truncated, reason: "truncated: the file ends before its audio data does"),
        Case(name: "truncated FLAC", make: { try truncate(try sine($0, "sine.flac"), keeping: 0.3) },
             kind: .truncated, reason: "truncated"),
        Case(name: "truncated Ogg", make: { try truncate(try sine($0, "sine.ogg"), keeping: 0.6) },
             kind: .truncated, reason: "truncated: the stream has no end"),
        Case(name: "unsupported (M4A)", make: { dir in
            let p = dir.appendingPathComponent("song.m4a").path
            let src = try sine(dir, "sine.wav")
            try ExternalTool.check("ffmpeg", ["-loglevel", "error", "-y", "-i", src, "-c:a", "aac", p])
            return p
        }, kind: .unsupportedFormat, reason: "unsupported format: MP4/M4A (AAC or ALAC)"),
    ]

    @Test(arguments: cases)
    func oneLineNamingFileAndCause(_ c: Case) throws {
        let dir = try TestEnvironment.temporaryDirectory()
        let path = try c.make(dir)
        let error = #expect(throws: SoundFileError.self) { try SoundFile.read(path) }
        #expect(error?.kind == c.kind)
        #expect(error?.path == path)
        #expect(error?.reason.hasPrefix(c.reason) == true, "reason was: \(error?.reason ?? "none")")
        #expect(error?.description == "\(path): \(error?.reason ?? "")")
        #expect(error?.description.contains("\n") == false)
    }

    @Test func unreadableIsPermissionDenied() throws {
        guard getuid() != 0 else { return } // root reads everything: nothing to check here
        let dir = try TestEnvironment.temporaryDirectory()
        let path = try Self.sine(dir, "locked.wav")
        chmod(path, 0)
        let error = #expect(throws: SoundFileError.self) { try SoundFile.read(path) }
        #expect(error?.kind == .permissionDenied)
    }
}
