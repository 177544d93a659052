import CabinTestSupport
import Foundation
import Testing

/// `cabin play` with no sound device: the session on the system clock, everything but the
/// sound, exit 0.
@Suite struct SilentPlayTests {
    static func session(seconds: Int) throws -> String {
        let dir = try TestEnvironment.temporaryDirectory("cabin-silent")
        let path = dir.appendingPathComponent("s.json").path
        let json = """
            { "cabin": 1, "title": "silent", "duration": "\(seconds)s",
              "layers": { "rain": { "bus": "ambient", "sound": "synth:pink-noise", "loop": true } },
              "cues": [ { "at": 0, "start": "rain", "mark": "drive" }, { "at": "\(seconds / 2)s", "mark": "rest" } ] }
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An ALSA configuration with nothing in it: no card, no server, no `default`.
    static func noSoundDevices() throws -> [String: String] {
        let dir = try TestEnvironment.temporaryDirectory("cabin-silent")
        let empty = dir.appendingPathComponent("asound.conf").path
        try Data("\n".utf8).write(to: URL(fileURLWithPath: empty))
        return ["ALSA_CONFIG_PATH": empty]
    }

    /// The case: `cabin play` on a machine with no sound device plays a 10 s session
    /// silently in 10 s ± 0.5 and exits 0; `-D none` asks for the same anywhere.
    @Test(arguments: [false, true])
    func aTenSecondSessionPlaysSilentlyInTenSeconds(explicitly: Bool) throws {
        let path = try Self.session(seconds: 10)
        // A deep buffer: the silent clock counts an underrun like a card when the machine
        // (2 cores, the other tests beside it) keeps the player from writing for 16 ms.
        let result = try ExternalTool.cabin(["play", path, "--period", "1024", "--periods", "4"] + (explicitly ? ["-D", "none"] : []),
                                            environment: explicitly ? [:] : try Self.noSoundDevices())
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("playing \"silent\" on none: 48000 Hz, 1024×4 frames") == true, "\(lines)")
        #expect(lines.contains("0:05  rest"))
        #expect(lines.last == "0:10  finished (0 underruns)")
        let reason = explicitly ? "-D none" : "no sound device (no sound card, no sound server)"
        #expect(result.stderr == "cabin: \(reason): playing silently on the system clock; to hear it, render it: cabin render \(path) -o s.wav\n")
        // Launch, load and exit included: 10 s ± 0.5.
        #expect(abs(result.seconds - 10) < 0.5, "took \(result.seconds) s")
    }

    @Test func noSoundDeviceAtAllFallsBackToTheSystemClock() throws {
        let path = try Self.session(seconds: 2)
        let result = try ExternalTool.cabin(["play", path, "--json"], environment: try Self.noSoundDevices())
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("cabin: no sound device (no sound card, no sound server): playing silently on the system clock; to hear it, render it: cabin render "))
        #expect(result.stderr.split(separator: "\n").count == 1)
        let events = result.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.first?["device"] as? String == "none")
        #expect(events.compactMap { $0["name"] as? String } == ["drive", "rest"])
        #expect(events.last?["reason"] as? String == "finished")
        #expect(result.seconds > 1.8 && result.seconds < 3, "took \(result.seconds) s")
    }

    /// MPRIS is off when there is no session bus — none named, or one that is not there —
    /// and that is never a reason to fail or to say more.
    @Test(arguments: [nil, "unix:path=/nonexistent/cabin-test/bus"])
    func withoutASessionBusItStillPlays(address: String?) throws {
        let path = try Self.session(seconds: 2)
        let result = try ExternalTool.cabin(["play", path, "-D", "none", "--period", "1024", "--periods", "4"],
                                            environment: address.map { ["DBUS_SESSION_BUS_ADDRESS": $0] } ?? [:],
                                            unset: address == nil ? ["DBUS_SESSION_BUS_ADDRESS"] : [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "cabin: -D none: playing silently on the system clock; to hear it, render it: cabin render \(path) -o s.wav\n")
        #expect(result.stdout.split(separator: "\n").last == "0:02  finished (0 underruns)")
        #expect(result.seconds > 1.8 && result.seconds < 3, "took \(result.seconds) s")
    }
}
