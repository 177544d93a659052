import CabinAudio
import CabinIO
import CabinOutput
import CabinPlayback
import CabinRemote
import CabinTesting
import CabinSession
import CabinTestSupport
import Foundation
import Testing

/// The MPRIS object model on its own: what the properties say for a player's status, which
/// changes are signalled, and what each call asks of the player (the bus and `playerctl`
/// are `MPRISTests`).
@Suite struct MPRISStateTests {
    static func state(_ state: PlayerStatus.State = .playing, mark: String? = "drive", volume: PlayerVolumes = PlayerVolumes(),
                      stations: Bool = false, position: Double = 12.5) -> MPRISState {
        MPRISState(status: .init(state), title: "Drive to Yosemite", segment: mark, duration: 1500, position: position,
                   volume: MPRISState.volume(volume), canSwitchStations: stations)
    }

    static let player = MPRISState.playerInterfaceName
    static let root = MPRISState.rootInterfaceName

    /// Issue 31.1: a document's title and mark with escapes and newlines reach MPRIS's
    /// `xesam:title` as one line without control characters.
    @Test func terminalEscapeInjectionIsKeptOutOfTheMetadata() {
        let s = MPRISState(status: .playing, title: "Drive\u{1B}]0;PWNED\u{07}\nnow", segment: "rest\u{9B}2J\r",
                           duration: 10, position: 0, volume: 1, canSwitchStations: false)
        #expect(s.value(of: "Metadata", in: Self.player)?["xesam:title"] == .string("Drive ]0;PWNED now · rest 2J"))
    }

    @Test func propertiesOfAPlayingSession() {
        let s = Self.state()
        #expect(s.value(of: "PlaybackStatus", in: Self.player) == .string("Playing"))
        #expect(s.value(of: "Metadata", in: Self.player)?["xesam:title"] == .string("Drive to Yosemite · drive"))
        #expect(s.value(of: "Metadata", in: Self.player)?["mpris:trackid"] == .objectPath("/org/cabin/Cabin/session"))
        #expect(s.value(of: "Metadata", in: Self.player)?["mpris:length"] == .int64(1_500_000_000))
        #expect(s.value(of: "Position", in: Self.player) == .int64(12_500_000))
        #expect(s.value(of: "Volume", in: Self.player) == .double(1))
        #expect(s.value(of: "CanGoNext", in: Self.player) == .bool(false))
        #expect(s.value(of: "CanPlay", in: Self.player) == .bool(true))
        #expect(s.value(of: "Identity", in: Self.root) == .string("Cabin"))
        #expect(s.value(of: "CanQuit", in: Self.root) == .bool(true))
        #expect(s.value(of: "CanRaise", in: Self.root) == .bool(false))
        #expect(s.value(of: "DesktopEntry", in: Self.root) == .string("cabin"))
        #expect(s.value(of: "Identity", in: Self.player) == nil)
        #expect(Self.state(mark: nil).displayTitle == "Drive to Yosemite")
        #expect(Self.state(stations: true).value(of: "CanGoPrevious", in: Self.player) == .bool(true))
    }

    @Test(arguments: [(PlayerStatus.State.starting, "Playing"), (.playing, "Playing"), (.reconnecting, "Playing"),
                      (.paused, "Paused"), (.finished, "Stopped"), (.stopped, "Stopped"), (.failed, "Stopped")])
    func playbackStatus(state: PlayerStatus.State, expected: String) {
        let s = Self.state(state)
        #expect(s.value(of: "PlaybackStatus", in: Self.player) == .string(expected))
        #expect(s.value(of: "CanPause", in: Self.player) == .bool(expected != "Stopped"))
    }

    /// The desktop entry MPRIS names is the package's own (installed by scripts/shell-files;
    /// `DesktopEntryTests` validates it).
    @Test func theDesktopEntryNamedIsThePackages() {
        let path = TestEnvironment.packageRoot.appendingPathComponent("share/applications/\(MPRISState.desktopEntry).desktop").path
        #expect(FileManager.default.fileExists(atPath: path), "\(path)")
    }

    /// Every property the interfaces declare has a value of its declared type.
    @Test func everyDeclaredPropertyHasAValueOfItsType() {
        let s = Self.state()
        for interface in [MPRISState.rootInterface, MPRISState.playerInterface] {
            for case .property(let name, let signature, _, _) in interface.members {
                #expect(s.value(of: name, in: interface.name)?.signature == signature, "\(interface.name).\(name)")
            }
        }
    }

    /// The master volume on mpv's scale: 0.5 is −18.06 dB; muted is 0.
    @Test func volumeIsTheMasterOnMpvsScale() throws {
        var v = PlayerVolumes()
        v.master = try #require(VolumeLevel.fromPercent(50))
        #expect(abs(v.master.value + 18.06) < 0.01)
        guard case .double(let x)? = Self.state(volume: v).value(of: "Volume", in: Self.player) else { Issue.record("no volume"); return }
        #expect(abs(x - 0.5) < 1e-12)
        v.muted = true
        #expect(Self.state(volume: v).value(of: "Volume", in: Self.player) == .double(0))
    }

    @Test func changesNameWhatIsSignalled() {
        let playing = Self.state()
        #expect(Self.state(position: 99).changes(from: playing) == [])   // Position is never signalled
        #expect(Self.state(mark: "rest stop").changes(from: playing) == ["Metadata"])
        #expect(Self.state(.paused).changes(from: playing) == ["PlaybackStatus"])
        var muted = PlayerVolumes()
        muted.muted = true
        #expect(Self.state(volume: muted).changes(from: playing) == ["Volume"])
        #expect(Self.state(.finished).changes(from: playing) == ["PlaybackStatus", "CanPlay", "CanPause", "CanSeek"])
        #expect(Self.state(.finished, stations: true).changes(from: Self.state(stations: true))
                == ["PlaybackStatus", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanSeek"])
    }

    @Test func callsBecomeCommands() throws {
        let s = Self.state()
        func command(_ method: String, _ arguments: [BusValue] = [], in interface: String = Self.player, state: MPRISState? = nil) throws -> MPRISCommand? {
            try MPRISCommand(method: method, in: interface, arguments: arguments, state: state ?? s)
        }
        #expect(try command("Play") == .play)
        #expect(try command("Pause") == .pause)
        #expect(try command("PlayPause") == .playPause)
        #expect(try command("Stop") == .stop)
        #expect(try command("Quit", in: Self.root) == .quit)
        #expect(try command("Raise", in: Self.root) == nil)
        #expect(try command("Seek", [.int64(-30_000_000)]) == .seek(-30))
        #expect(try command("SetPosition", [.objectPath(MPRISState.trackID), .int64(600_000_000)]) == .setPosition(600))
        // The spec: a stale track id, a negative position or one past the end do nothing.
        #expect(try command("SetPosition", [.objectPath("/org/cabin/Cabin/other"), .int64(600_000_000)]) == nil)
        #expect(try command("SetPosition", [.objectPath(MPRISState.trackID), .int64(-1)]) == nil)
        #expect(try command("SetPosition", [.objectPath(MPRISState.trackID), .int64(1_500_000_001)]) == nil)
        // Next and Previous only when the player can switch stations.
        #expect(try command("Next") == nil)
        #expect(try command("Next", state: Self.state(stations: true)) == .next)
        #expect(try command("Previous", state: Self.state(stations: true)) == .previous)
        // A session that has ended takes no commands but Quit.
        #expect(try command("Play", state: Self.state(.finished)) == nil)
        #expect(try command("Quit", in: Self.root, state: Self.state(.finished)) == .quit)
        #expect(throws: BusError.self) { try command("OpenUri", [.string("file:///x.json")]) }
        #expect(throws: BusError.self) { try command("Seek", [.string("ten")]) }
    }

    @Test func writesBecomeCommands() throws {
        #expect(try MPRISCommand(setting: "Volume", in: Self.player, to: .double(0.5)) == .setVolume(0.5))
        #expect(try MPRISCommand(setting: "Volume", in: Self.player, to: .double(-1)) == .setVolume(0))
        #expect(try MPRISCommand(setting: "Volume", in: Self.player, to: .double(4)) == .setVolume(1.3))
        #expect(try MPRISCommand(setting: "Rate", in: Self.player, to: .double(0)) == .pause)
        #expect(try MPRISCommand(setting: "Rate", in: Self.player, to: .double(1)) == nil)
        #expect(throws: BusError.self) { try MPRISCommand(setting: "Volume", in: Self.player, to: .string("loud")) }
    }

    /// A titled mark: the title is the segment people see — the status, MPRIS's
    /// `xesam:title` — and the name stays what the mark event carries for hooks.
    @Test func theSegmentIsTheMarksTitle() throws {
        let json = """
            { "cabin": 1, "title": "Drive to Yosemite", "duration": "2s",
              "layers": { "tone": { "bus": "radio", "sound": "synth:sine?frequency=230" } },
              "cues": [ { "at": 0, "start": "tone", "mark": "drive" },
                        { "at": "1s", "mark": { "name": "rest", "title": "rest stop" } } ] }
            """
        let document = try #require(SessionReader.read(json, file: "t.json").document)
        let compiled = SessionCompiler.compile(document, sounds: ResolvedSounds(), sampleRate: 8000, maxBlockFrames: 16)
        let backend = FakeAudioBackend(rate: 8000)
        var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(sampleRate: 8000, channelCount: 2, periodFrames: 16, periodCount: 3))
        options.backend = backend
        options.realtime = false
        let player = try LivePlayer(session: compiled, options: options)
        let seen = Seen()
        backend.clock.at(0.5) { seen.statuses.append(player.status); seen.events += player.poll() }
        backend.clock.at(1.5) { seen.statuses.append(player.status); seen.events += player.poll() }
        try player.start()
        player.waitUntilFinished()
        let marks = (seen.events + player.poll()).compactMap { event -> String? in
            guard case .mark(let name, let time, let title) = event else { return nil }
            return "\(name) \(time) \(title ?? "-")"
        }
        #expect(marks == ["drive 0.0 -", "rest 1.0 rest stop"])
        #expect(seen.statuses.map(\.mark) == ["drive", "rest"])
        #expect(seen.statuses.map(\.segment) == ["drive", "rest stop"])
        let state = MPRISState(title: "Drive to Yosemite", status: seen.statuses[1], volume: PlayerVolumes(), canSwitchStations: false)
        #expect(state.value(of: "Metadata", in: Self.player)?["xesam:title"] == .string("Drive to Yosemite · rest stop"))
    }

    /// What the clock's actions saw (read after the join).
    final class Seen: @unchecked Sendable {
        var statuses: [PlayerStatus] = []
        var events: [PlayerEvent] = []
    }

    /// Volume commands reach the player's master volume, and unmute it.
    @Test func volumeCommandSetsTheMaster() throws {
        let json = """
            { "cabin": 1, "title": "v", "duration": "2s",
              "layers": { "tone": { "bus": "radio", "sound": "synth:sine?frequency=230" } },
              "cues": [ { "at": 0, "start": "tone" } ] }
            """
        let document = try #require(SessionReader.read(json, file: "v.json").document)
        let compiled = SessionCompiler.compile(document, sounds: ResolvedSounds(), sampleRate: 8000, maxBlockFrames: 16)
        var options = LivePlayer.Options(device: "fake", configuration: OutputConfiguration(sampleRate: 8000, channelCount: 2, periodFrames: 16, periodCount: 3))
        options.backend = FakeAudioBackend(rate: 8000)
        options.realtime = false
        let player = try LivePlayer(session: compiled, options: options)
        player.setMuted(true)
        #expect(MPRISCommand.setVolume(0.5).perform(on: player) == false)
        #expect(abs(player.volume.master.value + 18.06) < 0.01)
        #expect(player.volume.muted == false)
        #expect(MPRISCommand.setVolume(0).perform(on: player) == false)
        #expect(player.volume.master.value == -.infinity)
        #expect(MPRISCommand.quit.perform(on: player) == true)
    }
}
