import CabinJSON
import CabinPlayback
import CabinRemote

/// A session opened in the studio (`cabin studio drive.json`, `--preset NAME`): its lanes as
/// `cabin session plot` draws them — that command's SVG, made once at the start — under its
/// title, and, when it plays here, its player. The page shows the picture (`session.svg`, an
/// image: nothing in it runs), the title as text and where the timeline is in the picture
/// (`session.json`), and draws the playhead over the picture at the playing position as
/// `session plot` maps time to x.
///
/// Thread: a value type; any thread.
public struct StudioSession: Sendable {
    /// The session's title (or its file's name, or the preset's).
    public var title: String
    /// `session plot`'s picture of it.
    public var svg: String
    /// The picture's width, in its pixels.
    public var width: Double
    /// Where the picture's timeline is (`SessionPlot.timeline`): time t seconds is at
    /// x = `timeline.x` + t / `timeline.duration` × `timeline.width`, in the picture's pixels.
    public var timeline: (x: Double, width: Double, duration: Double)
    /// The session playing on this machine, with the control socket's transport and volumes
    /// (`StudioPlayer`); nil: the lanes only.
    public var player: StudioPlayer?

    /// A session's lanes: `title`, `svg` and its geometry (`width`, `timeline`), and the
    /// `player` when it plays here.
    public init(title: String, svg: String, width: Double, timeline: (x: Double, width: Double, duration: Double),
                player: StudioPlayer? = nil) {
        self.title = title
        self.svg = svg
        self.width = width
        self.timeline = timeline
        self.player = player
    }

    /// The page's `session.json`: title, picture, where the timeline is, and the player's
    /// buses (or `"player": null`).
    var json: JSONValue {
        .object([
            ("title", .string(title)), ("svg", .string("session.svg")), ("width", .number(width)),
            ("timeline", .object([("x", .number(timeline.x)), ("width", .number(timeline.width)),
                                  ("duration", .number(timeline.duration))])),
            ("player", player.map { player in
                .object([("buses", .array(player.player.session.config.buses.map { .string($0.name) }))])
            } ?? .null),
        ])
    }
}

/// The opened session playing on this machine (a `LivePlayer` on the device `-D` names, or
/// on the system clock with `-D none`), driven from the page in the control socket's words:
/// every press is a request line (`{"command": ["volume", "music", "-12dB"]}`) answered by
/// `ControlServer.answer` — the parsing, commands and replies of `cabin ctl` — and the page
/// reads `status` as `cabin ctl status --json` prints it.
///
/// Thread: any thread (the player's control lock).
public final class StudioPlayer: Sendable {
    /// The player of the session playing here; its transport and volumes are the page's.
    public let player: LivePlayer
    /// The session's name in `status`.
    public let title: String

    /// The page's control of `player`, named `title` in its status.
    public init(player: LivePlayer, title: String) {
        self.player = player
        self.title = title
    }

    /// The reply line to one request line, and whether it succeeded.
    public func answer(_ line: [UInt8]) -> (reply: String, succeeded: Bool) {
        ControlServer.answer(line, player: player, title: title)
    }

    /// `cabin ctl status --json`'s object, compact.
    public var status: String { player.statusJSON(title: title).serialized(pretty: false) }
}
