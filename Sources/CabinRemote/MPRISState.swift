import CabinAudio
import CabinIO
import CabinPlayback

/// What MPRIS (the desktop's media-player interface, `org.mpris.MediaPlayer2`) shows of a
/// playing session: a pure value made from the player's status and volumes, with the
/// interfaces' properties (`value(of:in:)`) and which of them changed (`changes(from:)`).
/// `MPRISServer` puts it on the session bus.
///
/// A session is one track: `mpris:trackid` is `trackID`, `xesam:title` the session's title
/// and its segment's title ("Drive to Yosemite · rest stop"), `mpris:length` its duration in µs.
/// `Volume` is the master volume on mpv's scale (`VolumeLevel`: 1.0 is 100 %, 0 dB; 0.5 is
/// −18 dB), 0 while muted.
///
/// Thread: any (a value).
public struct MPRISState: Sendable, Equatable {
    /// MPRIS's `PlaybackStatus` property.
    public enum PlaybackStatus: String, Sendable {
        /// The property's three values, spelt as the spec spells them.
        case playing = "Playing", paused = "Paused", stopped = "Stopped"

        /// Starting and reconnecting count as playing (the clock runs); finished, stopped and
        /// failed as stopped.
        public init(_ state: PlayerStatus.State) {
            self = switch state {
            case .starting, .playing, .reconnecting: .playing
            case .paused: .paused
            case .finished, .stopped, .failed: .stopped
            }
        }
    }

    /// Playing, paused or stopped.
    public var status: PlaybackStatus
    /// The session's title.
    public var title: String
    /// The segment the session is in (its last mark's title, else its name).
    public var segment: String?
    /// Seconds.
    public var duration: Double
    /// Seconds into the session (read by clients when they ask; never signalled).
    public var position: Double
    /// The master volume, 0…1.3 (`VolumeLevel.percent` ÷ 100), 0 when muted.
    public var volume: Double
    /// Whether the player can switch stations (`LivePlayer.stations`): Next and Previous.
    public var canSwitchStations: Bool

    /// The one track's id (an object path, outside `/org/mpris`, as the spec asks).
    public static let trackID = "/org/cabin/Cabin/session"
    /// The object every MPRIS player serves.
    public static let objectPath = "/org/mpris/MediaPlayer2"
    /// The name owned on the session bus (`.instance<PID>` is added when another Cabin has it).
    public static let busName = "org.mpris.MediaPlayer2.cabin"
    /// The root interface: identity, desktop entry, Quit.
    public static let rootInterfaceName = "org.mpris.MediaPlayer2"
    /// The player interface: transport, metadata, position, volume.
    public static let playerInterfaceName = "org.mpris.MediaPlayer2.Player"
    /// The basename of the desktop entry the desktop may look for (`cabin.desktop`).
    public static let desktopEntry = "cabin"

    /// A state with every field given.
    public init(status: PlaybackStatus, title: String, segment: String?, duration: Double, position: Double,
                volume: Double, canSwitchStations: Bool) {
        self.status = status
        self.title = title
        self.segment = segment
        self.duration = duration
        self.position = position
        self.volume = volume
        self.canSwitchStations = canSwitchStations
    }

    /// The state of a session titled `title` from the player's status and volumes.
    public init(title: String, status: PlayerStatus, volume: PlayerVolumes, canSwitchStations: Bool) {
        self.init(status: PlaybackStatus(status.state), title: title, segment: status.segment, duration: status.duration,
                  position: status.position, volume: Self.volume(volume), canSwitchStations: canSwitchStations)
    }

    /// MPRIS's `Volume` of the listener's volumes: the master on mpv's scale, 0 when muted.
    public static func volume(_ volumes: PlayerVolumes) -> Double {
        volumes.muted ? 0 : VolumeLevel.percent(volumes.master) / 100
    }

    /// "Drive to Yosemite · rest stop": the title and the segment.
    /// One line without control characters (a document's title is the author's text).
    public var displayTitle: String { (segment.map { "\(title) · \($0)" } ?? title).singleLine(limit: 1024) }

    /// Whether a session is playing or paused (not stopped).
    public var isActive: Bool { status != .stopped }

    /// `Metadata`: `mpris:trackid`, `xesam:title`, `mpris:length` (µs).
    public var metadata: BusValue {
        .dictionary([
            BusEntry("mpris:trackid", .objectPath(Self.trackID)),
            BusEntry("xesam:title", .string(displayTitle)),
            BusEntry("mpris:length", .int64(Self.microseconds(duration))),
        ])
    }

    static func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }

    /// A property's value, or nil for one neither interface has.
    public func value(of property: String, in interface: String) -> BusValue? {
        switch (interface, property) {
        case (Self.rootInterfaceName, "Identity"): .string("Cabin")
        case (Self.rootInterfaceName, "DesktopEntry"): .string(Self.desktopEntry)
        case (Self.rootInterfaceName, "CanQuit"): .bool(true)
        case (Self.rootInterfaceName, "CanRaise"): .bool(false)
        case (Self.rootInterfaceName, "HasTrackList"): .bool(false)
        // Cabin cannot open a URI into a playing session (no OpenUri), so it names none.
        case (Self.rootInterfaceName, "SupportedUriSchemes"): .strings([])
        case (Self.rootInterfaceName, "SupportedMimeTypes"): .strings([])
        case (Self.playerInterfaceName, "PlaybackStatus"): .string(status.rawValue)
        case (Self.playerInterfaceName, "Metadata"): metadata
        case (Self.playerInterfaceName, "Position"): .int64(Self.microseconds(position))
        case (Self.playerInterfaceName, "Volume"): .double(volume)
        case (Self.playerInterfaceName, "Rate"), (Self.playerInterfaceName, "MinimumRate"),
             (Self.playerInterfaceName, "MaximumRate"): .double(1)
        case (Self.playerInterfaceName, "CanGoNext"), (Self.playerInterfaceName, "CanGoPrevious"): .bool(isActive && canSwitchStations)
        case (Self.playerInterfaceName, "CanPlay"), (Self.playerInterfaceName, "CanPause"),
             (Self.playerInterfaceName, "CanSeek"): .bool(isActive)
        case (Self.playerInterfaceName, "CanControl"): .bool(true)
        default: nil
        }
    }

    /// The Player interface's signalled properties whose values differ from `old`'s (the
    /// root interface's are constant; `Position` is never signalled, as the spec says).
    public func changes(from old: MPRISState) -> [String] {
        Self.playerInterface.members.compactMap { member in
            guard case .property(let name, _, .signalled, _) = member else { return nil }
            let now = value(of: name, in: Self.playerInterfaceName)
            return now != old.value(of: name, in: Self.playerInterfaceName) ? name : nil
        }
    }
}
