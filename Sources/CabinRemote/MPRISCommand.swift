import CabinAudio
import CabinIO
import CabinPlayback

/// What an MPRIS method call or property write asks of the player, and how it is done with
/// the same `LivePlayer` calls the control socket makes (`ControlCommands`).
///
/// | MPRIS | player |
/// |---|---|
/// | `Play`, `Pause`, `PlayPause` | `resume`, `pause`, `togglePause` (with the transport's fade) |
/// | `Stop` | `stop` (as `cabin ctl stop`: the session ends, `--then` follows) |
/// | `Quit` | `stop`, and nothing follows (as `cabin ctl quit`) |
/// | `Seek(offset µs)`, `SetPosition(trackid, µs)` | `seek(by:)`, `seek(to:)` |
/// | `Volume = x` | `setVolume` of the master: x × 100 on mpv's percent scale; unmutes when x > 0 |
/// | `Next`, `Previous` | `nextStation`, `previousStation` (when `CanGoNext`) |
/// | `Rate = 0` | `pause` (the spec's rule; other rates stay 1) |
///
/// Calls that the spec says do nothing in the current state (a stale track id, a position
/// beyond the end, Next without stations, Raise) make no command; a malformed one is a
/// `BusError`.
///
/// Thread: `init` on any thread; `perform` on the control thread.
public enum MPRISCommand: Sendable, Equatable {
    /// `Play`, `Pause`, `PlayPause`, `Stop`, `Quit` (the root interface's), `Next`,
    /// `Previous`: done as the table above says.
    case play, pause, playPause, stop, quit, next, previous
    /// Seconds relative to the position (`Seek`).
    case seek(Double)
    /// Seconds on the timeline (`SetPosition`).
    case setPosition(Double)
    /// On MPRIS's scale (1.0: 100 %).
    case setVolume(Double)

    /// The command `method` of `interface` asks for in `state`; nil when it does nothing.
    public init?(method: String, in interface: String, arguments: [BusValue], state: MPRISState) throws(BusError) {
        let expected = Self.arguments[method] ?? ""
        guard arguments.map(\.signature).joined() == expected else {
            throw BusError("\(interface).\(method) takes (\(expected)), not (\(arguments.map(\.signature).joined()))")
        }
        switch (interface, method) {
        case (MPRISState.rootInterfaceName, "Quit"): self = .quit
        case (MPRISState.rootInterfaceName, "Raise"): return nil
        case (MPRISState.playerInterfaceName, "OpenUri"):
            throw BusError(name: BusError.notSupported, "Cabin opens no URIs into a playing session (play one with 'cabin play')")
        case (MPRISState.playerInterfaceName, _) where !state.isActive:
            return nil   // a session that has ended takes no more commands (Can… are false)
        case (MPRISState.playerInterfaceName, "Play"): self = .play
        case (MPRISState.playerInterfaceName, "Pause"): self = .pause
        case (MPRISState.playerInterfaceName, "PlayPause"): self = .playPause
        case (MPRISState.playerInterfaceName, "Stop"): self = .stop
        case (MPRISState.playerInterfaceName, "Next"):
            guard state.canSwitchStations else { return nil }
            self = .next
        case (MPRISState.playerInterfaceName, "Previous"):
            guard state.canSwitchStations else { return nil }
            self = .previous
        case (MPRISState.playerInterfaceName, "Seek"):
            guard case .int64(let offset) = arguments[0] else { return nil }
            self = .seek(Double(offset) / 1_000_000)
        case (MPRISState.playerInterfaceName, "SetPosition"):
            // The spec: a stale track id, a negative position or one past the end do nothing.
            guard case .objectPath(let track) = arguments[0], case .int64(let position) = arguments[1],
                  track == MPRISState.trackID, position >= 0, position <= MPRISState.microseconds(state.duration) else { return nil }
            self = .setPosition(Double(position) / 1_000_000)
        default:
            throw BusError(name: "org.freedesktop.DBus.Error.UnknownMethod", "no method \(interface).\(method)")
        }
    }

    /// The methods' argument signatures (those not named take none).
    static let arguments = ["Seek": "x", "SetPosition": "ox", "OpenUri": "s"]

    /// The command a write of `property` asks for; nil when it changes nothing.
    public init?(setting property: String, in interface: String, to value: BusValue) throws(BusError) {
        switch (interface, property, value) {
        case (MPRISState.playerInterfaceName, "Volume", .double(let x)):
            guard !x.isNaN else { throw BusError("Volume must be a number") }
            // The spec: below 0 is 0; Cabin's most is 130 % (`VolumeLevel.maximum`).
            self = .setVolume(min(1.3, max(0, x)))
        case (MPRISState.playerInterfaceName, "Rate", .double(let x)):
            guard x == 0 else { return nil }
            self = .pause
        default:
            throw BusError("\(interface).\(property) cannot be set to a \(value.signature)")
        }
    }

    /// Does it. Returns whether it was `quit` (the caller's loop then runs no `--then`).
    @discardableResult
    public func perform(on player: LivePlayer) -> Bool {
        // A person at a desktop's media keys or applet: an interaction, except the end.
        switch self {
        case .stop, .quit: break
        default: player.noteInteraction()
        }
        switch self {
        case .play: if player.isPaused { player.resume() }
        case .pause: if !player.isPaused { player.pause() }
        case .playPause: player.togglePause()
        case .stop, .quit: player.stop()
        case .next: try? player.nextStation()
        case .previous: try? player.previousStation()
        case .seek(let seconds): player.seek(by: seconds)
        case .setPosition(let seconds): player.seek(to: seconds)
        case .setVolume(let x):
            if let level = VolumeLevel.fromPercent(x * 100) {
                try? player.setVolume(level)
                if x > 0 && player.volume.muted { player.setMuted(false) }
            }
        }
        return self == .quit
    }
}
