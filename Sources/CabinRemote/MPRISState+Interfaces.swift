import CabinIO
import CabinPlayback

/// The two MPRIS interfaces as Cabin exports them (MPRIS 2.2): what `MPRISServer` gives
/// sd-bus, and what `MPRISState.changes(from:)` looks at to know which properties signal.
extension MPRISState {
    /// `org.mpris.MediaPlayer2`: Identity, DesktopEntry, CanQuit, Quit; no raising, no track
    /// list, no URIs to open.
    public static let rootInterface = BusInterface(name: rootInterfaceName, members: [
        .property("Identity", signature: "s", change: .constant, writable: false),
        .property("DesktopEntry", signature: "s", change: .constant, writable: false),
        .property("CanQuit", signature: "b", change: .constant, writable: false),
        .property("CanRaise", signature: "b", change: .constant, writable: false),
        .property("HasTrackList", signature: "b", change: .constant, writable: false),
        .property("SupportedUriSchemes", signature: "as", change: .constant, writable: false),
        .property("SupportedMimeTypes", signature: "as", change: .constant, writable: false),
        .method("Raise", arguments: "", results: "", names: ""),
        .method("Quit", arguments: "", results: "", names: ""),
    ])

    /// `org.mpris.MediaPlayer2.Player`.
    public static let playerInterface = BusInterface(name: playerInterfaceName, members: [
        .property("PlaybackStatus", signature: "s", change: .signalled, writable: false),
        .property("Rate", signature: "d", change: .signalled, writable: true),
        .property("Metadata", signature: "a{sv}", change: .signalled, writable: false),
        .property("Volume", signature: "d", change: .signalled, writable: true),
        .property("Position", signature: "x", change: .none, writable: false),
        .property("MinimumRate", signature: "d", change: .constant, writable: false),
        .property("MaximumRate", signature: "d", change: .constant, writable: false),
        .property("CanGoNext", signature: "b", change: .signalled, writable: false),
        .property("CanGoPrevious", signature: "b", change: .signalled, writable: false),
        .property("CanPlay", signature: "b", change: .signalled, writable: false),
        .property("CanPause", signature: "b", change: .signalled, writable: false),
        .property("CanSeek", signature: "b", change: .signalled, writable: false),
        .property("CanControl", signature: "b", change: .constant, writable: false),
        .method("Next", arguments: "", results: "", names: ""),
        .method("Previous", arguments: "", results: "", names: ""),
        .method("Pause", arguments: "", results: "", names: ""),
        .method("PlayPause", arguments: "", results: "", names: ""),
        .method("Stop", arguments: "", results: "", names: ""),
        .method("Play", arguments: "", results: "", names: ""),
        .method("Seek", arguments: "x", results: "", names: "Offset"),
        .method("SetPosition", arguments: "ox", results: "", names: "TrackId Position"),
        .method("OpenUri", arguments: "s", results: "", names: "Uri"),
        .signal("Seeked", arguments: "x", names: "Position"),
    ])
}
