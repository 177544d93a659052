import CabinTestSupport
import Foundation
import Testing

/// The real `cabin` against a real PipeWire (a private daemon with a null sink,
/// `PipeWireDaemon`): `-D pipewire[:NODE]`, the default device's choice, the listing, an
/// unknown sink, and the allocation check with PipeWire's callback in the path.
@Suite(.serialized, .enabled(if: PipeWireDaemon.problem == nil, Comment(rawValue: PipeWireDaemon.problem ?? "")))
struct PipeWireCommandTests {
    static func session(seconds: Int) throws -> String {
        let dir = try TestEnvironment.temporaryDirectory("cabin-pwcli")
        let path = dir.appendingPathComponent("s.json").path
        let json = """
            { "cabin": 1, "title": "pw", "duration": "\(seconds)s",
              "layers": { "tone": { "bus": "radio", "sound": "synth:sine?frequency=440", "gain": -12 } },
              "cues": [ { "at": 0, "start": "tone", "mark": "drive" } ] }
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let quiet = ["--no-state", "--no-config", "--no-mpris", "--ipc", "off"]

    @Test func playsOnASinkByItsNodeName() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let dir = try TestEnvironment.temporaryDirectory("cabin-pwcli")
        let path = dir.appendingPathComponent("heard.wav").path
        let recorder = try daemon.record(into: path)
        let result = try ExternalTool.cabin(["play", try Self.session(seconds: 2), "-D", "pipewire:\(PipeWireDaemon.sinkName)"] + Self.quiet,
                                            environment: daemon.environment)
        let heard = try daemon.stopRecording(recorder, path: path)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("playing \"pw\" on pipewire:\(PipeWireDaemon.sinkName): 48000 Hz, 3072×2 frames, FLOAT_LE, ") == true, "\(lines)")
        #expect(lines.last == "0:02  finished (0 underruns)", "\(lines)")
        // The tone as `cabin render` makes it (F32 passes PipeWire unchanged): the same peak.
        let rendered = try ExternalTool.cabin(["render", try Self.session(seconds: 2), "--loudness", "off", "--bits", "32f", "-o", "-"])
        let expected = try PipeWireDaemon.floatSamples(ofWAV: rendered.stdoutBytes)
        #expect(SignalAnalysis.peak(expected) > 0.01)
        #expect(SignalAnalysis.peak(heard) == SignalAnalysis.peak(expected), "peak \(SignalAnalysis.peak(heard)) vs \(SignalAnalysis.peak(expected))")
    }

    /// No -D: PipeWire when its daemon answers, else ALSA's default (the paced test sink
    /// here), said in the first line.
    @Test func theDefaultIsPipeWireWhenItsDaemonAnswers() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let path = try Self.session(seconds: 1)
        let through = try ExternalTool.cabin(["play", path] + Self.quiet, environment: daemon.environment)
        #expect(through.status == 0, "\(through.stderr)")
        #expect(through.stdout.hasPrefix("playing \"pw\" on pipewire: 48000 Hz"), "\(through.stdout)")
        if PacedSink.isReady {
            let without = try ExternalTool.cabin(["play", path] + Self.quiet)
            #expect(without.status == 0, "\(without.stderr)")
            #expect(without.stdout.hasPrefix("playing \"pw\" on default: 48000 Hz"), "\(without.stdout)")
        }
    }

    @Test func anUnknownSinkIsOneLine() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let result = try ExternalTool.cabin(["play", try Self.session(seconds: 1), "-D", "pipewire:no-such-sink"] + Self.quiet,
                                            environment: daemon.environment)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr == "cabin: error: audio device \"pipewire:no-such-sink\": not found (target.object: no PipeWire sink has this node.name); list playback devices with 'cabin devices'\n")
    }

    @Test func noDaemonIsOneLine() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-pwcli")
        let result = try ExternalTool.cabin(["play", try Self.session(seconds: 1), "-D", "pipewire"] + Self.quiet,
                                            environment: ["PIPEWIRE_RUNTIME_DIR": dir.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("cabin: error: audio device \"pipewire\": no sound server answers (pw_context_connect: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func devicesListsTheSinkUnderThePipeWireHeading() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let result = try ExternalTool.cabin(["devices"], environment: daemon.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("pipewire: ") }, "\(lines)")
        let section = Array(lines[heading...].prefix { !$0.isEmpty })
        #expect(section.contains("pipewire"), "\(section)")
        let sink = try #require(section.firstIndex(of: "pipewire:\(PipeWireDaemon.sinkName)"), "\(section)")
        #expect(section[sink + 1] == "    \(PipeWireDaemon.sinkDescription)")
        let json = try ExternalTool.cabin(["devices", "--json"], environment: daemon.environment)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: String]])
        #expect(listed.contains { $0["name"] == "pipewire:\(PipeWireDaemon.sinkName)" && $0["scheme"] == "pipewire"
            && $0["description"] == PipeWireDaemon.sinkDescription }, "\(listed)")
    }

    /// PipeWire's data thread, where the pull driver renders in the process callback,
    /// allocates nothing in steady state (counted by malloc-interposer, LD_PRELOADed).
    @Test func theProcessCallbackAllocatesNothing() throws {
        let daemon = try PipeWireDaemon()
        defer { daemon.stop() }
        let result = try ExternalTool.run(AllocationTests.checker,
                                          ["--pipewire", daemon.socketPath, "--target", PipeWireDaemon.sinkName, "--seconds", "4"],
                                          environment: ["LD_PRELOAD": AllocationTests.interposer])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("cabin-pw-data thread: allocations: 0\n"), "\(result.stdout)")
    }
}
