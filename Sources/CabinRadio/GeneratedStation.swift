import CabinAudio
import CabinIO
import CabinSession
import CabinSoundDesign

/// Generated music (`gen:NAME`, a `SoundGenerator`) feeding one `AudioStream`: composed on
/// its own thread while a session plays, the ring kept `leadSeconds` ahead of the listener,
/// or block by block by the offline renderer (`fill`), so a render is deterministic.
///
/// Why a stream and not a loaded asset: the music is as long as the session (hours); as an
/// asset it would cost its whole length in memory and its making before the first sound.
/// Streamed, it holds the ring and the few seconds of notes ahead, and costs a few percent
/// of a core on a thread that is not the render thread.
///
/// Offline, the music is composed ahead on its own thread too (`fillAhead`): the ring is
/// kept full while the renderer mixes, and each block waits only until its frames are in
/// the ring. The generator gives the same samples however its frames are asked for, so the
/// render is the same as composing block by block — in about the time of the slower of
/// the two instead of their sum.
///
/// Thread: `start`, `stop`, `fill` and `fillAhead` on the control thread (`fill` only when
/// not started); the work on its own thread.
final class GeneratedStation: @unchecked Sendable {
    // @unchecked Sendable: the generator is touched by the thread once started, by `fill`
    // only before.
    let name: String
    let stream: AudioStream
    static let leadSeconds = 0.5
    private var generator: (any SoundGenerator)?
    private let sampleRate: Double
    private let thread = StoppableThread()

    init(name: String, generator: CompiledSession.Station.Generator, stream: AudioStream, sampleRate: Double) {
        self.name = name
        self.stream = stream
        self.sampleRate = sampleRate
        self.generator = SoundGenerators.make(generator.name, sampleRate: sampleRate, seed: generator.seed)
    }

    /// What failed (a name no generator has), for the radio's events.
    var problem: String? { generator == nil ? SoundGenerators.problem(with: String(name.dropFirst(4))) : nil }

    func start() throws(SystemError) {
        guard generator != nil else { return }
        let wake = try EventFD()
        stopSignal = wake
        try thread.start(name: "cabin-generate") { [self] in run(wake) }
    }

    func stop() {
        thread.requestStop()
        stopSignal?.signal()
        ahead.wakeAll()
        thread.stop()
    }

    /// Live: signalled by `stop`, so the thread's long sleeps end at once.
    private var stopSignal: EventFD?

    /// Offline: frames composed per write by the thread that composes ahead.
    static let aheadChunkFrames = 8192
    /// Offline: the ring's change between the waiting renderer and the thread composing ahead.
    private let ahead = WakeSignal()
    /// Offline: frames `fillAhead` is waiting for (0: none), under `ahead`'s lock.
    private var wanted = 0

    /// Offline (not started): returns once the ring holds `frames` frames (at most its
    /// capacity), composed by a thread that keeps the ring full (started at the first call;
    /// without a thread, composed here as `fill` does). Blocks on a condition variable, not
    /// polling: the thread wakes it after every chunk.
    func fillAhead(frames: Int) {
        guard generator != nil else { return }
        if !thread.isStarted {
            do { try thread.start(name: "cabin-generate") { [self] in composeAhead() } } catch { return fill(frames: frames) }
        }
        let want = min(frames, stream.capacityFrames)
        guard stream.availableFrames < want else {
            // The mixer has read since: wake the thread if a chunk fits.
            if stream.freeFrames >= Self.aheadChunkFrames { ahead.wakeAll() }
            return
        }
        ahead.locked { wanted = want }
        ahead.wakeAll()
        ahead.wait { stream.availableFrames >= want }
        ahead.locked { wanted = 0 }
    }

    /// The offline thread: tops the ring up a chunk at a time whenever a chunk fits (or
    /// whatever fits while `fillAhead` waits for frames), sleeping on `ahead` in between.
    private func composeAhead() {
        while thread.isRunning {
            var room = 0
            ahead.wait {
                let free = stream.freeFrames
                room = free >= Self.aheadChunkFrames ? Self.aheadChunkFrames : wanted > 0 ? free : 0
                return room > 0 || !thread.isRunning
            }
            guard room > 0 && thread.isRunning else { continue }
            _ = stream.write(generator!.produce(room))
            ahead.wakeAll()
        }
    }

    /// Writes until the ring holds `frames` frames ahead of the mixer.
    func fill(frames: Int) {
        guard generator != nil else { return }
        let want = min(frames, stream.capacityFrames) - stream.availableFrames
        if want > 0 { stream.write(generator!.produce(want)) }
    }

    /// Live: tops the ring up to `leadSeconds`, then sleeps until the mixer has taken half
    /// of it (at least 10 ms, at most 250): a few wake-ups a second, not a hundred, with a
    /// quarter of a second still in the ring when it tops up again (the mixer takes at most
    /// a period, 64 ms at relaxed latency, at a time).
    private func run(_ wake: EventFD) {
        let lead = Int(Self.leadSeconds * sampleRate)
        while thread.isRunning {
            fill(frames: lead)
            let spare = Double(stream.availableFrames - lead / 2) / sampleRate
            if EventFD.waitReadable(wake.descriptor, timeoutMilliseconds: Int32(min(250, max(10, spare * 1000)))) { break }
        }
    }
}
