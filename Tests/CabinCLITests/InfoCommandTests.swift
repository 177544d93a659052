import CabinTestSupport
import Foundation
import Testing

/// `cabin info` run as the real binary.
@Suite struct InfoCommandTests {
    static func makeFiles() throws -> (dir: URL, wav: String, opus: String) {
        let dir = try TestEnvironment.temporaryDirectory("cabin-cli")
        let wav = dir.appendingPathComponent("tone.wav").path
        let opus = dir.appendingPathComponent("tone.opus").path
        // EBU Tech 3341 case 1: stereo 1 kHz at −23 dBFS, 20 s → −23.0 LUFS.
        try ExternalTool.check("sox", ["-n", "-r", "48000", "-c", "2", "-b", "24", wav,
                                       "synth", "20", "sine", "1000", "vol", "-23dB"])
        try ExternalTool.check("opusenc", ["--quiet", wav, opus])
        return (dir, wav, opus)
    }

    @Test func printsFormatLengthAndLoudness() throws {
        let files = try Self.makeFiles()
        let result = try ExternalTool.cabin(["info", files.wav])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            files.wav,
            "  format       WAVEX (Microsoft) (WAVEX/PCM_24)",
            "  channels     2",
            "  sample rate  48000 Hz",
            "  frames       960000",
            "  duration     0:20.000 (20.000 s)",
            "  loudness     -23.0 LUFS integrated",
            "  true peak    -23.0 dBTP",
            "  range        0.0 LU",
        ])
    }

    @Test func jsonForScripts() throws {
        let files = try Self.makeFiles()
        let result = try ExternalTool.cabin(["info", "--json", files.wav, files.opus])
        #expect(result.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 2)
        #expect(array[1]["container"] as? String == "OGG")
        #expect(array[1]["encoding"] as? String == "OPUS")
        #expect(array[1]["frames"] as? Int == 960000)
        let loudness = try #require(array[0]["loudness"] as? [String: Any])
        let integrated = try #require(loudness["integrated"] as? Double)
        #expect(abs(integrated + 23) < 0.1)
    }

    @Test func badFilesGiveOneLineEachAndExit1() throws {
        let files = try Self.makeFiles()
        let text = files.dir.appendingPathComponent("readme.txt").path
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: text))
        let missing = files.dir.appendingPathComponent("missing.flac").path
        let result = try ExternalTool.cabin(["info", missing, files.wav, text])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "cabin: error: \(missing): no such file",
            "cabin: error: \(text): not a sound file libsndfile can read (Format not recognised.)",
        ])
        #expect(result.stdout.hasPrefix(files.wav + "\n"), "the good file is still shown")
        #expect(!result.stderr.contains("Fatal error"))
    }

    /// Devices and pipes are named for what they are (they used to be "empty file"), and a
    /// cut-off MP3 is not "possibly a pipe".
    @Test func devicesPipesAndCutFilesAreNamedForWhatTheyAre() throws {
        let files = try Self.makeFiles()
        let fifo = files.dir.appendingPathComponent("pipe.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let mp3 = files.dir.appendingPathComponent("tone.mp3").path, cut = files.dir.appendingPathComponent("cut.mp3").path
        try ExternalTool.check("ffmpeg", ["-loglevel", "error", "-y", "-i", files.wav, mp3])
        try Data(try Data(contentsOf: URL(fileURLWithPath: mp3)).prefix(60)).write(to: URL(fileURLWithPath: cut))
        let result = try ExternalTool.cabin(["info", "/dev/zero", fifo, cut])
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("cabin: error: ") }
        #expect(errors == [
            "cabin: error: /dev/zero: is a device, not a sound file",
            "cabin: error: \(fifo): is a pipe (FIFO), not a sound file: Cabin reads sound files whole; save the stream to a file first",
            "cabin: error: \(cut): not audio libsndfile can read, or cut short (60 bytes)",
        ])
    }
}

/// The front door: help, version, devices.
@Suite struct CommandLineTests {
    @Test func helpListsEverySubcommandWithExamples() throws {
        let result = try ExternalTool.cabin(["--help"])
        #expect(result.status == 0)
        for sub in ["play", "render", "session", "haptics", "info", "devices", "bench"] { #expect(result.stdout.contains("\n  \(sub) ")) }
        #expect(result.stdout.contains("Examples:"))
    }

    /// A sound server that is not running is one line that says so, for every command
    /// that plays (ALSA's PulseAudio plugin ends its message with a newline).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/alsa-lib/libasound_module_pcm_pulse.so"),
                   "needs ALSA's PulseAudio plugin (libasound2-plugins)"))
    func noSoundServerIsOneLine() throws {
        let environment = ["PULSE_SERVER": "unix:/nonexistent/cabin-test-no-server", "ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf"]
        let pattern = TestEnvironment.packageRoot.appendingPathComponent("Patterns/haptics/tick.ahap").path
        for arguments in [["sounds", "play", "ui/seatbelt", "-D", "pulse"], ["haptics", "play", pattern, "--audio", "-D", "pulse"],
                          ["play", "--preset", "pomodoro", "-D", "pulse"]] {
            let result = try ExternalTool.cabin(arguments, environment: environment)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasSuffix("start PulseAudio or PipeWire, pick a device from 'cabin devices', or play silently with -D none\n"),
                    "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("no sound server answers"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }

    @Test func unknownOptionIsUsageErrorNotCrash() throws {
        let result = try ExternalTool.cabin(["info", "x.wav", "--bogus"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Error: Unknown option '--bogus'"))
    }

    @Test func devicesListsTheSinkOrSaysThereIsNone() throws {
        _ = TestEnvironment.pacedSinkReady   // the same ALSA configuration for cabin and aplay
        let result = try ExternalTool.cabin(["devices"])
        #expect(result.status == 0)
        let aplay = try ExternalTool.check("aplay", ["-L"]).stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        for name in aplay { #expect(result.stdout.contains("\(name)\n")) }
        if TestEnvironment.pacedSinkReady {
            #expect(result.stdout.contains("cabintest\n    Cabin's paced test sink"))
        }
        let hasDevice = aplay.contains { $0 == "default" || $0.hasPrefix("hw:") || $0.hasPrefix("plughw:") }
        #expect(result.stdout.contains("No sound card or sound server is set up for ALSA") == !hasDevice)
        #expect(result.stdout.contains("Rumble devices (evdev force feedback"))
    }

    /// Issue 29: the devices come from the output registry, a heading per backend; `none`
    /// is listed and plays, and `alsa:NAME` names the same ALSA device as NAME.
    @Test func devicesListsEveryBackendOfTheRegistry() throws {
        let result = try ExternalTool.cabin(["devices"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("alsa: ALSA devices"))
        #expect(result.stdout.contains("\nnone: no sound: the session plays on the system clock\nnone\n"))
        let json = try ExternalTool.cabin(["devices", "--json"])
        #expect(json.stdout.contains("\"scheme\" : \"none\"") || json.stdout.contains("\"scheme\":\"none\""), "\(json.stdout)")
        let silent = try ExternalTool.cabin(["play", "-D", "none:", "--preset", "quest", "--seconds", "10", "--to", "1s", "--no-state", "--no-config"])
        #expect(silent.status == 0, "\(silent.stderr)")
        let unknown = try ExternalTool.cabin(["play", "-D", "alsa:cabin-no-such-device", "--preset", "quest", "--seconds", "10", "--to", "1s",
                                               "--no-state", "--no-config"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("audio device \"cabin-no-such-device\""), "\(unknown.stderr)")
    }
}
