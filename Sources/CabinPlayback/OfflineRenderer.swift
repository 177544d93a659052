import CabinAudio
import CabinIO
import CabinSession
import FoundationEssentials

/// Renders a session to a sound file as fast as the machine goes.
///
/// The file is written through an `OutputFile` (a temporary beside it, renamed at the end;
/// a device, FIFO or standard output is streamed to), so an interrupted or failed render
/// leaves nothing half-written at the destination. The
/// output is the same bits on every run and for every block size.
///
/// Thread: control thread only (file I/O).
public struct OfflineRenderer {
    /// Frames mixed per block (512 by default); the output is the same at any block size.
    public var blockFrames = 512
    /// Timeline range to write, in seconds (`nil`: from the start / to the end).
    public var from: Double?
    /// Where the written range ends, in seconds of the timeline (`nil`: the session's end;
    /// a later time is clamped to it).
    public var to: Double?
    /// Polled between blocks; returning true abandons the render (the temp file is removed).
    public var isCancelled: @Sendable () -> Bool = { false }
    /// Called between blocks with (frames done, frames total).
    public var progress: (Int64, Int64) -> Void = { _, _ in }
    /// Also write the session's haptic track here: mono, at the session's rate, the same
    /// frames as the mix (the same `from`/`to`), so the two files are sample-aligned.
    public var hapticTrack: HapticTrackOutput?
    /// The session's radio, when it plays playlists: fed before every block
    /// (`SessionRadio.fill`), so the tracks render deterministically.
    public var radio: (any SessionRadio)?
    /// Render in real time from `from` on: each block waits until the monotonic clock
    /// reaches its time, so the live streams the session plays (started with
    /// `SessionRadio.startLiveStreams`) are recorded as they arrive, aligned to the
    /// timeline (`cabin render --record-live`). Frames before `from` render at full speed.
    /// Such a render is not deterministic: it holds what the stations sent.
    public var realTime = false

    /// Where and how to write a session's haptic track.
    public struct HapticTrackOutput {
        /// The session's haptic track, rendered alongside the mix.
        public var track: SessionHapticTrack
        /// The file to write (`-` for standard output, as `OutputFile` reads it).
        public var path: String
        /// The file's container and sample encoding; written mono at the session's rate.
        public var format: SoundFileFormat
        /// The output already opened for `path` (checked before any work); `nil`: opened
        /// when the render starts.
        public var output: OutputFile?
        /// Writes `track` to `path` in `format`, through `output` when it is already open.
        public init(track: SessionHapticTrack, path: String, format: SoundFileFormat, output: OutputFile? = nil) {
            self.track = track
            self.path = path
            self.format = format
            self.output = output
        }
    }

    /// A renderer mixing `blockFrames` frames per block, over the whole session, not paced.
    public init(blockFrames: Int = 512) { self.blockFrames = blockFrames }

    /// What was written.
    public struct Summary: Sendable {
        /// Frames written (per channel).
        public var frames: Int64
        /// The written range's length, in seconds of audio.
        public var seconds: Double
        /// Wall-clock seconds the render took.
        public var wallSeconds: Double
        /// How many times faster than real time the render ran: `seconds / wallSeconds`
        /// (infinity when no wall time was measured).
        public var speed: Double { wallSeconds > 0 ? seconds / wallSeconds : .infinity }
    }

    /// Why a render wrote nothing; the output file is never left half-written.
    public enum RenderError: Error, Sendable, CustomStringConvertible {
        /// `isCancelled` returned true between two blocks.
        case cancelled
        /// Encoding or writing the sound file (or the haptic track's) failed.
        case file(SoundFileError)
        /// The output could not be opened or committed (its folder, permissions, the
        /// temporary file it is written through).
        case output(OutputError)
        /// The requested range holds no frames (`from` at or past `to` or the session's end,
        /// or negative), or another error, described.
        case range(String)
        public var description: String {
            switch self {
            case .cancelled: "render interrupted; nothing was written"
            case .file(let e): e.description
            case .output(let e): e.description
            case .range(let s): s
            }
        }
    }

    /// Renders `runner`'s session into `path` in `format` (see `OutputFile`).
    public func write(_ runner: SessionRunner, to path: String, format: SoundFileFormat) throws(RenderError) -> Summary {
        let output: OutputFile
        do { output = try OutputFile(path) } catch { throw .output(error) }
        return try write(runner, to: output, format: format)
    }

    /// Renders `runner`'s session into `output` and commits it; on any failure or
    /// cancellation the output (and the haptic track's) is discarded.
    public func write(_ runner: SessionRunner, to output: OutputFile, format: SoundFileFormat) throws(RenderError) -> Summary {
        let rate = runner.session.sampleRate
        let total = runner.session.durationFrames
        let startFrame = from.map { FrameTime(($0 * rate).rounded()) } ?? 0
        let endFrame = min(total, to.map { FrameTime(($0 * rate).rounded()) } ?? total)
        var hapticOutput = hapticTrack?.output
        defer { output.discard(); hapticOutput?.discard() }  // no-ops once committed
        guard startFrame >= 0, startFrame < endFrame else {
            throw .range("nothing to render between \(SessionTime.format(Double(startFrame) / rate)) and \(SessionTime.format(Double(endFrame) / rate)) (the session lasts \(SessionTime.format(Double(total) / rate)))")
        }
        let clock = ContinuousClock.now
        do {
            if let hapticTrack, hapticOutput == nil { hapticOutput = try OutputFile(hapticTrack.path) }
            let expected = Int64(endFrame - startFrame)
            let writer = try SoundFileWriter(output: output, format: format, channelCount: 2, sampleRate: rate,
                                             expectedFrames: expected)
            // A file is converted and written on a queue of its own while the next blocks mix;
            // a stream (a pipe, a device, a paced recording) is written as it comes.
            let background = realTime || output.isStream ? nil : BackgroundSoundWriter(writer)
            defer { background?.abandon() }  // after `finish`, or on a failure: waits for the queue
            let hapticWriter = try hapticTrack.map { (track) throws(SoundFileError) in
                try SoundFileWriter(output: hapticOutput!, format: track.format, channelCount: 1, sampleRate: rate,
                                    expectedFrames: expected)
            }
            var block = [Float](repeating: 0, count: 2 * blockFrames)
            var hapticBlock = [Float](repeating: 0, count: hapticTrack == nil ? 0 : blockFrames)
            var position: FrameTime = 0
            var pace: Double?
            while position < endFrame {
                if isCancelled() { throw RenderError.cancelled }
                let n = Int(min(FrameTime(blockFrames), endFrame - position))
                if realTime && position + FrameTime(n) > startFrame {
                    let start = pace ?? MonotonicClock.seconds()
                    pace = start
                    let due = start + Double(max(0, position - startFrame)) / rate
                    var wait = due - MonotonicClock.seconds()
                    while wait > 0 && !isCancelled() {
                        ThreadSleep.microseconds(UInt32(min(wait, 0.05) * 1e6))
                        wait = due - MonotonicClock.seconds()
                    }
                }
                radio?.fill(frames: n)
                let rendered = block.withUnsafeMutableBufferPointer { runner.render(into: $0, frameCount: n) }
                // Frames before `from` are rendered (the mix must evolve) but not written.
                let skip = Int(max(0, min(FrameTime(n), startFrame - position)))
                if rendered > skip {
                    try block.withUnsafeBufferPointer { (p) throws(SoundFileError) in
                        let frames = UnsafeBufferPointer(rebasing: p[(2 * skip)..<(2 * rendered)])
                        if let background { try background.append(frames) } else { try writer.write(frames) }
                    }
                }
                if let hapticTrack, let hapticWriter {
                    hapticBlock.withUnsafeMutableBufferPointer { hapticTrack.track.render(into: $0, from: position, frameCount: n) }
                    if rendered > skip {
                        try hapticBlock.withUnsafeBufferPointer { (p) throws(SoundFileError) in
                            try hapticWriter.write(UnsafeBufferPointer(rebasing: p[skip..<rendered]))
                        }
                    }
                }
                position += FrameTime(n)
                progress(position, endFrame)
            }
            try background?.finish()
            try writer.close()
            try hapticWriter?.close()
            try hapticOutput?.commit()
            try output.commit()
        } catch let error as SoundFileError {
            throw .file(error)
        } catch let error as OutputError {
            throw .output(error)
        } catch let error as RenderError {
            throw error
        } catch {
            throw .range("\(error)")
        }
        let elapsed = ContinuousClock.now - clock
        let wall = elapsed.inSeconds
        let frames = endFrame - startFrame
        return Summary(frames: frames, seconds: Double(frames) / rate, wallSeconds: wall)
    }
}
