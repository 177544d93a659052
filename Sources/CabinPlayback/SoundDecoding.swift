import CabinAudio
import CabinIO
import Dispatch
import Synchronization

/// Sound files decoding into their `SampleStorage`, chunk by chunk, so a session can start
/// playing before its long sounds are decoded: what is decoded is published to the mixer
/// as it comes (frames not yet there play as silence, which never happens in practice: a
/// worker decodes Opus at ~200× real time and FLAC faster, while a voice reads at 1×).
///
/// Thread: made and read on the control thread; the decoding runs on a thread of its own
/// (`start`).
public final class SoundDecoding: @unchecked Sendable {
    // @unchecked Sendable: the jobs are handed to the decoding thread; the failures are
    // behind a mutex.
    private let group = DispatchGroup()
    private let failures = Mutex<[String]>([])

    init() {}

    /// Nothing left to decode.
    public static let done = SoundDecoding()

    /// Seconds of each sound decoded in turn (`start`).
    static let turnSeconds = 2.0

    /// Decodes the rest of each job in the background, on one thread of its own at a lower
    /// CPU priority (nice +10): the launch and the control thread keep the processor while
    /// sounds decode beside them (decoding every sound at once on a pool's threads, as
    /// before, took both cores of a two-core machine for ~30 ms right at the start). The
    /// jobs take turns of `turnSeconds` each until all are decoded, so every sound stays
    /// ahead of playback (a round of the drive's 13 files is under 26 s of audio, decoded
    /// in tens of milliseconds).
    func start(_ jobs: [SoundDecodeJob]) {
        guard !jobs.isEmpty else { return }
        group.enter()
        let decode: @Sendable () -> Void = { [self] in
            var pending = jobs
            while !pending.isEmpty {
                pending = pending.filter { job in
                    let turn = Int(Self.turnSeconds * job.storage.sampleRate)
                    let target = min(job.storage.frameCount, job.storage.readyFrames + turn)
                    do throws(SessionSoundLoader.LoadError) { try job.decode(upTo: target) } catch {
                        job.storage.fail(error.description)
                        failures.withLock { $0.append("\(error.description); the sound is silent from here on") }
                        job.close()
                        return false
                    }
                    if job.storage.isComplete { job.close() }
                    return !job.isClosed
                }
            }
            group.leave()
        }
        let thread = RealtimeThread(name: "cabin-decode", realtime: false) { _ in
            ThreadPriority.lowerCurrentThread(by: 10)
            decode()
        }
        do { try thread.start() } catch {
            // No thread to be had: decode on the pool, at its priority, as a last resort.
            DispatchQueue.global(qos: .utility).async(execute: decode)
            return
        }
        thread.detach()
    }

    /// Blocks until every sound is decoded.
    public func waitUntilDone() { group.wait() }

    /// Whether every sound is decoded.
    public var isDone: Bool { group.wait(timeout: .now()) == .success }

    /// Sounds that failed while decoding in the background (one line each), since the last
    /// call. Their layers and cues are silent from then on.
    public func takeFailures() -> [String] { failures.withLock { lines in defer { lines = [] }; return lines } }
}

/// One file decoding into its storage: the open file, the resampler when the file's rate
/// is not the session's, and how far it got.
///
/// Thread: one thread at a time (handed from the loader to one background worker).
final class SoundDecodeJob: @unchecked Sendable {
    // @unchecked Sendable: used by one thread at a time, handed over through Dispatch.
    let storage: SampleStorage
    private let file: OpenSoundFile
    private let resampler: StreamingResampler?
    private var framesDecoded: Int64 = 0
    private var chunk: [Float] = []
    /// Closed: decoded to the end (or failed); nothing more to do.
    private(set) var isClosed = false

    /// Frames decoded per read.
    static let chunkFrames = 16384

    /// Opens `path` and makes its storage at `sampleRate`; throws for files that cannot be
    /// played (not audio, more than two channels, empty, truncated by their header).
    init(path: String, sampleRate: Double) throws(SessionSoundLoader.LoadError) {
        do {
            file = try OpenSoundFile(path)
        } catch {
            throw .init(description: error.description)
        }
        let channels = file.channelCount
        do throws(SessionSoundLoader.LoadError) {
            guard channels <= 2 else {
                throw SessionSoundLoader.LoadError(description: "\(path): \(channels) channels; Cabin plays mono and stereo sounds")
            }
            do { try file.checkHeader() } catch { throw SessionSoundLoader.LoadError(description: error.description) }
            // Sized by what the file can hold, not by what its header claims.
            let declared: Int64
            do { declared = try file.framesToStore() } catch { throw SessionSoundLoader.LoadError(description: error.description) }
            guard declared > 0 else { throw SessionSoundLoader.LoadError(description: "\(path): holds no audio (0 frames)") }
            let rate = file.sampleRate
            var frames = Int(declared)
            if rate != sampleRate {
                do { resampler = try StreamingResampler(from: rate, to: sampleRate, channels: channels) } catch {
                    throw SessionSoundLoader.LoadError(description: "\(path): \(error.description)")
                }
                frames = StreamingResampler.outputFrames(for: frames, from: rate, to: sampleRate)
            } else {
                resampler = nil
            }
            storage = SampleStorage(frameCount: frames, channelCount: channels, sampleRate: sampleRate,
                                    format: file.storageFormat)
        } catch {
            file.close()
            throw error
        }
    }

    deinit { close() }

    /// The file's own sample rate.
    var fileSampleRate: Double { file.sampleRate }

    /// Decodes until at least `target` frames are in the storage; with `target` at the
    /// storage's length, to the end of the file (then checks it was whole and finishes the
    /// storage).
    func decode(upTo target: Int) throws(SessionSoundLoader.LoadError) {
        let channels = storage.channelCount
        let whole = target >= storage.frameCount
        if chunk.isEmpty && !isClosed { chunk = [Float](repeating: 0, count: SoundDecodeJob.chunkFrames * channels) }
        while !isClosed && (whole || storage.readyFrames < target) {
            let got = chunk.withUnsafeMutableBufferPointer { file.read(into: $0.baseAddress!, frames: SoundDecodeJob.chunkFrames) }
            if got == 0 { return try end() }
            framesDecoded += Int64(got)
            if let resampler {
                do {
                    try chunk.withUnsafeBufferPointer { (c) throws(SystemError) in
                        try resampler.process(c.baseAddress!, frames: got) { storage.append($0) }
                    }
                } catch { throw .init(description: "\(file.path): \(error.description)") }
            } else {
                chunk.withUnsafeBufferPointer { storage.append(UnsafeBufferPointer(rebasing: $0[0..<(got * channels)])) }
            }
        }
    }

    /// At the end of the file: flush the resampler, check the file was whole, finish.
    private func end() throws(SessionSoundLoader.LoadError) {
        if let resampler {
            do { try resampler.process(nil, frames: 0) { storage.append($0) } } catch {
                throw .init(description: "\(file.path): \(error.description)")
            }
        }
        do { try file.checkEnd(framesDecoded: framesDecoded) } catch { throw .init(description: error.description) }
        storage.finish()
        close()
    }

    /// Releases the file (and the chunk buffer).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        file.close()
        chunk = []
    }
}
