import CabinAudio
import CabinIO
import CabinPlayback

/// What a playlist plays as one entry: a file (`PlaylistTrack`) or an internet station
/// (`StationTrack`).
///
/// Thread: the playlist's thread.
protocol PlaylistPlayable: AnyObject {
    /// Up to `frames` frames, leaving the last `holdback` of a file unread; a station gives
    /// what has arrived (possibly nothing).
    func read(_ frames: Int, keepingBack holdback: Int) -> ArraySlice<Float>
    /// The held-back end of a file (a station has none).
    func readRest() -> [Float]
    var isAtEnd: Bool { get }
    /// Why it stopped early or could not play, once it has.
    var problem: String? { get }
}

extension PlaylistTrack: PlaylistPlayable {}

/// An internet station in a playlist: a `RadioStation` (libcurl, ICY, decode, soxr, the
/// live-stream buffer) writing into a ring of its own, which the playlist relays into the
/// layer's stream (`AudioStream.read`). It never ends by itself; a station that fails before
/// it plays ends it (the playlist skips to the next entry).
///
/// Thread: made, read and dropped on the playlist's thread (dropping stops the station's).
final class StationTrack: PlaylistPlayable {
    let url: String
    private let ring: AudioStream
    private let station: RadioStation
    private var buffer: [Float] = []
    private(set) var isAtEnd = false
    private(set) var problem: String?
    /// The station's own events since the last call (title, playing, buffering, reconnect).
    private var events: [RadioEvent] = []

    init(url: String, sampleRate: Double) throws(SystemError) {
        self.url = url
        ring = AudioStream(capacityFrames: Int(sampleRate * 12))
        station = RadioStation(url: url, stream: ring, sampleRate: sampleRate, waitsForListener: false)
        try station.start()
    }

    deinit { station.stop() }

    func read(_ frames: Int, keepingBack holdback: Int) -> ArraySlice<Float> {
        for event in station.takeEvents() {
            if case .error(_, let message) = event {
                isAtEnd = true
                problem = "\(url): \(message)"
            } else {
                events.append(event)
            }
        }
        if buffer.count < 2 * frames { buffer = [Float](repeating: 0, count: 2 * frames) }
        let n = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: frames) }
        return buffer[0..<(2 * n)]
    }

    func readRest() -> [Float] { [] }

    func takeEvents() -> [RadioEvent] {
        defer { events = [] }
        return events
    }
}
