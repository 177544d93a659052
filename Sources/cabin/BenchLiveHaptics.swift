import CabinBench
import CabinHaptics
import CabinPlayback
import CabinSession
import FoundationEssentials

extension Bench {
    /// `--live-haptics`: what following a session live costs the rumble thread, for the
    /// session given or for generated ones with 1, 100 and 500 haptic cues over a road layer.
    func benchLiveHaptics() throws {
        var sessions: [(String, CompiledSession)] = []
        if let session {
            sessions.append((session, try CLISession.load(session, sampleRate: 48000, maxBlockFrames: 512).compiled))
        } else {
            for cues in [1, 100, 500] {
                let list = (0..<cues).map { #"{ "at": "\#(Double($0) * 0.6 + 0.3)s", "haptic": "tick" }"# }.joined(separator: ", ")
                let json = """
                    { "cabin": 1, "duration": "\(Int(Double(cues) * 0.6) + 10)s",
                      "parameters": { "speed": { "value": 40, "min": 0, "max": 80 } },
                      "layers": { "road": { "haptic": "road-rough", "loop": true,
                                            "intensity": { "parameter": "speed", "map": [[0, 0], [80, 1]] } } },
                      "cues": [ { "at": 0, "start": "road" }, \(list) ] }
                    """
                let loaded = try SessionLoader.load(bytes: Array(json.utf8), name: "\(cues)-cues.json",
                                                    folder: URL(fileURLWithPath: CLIPaths.packageFile("Patterns/sessions")),
                                                    sampleRate: 48000, maxBlockFrames: 512, patterns: HapticPatternLibrary.locate())
                sessions.append(("generated: road layer and \(cues) tick cue\(cues == 1 ? "" : "s")", loaded.compiled))
            }
        }
        print("live haptics: following a session as the rumble thread does (50 ms steps), CPU µs per second of session")
        for (name, compiled) in sessions {
            let f = LiveHapticBenchmark.measure(compiled)
            print("  \(name) (\(f.instances) instances, \(Int(compiled.duration)) s)")
            print(String(cFormat: "    live follower (instances picked per step): %8.1f µs/s", f.live))
            print(String(cFormat: "    reference, every instance at every point:  %8.1f µs/s  (%.1f× the follower; largest difference %.1e)",
                         f.everyInstance, f.everyInstance / max(f.live, 1e-9), f.largestDifference))
            print(String(cFormat: "    offline plan's sampling of the timeline:   %8.1f µs/s", f.offline))
        }
    }
}
