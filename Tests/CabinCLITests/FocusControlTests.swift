import CabinTestSupport
import Foundation
import Testing

/// `cabin ctl trigger leave-focus` on a session with `"focus"`: the real binary playing with
/// no sound (`-D none`), the speed falling and coming back.
@Suite(.serialized)
struct FocusControlTests {
    @Test func ctlTriggersLeaveAndReturnFocus() throws {
        let dir = try TestEnvironment.temporaryDirectory("cabin-ctl-focus")
        let path = dir.appendingPathComponent("s.json").path
        try Data("""
            { "cabin": 1, "title": "focus", "duration": "30s",
              "parameters": { "speed": { "value": 60, "min": 0, "max": 80 } },
              "focus": { "away": 15, "fall": "200ms", "rise": "200ms" },
              "layers": { "engine": { "bus": "engine", "sound": "synth:brown-noise", "loop": true } },
              "cues": [ { "at": 0, "start": "engine", "mark": "drive" } ] }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let socket = dir.appendingPathComponent("control").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.cabinBinary)
        process.environment = ExternalTool.childEnvironment()
        process.arguments = ["play", path, "-D", "none", "--ipc", socket, "--json"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() }; process.waitUntilExit() }
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let ipc = ["--ipc", socket]
        func speed() throws -> Double? {
            let json = try ExternalTool.cabin(["ctl"] + ipc + ["status", "--json"])
            let status = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            return ((status?["parameters"] as? [String: Any])?["speed"] as? NSNumber)?.doubleValue
        }
        #expect(try speed() == 60)
        let leave = try ExternalTool.cabin(["ctl"] + ipc + ["trigger", "leave-focus"])
        #expect(leave.status == 0, "\(leave.stderr)")
        #expect(try speed() == 15)
        let back = try ExternalTool.cabin(["ctl"] + ipc + ["trigger", "return-focus"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try speed() == 60)
        let wrong = try ExternalTool.cabin(["ctl"] + ipc + ["trigger", "nap"])
        #expect(wrong.stderr == "cabin: error: no live event 'nap' in this session (it has: leave-focus, return-focus)\n")
        #expect(try ExternalTool.cabin(["ctl"] + ipc + ["quit"]).status == 0)
        process.waitUntilExit()
        let lines = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(lines.contains(#""event":"trigger""#) || lines.contains(#""event": "trigger""#), "\(lines)")
    }
}
