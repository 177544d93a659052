import CabinAudio
import CabinIO
import CabinSession
import Glibc
import Synchronization

/// A playlist of the user's music feeding one `AudioStream`: a `PlaylistFeeder` run on its
/// own thread while a session plays (the ring kept `leadSeconds` ahead of the listener,
/// the next track's loudness measured between top-ups), or driven block by block by the
/// offline renderer (`fill`), so a render is deterministic.
///
/// Switching (`skip(by:)`) is a request the thread carries out at its next top-up: it is
/// heard after the frames already in the ring (at most `leadSeconds`), crossfaded
/// equal-power over `PlaylistFeeder.switchSeconds`.
///
/// Thread: `start`, `stop`, `skip`, `takeEvents`, `status` and `fill` on the control
/// thread (`fill` only when not started); the work on its own thread.
final class PlaylistStation: @unchecked Sendable {
    // @unchecked Sendable: the feeder is touched by the thread once started, by `fill` only
    // before; the control side reads `shared` (a Mutex) and sets atomics.
    let name: String
    let stream: AudioStream
    /// Frames kept in the ring ahead of the listener while playing live.
    static let leadSeconds = 0.5
    private let feeder: PlaylistFeeder
    private let running = Atomic<Bool>(true)
    private let skips = Atomic<Int>(0)
    private let shared: Mutex<Shared>
    private var thread: RealtimeThread?

    struct Shared {
        var events: [RadioEvent] = []
        var status: RadioStatus
    }

    /// `path` resolved (absolute, or relative to the working folder); `name` as the
    /// document wrote it.
    /// `live`: station URLs in the playlist play (a live session); offline they are skipped.
    init(name: String, path: String, options: PlaylistOptions, stream: AudioStream, sampleRate: Double, live: Bool = false) {
        self.name = name
        self.stream = stream
        var entries: [PlaylistSource.Entry] = []
        var failure: String?
        do { entries = try PlaylistSource.read(path).entries } catch { failure = error.description }
        feeder = PlaylistFeeder(name: name, entries: entries, options: options, sampleRate: sampleRate, playsStations: live)
        let label = name.split(separator: "/").last.map(String.init) ?? name
        shared = Mutex(Shared(status: RadioStatus(url: name, state: .playing, name: label + (name.hasSuffix("/") ? "/" : ""))))
        if let failure {
            feeder.notes = [PlaylistFeeder.Note(frame: 0, event: .error(url: name, message: failure))]
        }
    }

    func start() throws(SystemError) {
        let thread = RealtimeThread(name: "cabin-playlist", realtime: false) { [self] _ in run() }
        try thread.start()
        self.thread = thread
    }

    func stop() {
        running.store(false, ordering: .relaxed)
        thread?.join()
        thread = nil
    }

    /// Asks for the track `step` places on (negative: back).
    func skip(by step: Int) { _ = skips.add(step, ordering: .relaxed) }

    func takeEvents() -> [RadioEvent] { shared.withLock { s in defer { s.events = [] }; return s.events } }
    var status: RadioStatus { shared.withLock { $0.status } }

    /// Offline: writes until the ring holds `frames` frames ahead of the mixer (what one
    /// block will play), the same frames whatever the block size. `publishing` false (the
    /// first frames, written before anything plays) keeps the events for later.
    func fill(frames: Int, publishing: Bool = true) {
        applySkips()
        let want = min(frames, stream.capacityFrames) - stream.availableFrames
        if want > 0 { stream.write(feeder.produce(want)) }
        if publishing { publish(upTo: Int.max) }
    }

    private func applySkips() {
        let step = skips.exchange(0, ordering: .relaxed)
        if step != 0 { feeder.skip(by: step) }
    }

    /// Moves the feeder's notes that the listener has reached to the events and the status.
    private func publish(upTo played: Int) {
        guard let first = feeder.notes.first, first.frame <= played || first.event.isImmediate else { return }
        var due: [RadioEvent] = []
        feeder.notes.removeAll { note in
            guard note.frame <= played || note.event.isImmediate else { return false }
            due.append(note.event)
            return true
        }
        shared.withLock { s in
            for event in due {
                switch event {
                case .title(_, let title): s.status.title = title
                case .error(let url, _) where url == name: s.status.state = .failed
                default: break
                }
            }
            s.events += due
            if s.events.count > 1000 { s.events.removeFirst(s.events.count - 1000) }
        }
    }

    private func run() {
        let lead = Int(Self.leadSeconds * feeder.sampleRate)
        while running.load(ordering: .relaxed) {
            applySkips()
            let want = min(lead, stream.capacityFrames) - stream.availableFrames
            if want > 0 { stream.write(feeder.produce(want)) }
            // Frames produced but not yet played are still ahead of the listener.
            publish(upTo: feeder.produced - stream.availableFrames)
            feeder.prepareNext(steps: 2)
            usleep(10_000)
        }
    }
}

extension RadioEvent {
    /// Reported when it happens (a skipped track), not when the listener gets there.
    var isImmediate: Bool {
        switch self {
        case .skipped, .error: true
        default: false
        }
    }
}
