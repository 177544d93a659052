import CabinAudio
import CabinIO
import CabinSession

/// The live streams of a session, each a `RadioStation` on its own thread writing to the
/// `AudioStream` the compiler registered for it (`CompiledSession.stations`).
///
/// ```swift
/// let radio = RadioStations(loaded.compiled)
/// try radio.start()
/// for event in radio.poll() { print(event) }   // a few times a second
/// radio.stop()
/// ```
///
/// Thread: control thread.
public final class RadioStations: @unchecked Sendable {
    // @unchecked Sendable: the stations are set in init; each is itself thread-safe.
    private let stations: [RadioStation]

    /// One station per live stream of `session` (none for a session without).
    ///
    /// `waitsForListener`: a station's audio stays at the live edge (about a second held)
    /// until a voice first plays its stream, so a layer started late in the session does not
    /// begin on stale audio; false writes to the stream at once (tests that read it directly).
    public init(_ session: CompiledSession, waitsForListener: Bool = true) {
        stations = session.stations.map {
            RadioStation(url: $0.url, stream: $0.stream, sampleRate: session.sampleRate, waitsForListener: waitsForListener)
        }
    }

    /// No stations.
    public init() { stations = [] }

    public var isEmpty: Bool { stations.isEmpty }

    /// Connects every station (each on its own thread).
    public func start() throws(SystemError) {
        for station in stations { try station.start() }
    }

    /// Disconnects every station and waits for their threads.
    public func stop() {
        for station in stations { station.stop() }
    }

    deinit { stop() }

    /// Events since the last call, in order per station.
    public func poll() -> [RadioEvent] { stations.flatMap { $0.takeEvents() } }

    /// What each station is doing now.
    public var status: [RadioStatus] { stations.map(\.status) }
}
