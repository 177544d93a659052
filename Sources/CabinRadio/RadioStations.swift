import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession

/// The radio of a session: its live streams, each a `RadioStation` on its own thread, and
/// its playlists of the user's music, each a `PlaylistStation`, writing to the
/// `AudioStream` the compiler registered for it (`CompiledSession.stations`). With a
/// playlist it switches tracks (`StationSwitching`: `LivePlayer.nextStation`).
///
/// ```swift
/// let radio = RadioStations(loaded.compiled)
/// try radio.start()
/// for event in radio.poll() { print(event) }   // a few times a second
/// radio.stop()
/// ```
///
/// Thread: control thread.
public final class RadioStations: SessionRadio, @unchecked Sendable {
    // @unchecked Sendable: the stations are set in init; each is itself thread-safe.
    private let stations: [RadioStation]
    private let playlists: [PlaylistStation]
    private let generated: [GeneratedStation]
    private var started = false
    private var streamsStarted = false

    /// One station per live stream of `session` (none for a session without).
    ///
    /// `waitsForListener`: a station's audio stays at the live edge (about a second held)
    /// until a voice first plays its stream, so a layer started late in the session does not
    /// begin on stale audio; false writes to the stream at once (tests that read it directly).
    ///
    /// `documentFolder`: where a playlist's relative path starts (the document's folder).
    /// `live`: a playlist's station URLs play (a live session); offline they are skipped.
    public init(_ session: CompiledSession, waitsForListener: Bool = true, documentFolder: String = ".", live: Bool = false) {
        stations = session.stations.filter(\.isInternet).map {
            RadioStation(url: $0.url, stream: $0.stream, sampleRate: session.sampleRate, waitsForListener: waitsForListener)
        }
        playlists = session.stations.compactMap { s in
            s.playlist.map {
                PlaylistStation(name: s.url, path: PlaylistSource.resolve(s.url, in: documentFolder), options: $0,
                                stream: s.stream, sampleRate: session.sampleRate, live: live)
            }
        }
        // A runner pre-rolls the mixer's look-ahead when it is made: the first frames must be
        // in the ring by then (live and offline alike), or they would play as an underflow.
        for playlist in playlists { playlist.fill(frames: Int(PlaylistStation.leadSeconds * session.sampleRate), publishing: false) }
        generated = session.stations.compactMap { s in
            s.generator.map { GeneratedStation(name: s.url, generator: $0, stream: s.stream, sampleRate: session.sampleRate) }
        }
        // Generated music: the pre-roll's frames only (composing costs little per frame, but
        // not before the first sound); the thread or `fill` makes the rest.
        for station in generated { station.fill(frames: Self.prerollFrames) }
        problems = generated.compactMap { s in s.problem.map { RadioEvent.error(url: s.name, message: $0) } }
    }

    /// No stations.
    public init() {
        stations = []
        playlists = []
        generated = []
    }

    /// Frames each generated stream holds before anything plays: more than a runner's
    /// pre-roll (the limiter's look-ahead).
    static let prerollFrames = 1024
    private var problems: [RadioEvent] = []

    /// Whether the session has no station, playlist or generated music.
    public var isEmpty: Bool { stations.isEmpty && playlists.isEmpty && generated.isEmpty }

    /// Whether it has something to switch (a playlist): `nextStation` and `previousStation` work.
    public var canSwitch: Bool { !playlists.isEmpty }

    /// Connects every station and starts every playlist (each on its own thread).
    public func start() throws(SystemError) {
        started = true
        if !streamsStarted { for station in stations { try station.start() } }
        streamsStarted = true
        for playlist in playlists { try playlist.start() }
        for station in generated { try station.start() }
    }

    /// Whether the session plays live internet streams (not only playlists of files).
    public var hasLiveStreams: Bool { !stations.isEmpty }

    /// Connects the live streams only (each on its own thread); playlists stay driven by
    /// `fill`, so their tracks render as deterministically as offline. For recording the
    /// streams in real time (`OfflineRenderer.realTime`, `cabin render --record-live`).
    public func startLiveStreams() throws(SystemError) {
        guard !streamsStarted else { return }
        streamsStarted = true
        for station in stations { try station.start() }
    }

    /// Waits until every live stream has its first second buffered (or has failed), up to
    /// `timeoutSeconds`, calling `shouldStop` every 20 ms (true gives up at once); true when
    /// all are ready. A station buffered before anything plays it holds the newest second.
    public func waitUntilBuffered(timeoutSeconds: Double, shouldStop: () -> Bool = { false }) -> Bool {
        var waited = 0.0
        while !stations.allSatisfy(\.isReady) {
            if waited >= timeoutSeconds || shouldStop() { return false }
            ThreadSleep.microseconds(20_000)
            waited += 0.02
        }
        return true
    }

    /// Waits (up to `timeoutSeconds`) until every live stream a voice has started to read
    /// (a runner's pre-roll reads the streams its first layers play) has frames in its ring,
    /// so the first block a recording renders does not play them as an underflow.
    public func waitUntilFlowing(timeoutSeconds: Double) {
        var waited = 0.0
        func flowing(_ s: RadioStation) -> Bool {
            s.status.state == .failed || s.stream.availableFrames > 0
                || (s.stream.playedFrames == 0 && s.stream.underflowFrames == 0)
        }
        while waited < timeoutSeconds && !stations.allSatisfy(flowing) {
            ThreadSleep.microseconds(5_000)
            waited += 0.005
        }
    }

    /// Per live stream: its URL and the frames its voices played as silence because they
    /// had not arrived (`AudioStream.underflowFrames`).
    public var liveStreamUnderflows: [(url: String, frames: Int)] { stations.map { ($0.url, $0.stream.underflowFrames) } }

    /// Disconnects every station, stops every playlist and waits for their threads.
    public func stop() {
        for station in stations { station.stop() }
        for playlist in playlists { playlist.stop() }
        for station in generated { station.stop() }
    }

    /// Offline (not started): feeds each playlist's stream so it holds `frames` frames for
    /// the next block (`OfflineRenderer` calls it before every block); generated music is
    /// composed ahead on its own thread, and this waits until the block's frames are there
    /// (`GeneratedStation.fillAhead`).
    public func fill(frames: Int) {
        guard !started else { return }
        for playlist in playlists { playlist.fill(frames: frames) }
        for station in generated { station.fillAhead(frames: frames) }
    }

    /// The next track of every playlist, crossfaded equal-power (`PlaylistFeeder.switchSeconds`).
    public func nextStation() throws {
        guard canSwitch else { throw PlayerControlError("this session's radio has no playlist to switch (a folder or an .m3u, .m3u8 or .pls file)") }
        for playlist in playlists { playlist.skip(by: 1) }
    }

    /// The previous track of every playlist (the first restarts).
    public func previousStation() throws {
        guard canSwitch else { throw PlayerControlError("this session's radio has no playlist to switch (a folder or an .m3u, .m3u8 or .pls file)") }
        for playlist in playlists { playlist.skip(by: -1) }
    }

    /// The session's timeline moved by `seconds` (a seek; negative: back): each playlist's
    /// track moves by as much, within the track where it can (`PlaylistFeeder.seek`). Live
    /// streams do not move. Offline the move is carried out at the next `fill`.
    public func timelineMoved(by seconds: Double) {
        guard seconds != 0 else { return }
        for playlist in playlists { playlist.seek(by: seconds) }
    }

    deinit { stop() }

    /// Events since the last call, in order per station.
    public func poll() -> [RadioEvent] {
        defer { problems = [] }
        return problems + stations.flatMap { $0.takeEvents() } + playlists.flatMap { $0.takeEvents() }
    }

    /// What each station and playlist is doing now (the playlist's title: the track playing).
    public var status: [RadioStatus] { stations.map(\.status) + playlists.map(\.status) }

    /// Makes `RadioStations` for each session the loader loads (`SessionLoader.radioProvider`).
    public struct Provider: SessionRadioProvider {
        /// The provider `register()` registers.
        public init() {}

        /// `RadioStations(session, documentFolder: documentFolder, live: live)`.
        public func radio(for session: CompiledSession, documentFolder: String, live: Bool) -> any SessionRadio {
            RadioStations(session, documentFolder: documentFolder, live: live)
        }
    }

    /// Makes the player's loader play the radio: every session loaded from now on gets its
    /// `RadioStations` (`SessionLoader.radioProvider`). Once per process, before the first
    /// load (the `cabin` command, libcabin and an app call it at their start); again changes nothing.
    public static func register() { SessionLoader.radioProvider = Provider() }
}
