import CabinAudio
import CabinIO
import CabinPlayback
import CabinSession
import Synchronization

/// A playlist of the user's music feeding one `AudioStream`: a `PlaylistFeeder` run on its
/// own thread while a session plays (the ring kept `leadSeconds` ahead of the listener,
/// the next track's loudness measured between top-ups), or driven block by block by the
/// offline renderer (`fill`), so a render is deterministic.
///
/// Switching (`skip(by:)`) is a request the thread carries out at its next top-up (within
/// 10 ms), crossfaded equal-power over `PlaylistFeeder.switchSeconds`. Live, it starts
/// `spliceSeconds` after what the listener has heard: the feeder takes back the frames it
/// had queued beyond that point and the mixer skips them (`AudioStream.splice`), so a switch
/// starts within about 60 ms of the request instead of after the half second queued. Offline (`fill`)
/// nothing is queued ahead, so it starts at the next block.
///
/// Thread: `start`, `stop`, `skip`, `takeEvents`, `status` and `fill` on the control
/// thread (`fill` only when not started); the work on its own thread.
final class PlaylistStation: @unchecked Sendable {
    // @unchecked Sendable: the feeder is touched by the thread once started, by `fill` only
    // before; the control side reaches `worker` and sets atomics.
    let name: String
    let stream: AudioStream
    /// Frames kept in the ring ahead of the listener while playing live.
    static let leadSeconds = 0.5
    /// How far past what the listener has heard a live switch starts: more than a period of
    /// the device and a wake-up of this thread, so the mixer has not played past it.
    static let spliceSeconds = 0.05
    /// Ring frames minus the feeder's frames: what splices have skipped.
    private var ringOffset = 0
    private var isLive = false
    private let feeder: PlaylistFeeder
    private let worker: StationWorker
    private let skips = Atomic<Int>(0)
    /// Frames the session's timeline has moved by (seeks) and the feeder has not yet followed.
    private let seeks = Atomic<Int>(0)

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
        worker = StationWorker(status: RadioStatus(url: name, state: .playing, name: label + (name.hasSuffix("/") ? "/" : "")))
        if let failure {
            feeder.notes = [PlaylistFeeder.Note(frame: 0, event: .error(url: name, message: failure))]
        }
    }

    func start() throws(SystemError) {
        isLive = true
        feeder.historyFrames = Int((Self.leadSeconds + 0.25) * feeder.sampleRate)
        try worker.start(name: "cabin-playlist") { [self] in run() }
    }

    func stop() { worker.stop() }

    /// Asks for the track `step` places on (negative: back).
    func skip(by step: Int) { _ = skips.add(step, ordering: .relaxed) }

    /// The session's timeline moved by `seconds` (a seek): the track playing follows
    /// (`PlaylistFeeder.seek`), at the next top-up.
    func seek(by seconds: Double) { _ = seeks.add(Int((seconds * feeder.sampleRate).rounded()), ordering: .relaxed) }

    func takeEvents() -> [RadioEvent] { worker.takeEvents() }
    var status: RadioStatus { worker.status }

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
        if step != 0 { change { feeder.skip(by: step, rewindingTo: $0) } }
        let delta = seeks.exchange(0, ordering: .relaxed)
        if delta != 0 { change { feeder.seek(by: delta, rewindingTo: $0) } }
    }

    /// Carries out a switch or a seek: live, from `spliceSeconds` after what the listener has
    /// heard (`body` gets that frame and says whether it rewound to it; the mixer then skips
    /// what was queued beyond it); offline, or when it cannot, from what is produced next.
    private func change(_ body: (Int?) -> Bool) {
        guard isLive, !stream.isSplicePending else {
            _ = body(nil)
            return
        }
        let from = stream.playedFrames + Int(Self.spliceSeconds * feeder.sampleRate)
        let to = stream.writtenFrames
        if from < to, body(from - ringOffset) {
            stream.splice(from: from, to: to)
            ringOffset += to - from
            // What continues from `from` must be there when the mixer gets to it.
            stream.write(feeder.produce(Int(Self.leadSeconds * feeder.sampleRate)))
        } else if from >= to {
            _ = body(nil)
        }
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
        worker.withShared { s in
            for event in due {
                switch event {
                case .title(_, let title): s.status.title = title
                case .error(let url, _) where url == name: s.status.state = .failed
                default: break
                }
            }
            s.events += due
        }
    }

    private func run() {
        let lead = Int(Self.leadSeconds * feeder.sampleRate)
        while worker.isRunning {
            applySkips()
            let want = min(lead, stream.capacityFrames) - stream.availableFrames
            if want > 0 { stream.write(feeder.produce(want)) }
            // The listener's position in the feeder's frames (splices skipped `ringOffset`).
            publish(upTo: stream.playedFrames - ringOffset)
            feeder.prepareNext(steps: 2)
            ThreadSleep.microseconds(10_000)
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
