/// What a live stream does while a session plays (for the status line, `--json` and embedders).
public enum RadioEvent: Sendable, Equatable {
    /// Connecting, or the buffer ran low: waiting until about a second is buffered.
    case buffering(url: String, reason: String)
    /// Audio is flowing: the station's name (`icy-name`/`ice-name`), the codec, and seconds
    /// from the connection to the first audio handed to the mixer (a second buffered, and a
    /// voice playing the stream: a layer started later waits for it).
    case playing(url: String, name: String?, codec: String, seconds: Double)
    /// The stream's title changed (ICY `StreamTitle`, or the Ogg comments of a chained stream).
    case title(url: String, title: String)
    /// The connection dropped or stalled; the next attempt is `delay` seconds away.
    case reconnect(url: String, attempt: Int, delay: Double, reason: String)
    /// The station cannot be played (one line); its layers stay silent, the session plays on.
    case error(url: String, message: String)
    /// A playlist's track cannot be played (or stopped early): one line; the next plays.
    case skipped(url: String, message: String)

    var isSkipped: Bool { if case .skipped = self { true } else { false } }

    public var url: String {
        switch self {
        case .buffering(let url, _), .playing(let url, _, _, _), .title(let url, _), .reconnect(let url, _, _, _),
             .error(let url, _), .skipped(let url, _): url
        }
    }
}

/// What one station is doing now (a snapshot for status lines).
public struct RadioStatus: Sendable, Equatable {
    public enum State: String, Sendable { case connecting, buffering, playing, reconnecting, failed }
    public var url: String
    public var state: State
    public var name: String?
    public var title: String?
    public var codec: String?
}

/// Why a stream cannot be played or goes on failing: one line, and whether trying again can help.
package struct RadioFailure: Error, Sendable, CustomStringConvertible {
    package var description: String
    /// Content that will not change by asking again (an HTML page, an unsupported codec).
    var isPermanent = true
}
