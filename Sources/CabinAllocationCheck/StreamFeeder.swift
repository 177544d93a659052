import CabinAudio
import CabinIO
import Glibc
import Synchronization

/// The built-in scene's stream: a layer playing an `AudioStream` that a producer thread keeps
/// writing while the session renders (a 110 Hz tone, in chunks of up to 512 frames, from
/// memory allocated before it starts), so the count covers the stream voice's kernel, the
/// mixer's per-segment stream bookkeeping and a producer working concurrently — underflows
/// included, since the check renders far faster than real time.
///
/// Thread: made and stopped on the main thread; `write`s from its own thread.
final class StreamFeeder: @unchecked Sendable {
    // @unchecked Sendable: `tone` is written in init and only read afterwards; `running` is
    // an atomic.
    let stream: AudioStream
    private let running = Atomic<Bool>(true)
    private let tone: UnsafeMutablePointer<Float>
    /// 0.1 s at 48 kHz: 11 whole periods of 110 Hz, so the tone loops seamlessly.
    private static var toneFrames: Int { 4_800 }
    private var thread: RealtimeThread?

    init(stream: AudioStream) {
        self.stream = stream
        tone = .allocate(capacity: 2 * StreamFeeder.toneFrames)
        for i in 0..<StreamFeeder.toneFrames {
            let x = Float(0.3 * sin(2 * Double.pi * 110 * Double(i) / 48_000))
            tone[2 * i] = x
            tone[2 * i + 1] = x
        }
    }

    deinit { tone.deallocate() }

    /// Starts the producer and waits until its first frames are written (so its thread has
    /// started before allocations are counted).
    func start() throws {
        let thread = RealtimeThread(name: "cabin-stream", realtime: false) { [self] _ in produce() }
        try thread.start()
        self.thread = thread
        while stream.availableFrames == 0 { sched_yield() }
    }

    /// Stops the producer and waits for its thread.
    func stop() {
        running.store(false, ordering: .relaxed)
        thread?.join()
    }

    private func produce() {
        var offset = 0
        while running.load(ordering: .relaxed) {
            let count = min(512, StreamFeeder.toneFrames - offset)
            let written = stream.write(UnsafeBufferPointer(start: tone + 2 * offset, count: 2 * count))
            offset = (offset + written) % StreamFeeder.toneFrames
            if written == 0 { sched_yield() }
        }
    }
}
