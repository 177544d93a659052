import CabinTestSupport
import Foundation
import Testing

/// The render path allocates nothing in steady state: `cabin-alloc-check` renders with
/// malloc/free counted by ordo-one/malloc-interposer (LD_PRELOADed into its own process).
@Suite struct AllocationTests {
    static var buildDirectory: URL { URL(fileURLWithPath: ExternalTool.cabinBinary).deletingLastPathComponent() }
    static var checker: String { buildDirectory.appendingPathComponent("cabin-alloc-check").path }
    static var interposer: String { buildDirectory.appendingPathComponent("libMallocInterposerSwift.so").path }

    @Test(arguments: [64, 512])
    func steadyStateRenderingAllocatesNothing(block: Int) throws {
        let result = try ExternalTool.run(Self.checker, ["--seconds", "30", "--block", "\(block)"],
                                          environment: ["LD_PRELOAD": Self.interposer])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("rendered: 30.0 s in blocks of \(block) frames"))
        #expect(result.stdout.contains("allocations: 0 (0 bytes), frees: 0"))
    }

    /// The mixer alone under stress: a voice stolen every 20 ms, the limiter working hard.
    @Test func mixerUnderStressAllocatesNothing() throws {
        let result = try ExternalTool.run(Self.checker, ["--mixer-stress"], environment: ["LD_PRELOAD": Self.interposer])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(": 0 mallocs, 0 frees in steady state"))
    }

    /// The example session of docs/SESSION-FORMAT.md, with whatever sounds the library has.
    @Test func specExampleSessionAllocatesNothing() throws {
        let spec = try String(contentsOf: TestEnvironment.packageRoot.appendingPathComponent("docs/SESSION-FORMAT.md"),
                              encoding: .utf8)
        let json = spec.components(separatedBy: "```json\n")[1].components(separatedBy: "```")[0]
        let dir = try TestEnvironment.temporaryDirectory("cabin-alloc")
        let path = dir.appendingPathComponent("example.json").path
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.run(Self.checker, [path, "--seconds", "20"],
                                          environment: ["LD_PRELOAD": Self.interposer])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("allocations: 0 (0 bytes), frees: 0"))
    }

    /// A playlist on the radio (its tracks decoded into the stream ahead): the stream voice
    /// playing the user's music allocates nothing.
    @Test func playlistSessionAllocatesNothing() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-alloc")
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, f) in [("a.flac", 300), ("b.wav", 700)] {
            _ = try ExternalTool.check("sox", ["-n", "-r", "44100", "-c", "2", dir.appendingPathComponent(name).path,
                                               "synth", "4", "sine", "\(f)", "vol", "0.3"])
        }
        try Data("a.flac\nb.wav\n".utf8).write(to: dir.appendingPathComponent("l.m3u"))
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "10s", "layers": { "radio": { "bus": "radio", "sound": "l.m3u", "loop": true,
              "playlist": { "crossfade": "1s" } } }, "cues": [ { "at": 0, "start": "radio", "fadeIn": "2s" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.run(Self.checker, [path, "--seconds", "8"], environment: ["LD_PRELOAD": Self.interposer])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("allocations: 0 (0 bytes), frees: 0"), "\(result.stdout)")
        #expect(result.stdout.contains("title(url: \"l.m3u\", title: \"b\")"), "\(result.stdout)")
        #expect(result.stdout.contains("peak 0.") && !result.stdout.contains("peak 0.000"), "\(result.stdout)")
    }

    /// A haptics device following the session live: a haptic layer whose intensity follows a
    /// ramping parameter, transients, and `leave-focus` haptics started live.
    @Test func liveHapticTrackAllocatesNothing() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-alloc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "duration": "12s",
              "parameters": { "speed": { "value": 20, "min": 0, "max": 80 } },
              "layers": { "road": { "haptic": "road-rough", "loop": true,
                                    "intensity": { "parameter": "speed", "map": [[0, 0], [80, 1]] } } },
              "focus": { "away": 0 },
              "cues": [ { "at": 0, "start": "road" }, { "at": "1.5s", "set": "speed", "to": 80, "over": "3s" },
                        { "at": "3s", "haptic": "tick" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let result = try ExternalTool.run(Self.checker, [path, "--seconds", "9"], environment: ["LD_PRELOAD": Self.interposer])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("allocations: 0 (0 bytes), frees: 0"), "\(result.stdout)")
        #expect(result.stdout.contains("haptics device track (live): largest sample 0.") && !result.stdout.contains("largest sample 0.000,"),
                "\(result.stdout)")
        #expect(result.stdout.contains("live cues dropped 0"), "\(result.stdout)")
    }

    /// The checker does catch allocations: one injected per block is counted and fails it.
    @Test func catchesAnAllocationInTheRenderLoop() throws {
        let result = try ExternalTool.run(Self.checker, ["--seconds", "1", "--block", "480", "--inject-allocation"],
                                          environment: ["LD_PRELOAD": Self.interposer])
        #expect(result.status == 1)
        #expect(result.stdout.contains("allocations: 100 ("), "\(result.stdout)")
        #expect(result.stdout.contains("frees: 100"))
    }
}
