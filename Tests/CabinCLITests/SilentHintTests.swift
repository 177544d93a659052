import CabinTestSupport
import Foundation
import Testing

/// The line `cabin play` prints when it plays silently names the `cabin render` command that
/// writes the sound: one a shell runs as printed, whatever the session's path holds.
@Suite struct SilentHintTests {
    static let prefix = "cabin: -D none: playing silently on the system clock"

    @Test func theHintIsACommandAShellRuns() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-hint").appendingPathComponent("it's here")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let session = dir.appendingPathComponent("focus drive.json").path
        try Data(#"{ "cabin": 1, "duration": "1s", "layers": { "a": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } } }"#.utf8)
            .write(to: URL(fileURLWithPath: session))
        let play = try ExternalTool.cabin(["play", session, "-D", "none"])
        #expect(play.status == 0, "\(play.stderr)")
        let quoted = "'" + session.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        #expect(play.stderr == "\(Self.prefix); to hear it, render it: cabin render \(quoted) -o 'focus drive.wav'\n")
        // Run the hint as printed (in a scratch folder) and get the file it names.
        let command = try #require(play.stderr.components(separatedBy: "render it: cabin ").last?.dropLast())
        let out = try TestEnvironment.temporaryDirectory("cabin-hint-out")
        let run = try ExternalTool.run("/bin/sh", ["-c", "cd '\(out.path)' && '\(ExternalTool.cabinBinary)' \(command)"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("focus drive.wav").path))
    }

    @Test func presetsAreNamedPlainlyAndSoundFilesNeedNoRender() throws {
        let preset = try ExternalTool.cabin(["play", "--preset", "drive", "--minutes", "25", "--to", "0.2s", "-D", "none"])
        #expect(preset.stderr == "\(Self.prefix); to hear it, render it: cabin render --preset drive --minutes 25 -o drive.wav\n")
        let dir = try TestEnvironment.temporaryDirectory("cabin-hint")
        let wav = dir.appendingPathComponent("tone.wav").path
        #expect(try ExternalTool.run("sox", ["-n", "-r", "48000", "-c", "2", wav, "synth", "0.3", "sine", "440"]).status == 0)
        let sound = try ExternalTool.cabin(["play", wav, "-D", "none"])
        #expect(sound.status == 0, "\(sound.stderr)")
        #expect(sound.stderr == "\(Self.prefix)\n", "a sound file is already sound")
    }
}
