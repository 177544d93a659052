import CabinIO
import CabinSession
import Synchronization

/// The radio of a session, as the player sees it: what writes the `AudioStream`s the compiler
/// registered for the session's stations (`CompiledSession.stations`: internet streams,
/// playlists, generated music), which the mixer reads as `.stream` voices. CabinPlayback
/// knows it only through this protocol; CabinRadio's `RadioStations` is the one the loader
/// makes when it is registered (`SessionLoader.radioProvider`).
///
/// A live load starts it (`start`); offline it is not started and the renderer fills it
/// before every block (`fill`), so its streams render deterministically.
///
/// Thread: control thread (the render thread only reads the streams it writes).
public protocol SessionRadio: StationSwitching, Sendable {
    /// Whether the session has no station at all.
    var isEmpty: Bool { get }
    /// Whether it has something to switch (a playlist): `nextStation` and `previousStation` work.
    var canSwitch: Bool { get }
    /// Whether the session plays live internet streams (not only playlists or generated music).
    var hasLiveStreams: Bool { get }
    /// Starts everything (each station on its own thread): a live load calls it.
    func start() throws(SystemError)
    /// Connects the live streams only; the rest stays driven by `fill`, so it renders as
    /// deterministically as offline (for recording the streams in real time).
    func startLiveStreams() throws(SystemError)
    /// Waits until every live stream has its first second buffered (or has failed), up to
    /// `timeoutSeconds`, calling `shouldStop` now and then (true gives up at once); true when
    /// all are ready.
    func waitUntilBuffered(timeoutSeconds: Double, shouldStop: () -> Bool) -> Bool
    /// Waits (up to `timeoutSeconds`) until every live stream a voice has started to read has
    /// frames in its ring.
    func waitUntilFlowing(timeoutSeconds: Double)
    /// Per live stream: its URL and the frames its voices played as silence because they had
    /// not arrived (`AudioStream.underflowFrames`).
    var liveStreamUnderflows: [(url: String, frames: Int)] { get }
    /// Stops every station and waits for their threads.
    func stop()
    /// Offline (not started): makes every stream it drives hold `frames` frames for the next
    /// block; the renderer calls it before every block.
    func fill(frames: Int)
    /// The session's timeline moved by `seconds` (a seek; negative: back).
    func timelineMoved(by seconds: Double)
    /// Events since the last call, in order per station (`LivePlayer.poll` adds them as
    /// `PlayerEvent.radio`).
    func poll() -> [RadioEvent]
    /// What each station is doing now (`PlayerStatus.radio`).
    var status: [RadioStatus] { get }
}

extension SessionRadio {
    /// Waits until every live stream has its first second buffered (or has failed), up to
    /// `timeoutSeconds`; true when all are ready.
    public func waitUntilBuffered(timeoutSeconds: Double) -> Bool {
        waitUntilBuffered(timeoutSeconds: timeoutSeconds, shouldStop: { false })
    }
}

/// Makes the radio of each session a loader loads (`SessionLoader.radioProvider`).
///
/// Thread: any thread (the loader calls it on the thread that loads; a provider keeps no
/// state of its own between calls).
public protocol SessionRadioProvider: Sendable {
    /// The radio of `session`, not started. `documentFolder`: where a playlist's relative
    /// path starts; `live`: the session plays live (a playlist's station URLs play; offline
    /// they are skipped).
    func radio(for session: CompiledSession, documentFolder: String, live: Bool) -> any SessionRadio
}

extension SessionLoader {
    /// What makes each loaded session's radio, registered once by what sits above the player
    /// (CabinRadio's `RadioStations.register()`: the `cabin` command, libcabin, an app). With
    /// none, a session without stations loads as before and one with a station is refused
    /// with a line saying so, rather than played with its radio silent.
    public static var radioProvider: (any SessionRadioProvider)? {
        get { registeredRadioProvider.withLock { $0 } }
        set { registeredRadioProvider.withLock { $0 = newValue } }
    }

    /// The radio of `compiled` from the registered provider (none without stations).
    static func radio(for compiled: CompiledSession, documentFolder: String, live: Bool) throws(Failure) -> any SessionRadio {
        try radio(for: compiled, documentFolder: documentFolder, live: live, provider: radioProvider)
    }

    /// The radio of `compiled` from `provider` (none without stations); with no provider, a
    /// session with stations is refused, one line per station. (Tests give the provider
    /// here: the registered one is process-wide.)
    package static func radio(for compiled: CompiledSession, documentFolder: String, live: Bool,
                              provider: (any SessionRadioProvider)?) throws(Failure) -> any SessionRadio {
        guard !compiled.stations.isEmpty else { return NoRadio() }
        guard let provider else {
            throw Failure(lines: compiled.stations.map {
                "\($0.url): no radio to play it (live streams, playlists and generated music are CabinRadio's: register its RadioStations)"
            })
        }
        return provider.radio(for: compiled, documentFolder: documentFolder, live: live)
    }
}

private let registeredRadioProvider = Mutex<(any SessionRadioProvider)?>(nil)

/// The radio of a session without stations.
final class NoRadio: SessionRadio {
    var isEmpty: Bool { true }
    var canSwitch: Bool { false }
    var hasLiveStreams: Bool { false }
    func start() throws(SystemError) {}
    func startLiveStreams() throws(SystemError) {}
    func waitUntilBuffered(timeoutSeconds: Double, shouldStop: () -> Bool) -> Bool { true }
    func waitUntilFlowing(timeoutSeconds: Double) {}
    var liveStreamUnderflows: [(url: String, frames: Int)] { [] }
    func stop() {}
    func fill(frames: Int) {}
    func timelineMoved(by seconds: Double) {}
    func poll() -> [RadioEvent] { [] }
    var status: [RadioStatus] { [] }
    func nextStation() throws { throw PlayerControlError("no radio in this session") }
    func previousStation() throws { throw PlayerControlError("no radio in this session") }
}

/// What a live stream does while a session plays (for the status line, `--json` and embedders).
///
/// The radio's events are the player's vocabulary (`PlayerEvent.radio`, its JSON line, the
/// status): they are declared here, below the radio that makes them.
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

    package var isSkipped: Bool { if case .skipped = self { true } else { false } }

    /// The station's or track's URL (a stream's `http(s)://`, a playlist track's path, or a
    /// generated station's `gen:NAME`) the event is about.
    public var url: String {
        switch self {
        case .buffering(let url, _), .playing(let url, _, _, _), .title(let url, _), .reconnect(let url, _, _, _),
             .error(let url, _), .skipped(let url, _): url
        }
    }
}

/// What one station is doing now (a snapshot for status lines).
public struct RadioStatus: Sendable, Equatable {
    /// Where the station is between connecting and playing.
    public enum State: String, Sendable {
        /// Opening the connection (or the file, or starting the generator).
        case connecting
        /// Connected, filling its buffer (about a second) before the mixer takes it.
        case buffering
        /// Audio is flowing into the mixer.
        case playing
        /// The connection dropped or stalled; waiting for the next attempt.
        case reconnecting
        /// It cannot be played; its layers stay silent and the session plays on.
        case failed
    }
    /// The station's URL, as the session names it (a stream, a playlist track or `gen:NAME`).
    public var url: String
    /// What it is doing now.
    public var state: State
    /// The station's name (`icy-name`/`ice-name`), nil until it says one.
    public var name: String?
    /// The title playing now (ICY `StreamTitle`, Ogg comments or a track's tags), nil until known.
    public var title: String?
    /// The codec the audio arrives in (`mp3`, `opus`, `vorbis`, …), nil until known.
    public var codec: String?

    /// A snapshot with these values (for a radio other than CabinRadio's, or a test).
    public init(url: String, state: State, name: String? = nil, title: String? = nil, codec: String? = nil) {
        self.url = url
        self.state = state
        self.name = name
        self.title = title
        self.codec = codec
    }
}
