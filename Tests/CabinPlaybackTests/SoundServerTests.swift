import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// Against a real PulseAudio server (`../shared/tools/audio-sink start pulse`): playback
/// survives the server being killed and restarted mid-play.
@Suite(.serialized, .enabled(if: TestEnvironment.audioSinkBackend == "pulse",
                             "needs the PulseAudio sink: ../shared/tools/audio-sink start pulse"))
struct SoundServerTests {
    static let sinkDirectory = ProcessInfo.processInfo.environment["AUDIO_SINK_DIR"] ?? "/tmp/ci-audio-sink"

    /// Kills the PulseAudio daemon and starts it again with the same command line and
    /// environment after `gap` seconds; records the new pid for `audio-sink stop`.
    static func restartServer(after gap: Double) throws {
        let pidFile = sinkDirectory + "/pulseaudio.pid"
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let argv = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let environ = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ")).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let cwd = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")
        kill(pid, SIGKILL)
        Thread.sleep(forTimeInterval: gap)
        // The killed daemon may linger as a zombie, which its pid file would make the new
        // one take for a running server.
        unlink(sinkDirectory + "/pulse/pid")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = argv
        process.currentDirectoryURL = URL(fileURLWithPath: cwd)
        process.environment = Dictionary(environ.compactMap { line -> (String, String)? in
            guard let eq = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<eq]), String(line[line.index(after: eq)...]))
        }, uniquingKeysWith: { a, _ in a })
        let log = FileHandle(forWritingAtPath: sinkDirectory + "/pulseaudio.log") ?? FileHandle.nullDevice
        log.seekToEndOfFile()
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 0.3)
        let newPid = try ExternalTool.run("/usr/bin/pgrep", ["-n", "-x", "pulseaudio"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data((newPid + "\n").utf8).write(to: URL(fileURLWithPath: pidFile))
    }

    @Test func killedAndRestartedServerIsSurvived() throws {
        let json = """
            { "cabin": 1, "duration": "12s",
              "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": 0, "start": "rain", "mark": "drive" }, { "at": "10s", "mark": "late" } ] }
            """
        let doc = try #require(SessionReader.read(json, file: "pulse.json").document)
        let compiled = SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 48000, maxBlockFrames: 256)
        let player = try LivePlayer(session: compiled, options: .init(device: "default"))
        let start = Date()
        try player.start()
        var events: [PlayerEvent] = []
        var restarted = false
        var restoredAt: Double?
        while !player.isFinished {
            let now = Date().timeIntervalSince(start)
            let fresh = player.poll()
            if restoredAt == nil, fresh.contains(where: { if case .deviceRestored = $0 { true } else { false } }) { restoredAt = now }
            events += fresh
            if now > 3 && !restarted {
                restarted = true
                try Self.restartServer(after: 1.5)
            }
            usleep(20_000)
        }
        player.waitUntilFinished()
        events += player.poll()
        let wall = Date().timeIntervalSince(start)

        #expect(events.contains { if case .deviceError = $0 { true } else { false } }, "\(events)")
        let restored = events.compactMap { if case .deviceRestored(let t) = $0 { t } else { nil } }
        #expect(restored.count == 1, "\(events)")
        // The session kept time through the outage: it resumed where the wall clock stood.
        if let t = restored.first, let wallAtRestore = restoredAt { #expect(abs(t - wallAtRestore) < 1.0, "resumed at \(t) s, wall \(wallAtRestore) s") }
        #expect(events.compactMap { if case .mark(let n, _, _) = $0 { n } else { nil } }.contains("late"))
        #expect(events.last.map { if case .ended(.finished, _, _) = $0 { true } else { false } } == true, "\(events)")
        #expect(abs(wall - 12) < 1.0, "took \(wall) s")
    }

    @Test func playsThroughTheServer() throws {
        let json = #"{ "cabin": 1, "duration": "2s", "layers": { "t": { "bus": "voice", "sound": "synth:sine?frequency=440" } }, "cues": [ { "at": 0, "start": "t" } ] }"#
        let doc = try #require(SessionReader.read(json, file: "p.json").document)
        let compiled = SessionCompiler.compile(doc, sounds: ResolvedSounds(), sampleRate: 48000, maxBlockFrames: 256)
        let player = try LivePlayer(session: compiled, options: .init(device: "default"))
        let start = Date()
        try player.start()
        player.waitUntilFinished()
        let events = player.poll()
        #expect(abs(Date().timeIntervalSince(start) - 2) < 0.3)
        #expect(events.last.map { if case .ended(.finished, _, _) = $0 { true } else { false } } == true, "\(events)")
    }
}
