import CabinAudio
import Synchronization

/// Plays a compiled session: owns the mixer, feeds it the timeline's commands just in time
/// (on the render thread itself, straight into the mixer's pending queue), and reports the
/// marks it passes.
///
/// Output frame N is timeline frame N: the mixer's limiter look-ahead is pre-rolled when
/// the runner is made, so a cue at frame N sounds at output frame N.
///
/// ```swift
/// let runner = SessionRunner(compiled)
/// while !runner.isFinished { let n = runner.render(into: block, frameCount: 512) … }
/// ```
///
/// Thread: `init` on the control thread; `render` on one render thread; `marksReached`,
/// `handle` and `position` from any thread.
public final class SessionRunner: @unchecked Sendable {
    /// The session it plays.
    public let session: CompiledSession
    /// Live control of the mixer (parameters, counters) from the control thread.
    public let handle: MixerHandle
    private let mixer: Mixer
    private let commands: UnsafeMutableBufferPointer<MixerCommand>
    /// The marks' frames, copied like the commands so the render thread reads no array.
    private let markFrames: UnsafeMutableBufferPointer<FrameTime>
    private var nextCommand = 0
    private let latency: Int
    private let frameCounter = Atomic<Int64>(0)
    private let markCounter = Atomic<Int>(0)
    private var nextMark = 0

    /// A runner at the start of `session`: builds its mixer (allocates) and pre-rolls the
    /// limiter's look-ahead. Control thread.
    public init(_ session: CompiledSession) {
        self.session = session
        let (mixer, handle) = session.config.make()
        self.mixer = mixer
        self.handle = handle
        commands = .allocate(capacity: session.commands.count)
        _ = commands.initialize(from: session.commands)
        markFrames = .allocate(capacity: session.marks.count)
        _ = markFrames.initialize(from: session.marks.map(\.frame))
        latency = mixer.latencyFrames
        preroll()
    }

    deinit {
        commands.deallocate()
        markFrames.deallocate()
    }

    /// Frames of the timeline rendered so far ("now" in the session).
    public var position: FrameTime { frameCounter.load(ordering: .acquiring) }

    /// Whether the whole session has been rendered.
    public var isFinished: Bool { position >= session.durationFrames }

    /// How many of `session.marks` the output has reached (read from the control thread:
    /// `session.marks[..<marksReached]`).
    public var marksReached: Int { markCounter.load(ordering: .acquiring) }

    /// Renders up to `frameCount` frames of interleaved stereo into `output`; returns how
    /// many belong to the session (fewer at its end; the rest is silence).
    ///
    /// Render thread: safe — no allocation, locks, errors or I/O.
    public func render(into output: UnsafeMutableBufferPointer<Float>, frameCount: Int) -> Int {
        let start = frameCounter.load(ordering: .relaxed)
        let n = Int(max(0, min(Int64(frameCount), session.durationFrames - start)))
        if n > 0 {
            renderMixer(into: output, frameCount: n)
        }
        if n < frameCount, let base = output.baseAddress {
            (base + 2 * n).update(repeating: 0, count: 2 * (frameCount - n))
        }
        let end = start + FrameTime(n)
        while nextMark < markFrames.count && markFrames[nextMark] < end { nextMark += 1 }
        markCounter.store(nextMark, ordering: .releasing)
        frameCounter.store(end, ordering: .releasing)
        return n
    }

    /// Acts on the mixer now (at the current frame), from the render thread: transport
    /// fades (pause, quit) that must not wait for the control ring.
    ///
    /// Render thread: safe. Call it only from the thread that calls `render`.
    public func processAction(_ action: MixerCommand.Action) {
        _ = mixer.processSchedule(MixerCommand(at: mixer.currentFrame, action))
    }

    /// Publishes where the session is into `feed` (when a haptic player listens): the
    /// session frame reached — `base` (where this runner's frame 0 sits on the timeline)
    /// plus the frames rendered — and the mixer's parameter values there.
    ///
    /// Render thread: safe. Call it only from the thread that calls `render`.
    public func processHapticFeed(_ feed: HapticFeed.View, base: FrameTime) {
        guard feed.isListening else { return }
        feed.publish(frame: base + frameCounter.load(ordering: .relaxed)) { self.mixer.processParameterValue($0) }
    }

    /// Frames the mixer runs ahead of the output (the limiter's look-ahead, pre-rolled): after
    /// output frame N the mixer's ramps are at timeline frame N + `lookAheadFrames`.
    public var lookAheadFrames: Int { latency }

    /// Parameter `index`'s value where the mixer is now (its ramp at timeline frame
    /// `position + lookAheadFrames`). Render thread: safe. Call it only from the thread that
    /// calls `render`.
    @inline(__always)
    public func processParameterValue(_ index: Int) -> Double { mixer.processParameterValue(index) }

    /// Advances the session by `frameCount` frames without output (catching up after an
    /// underrun or an outage, so the timeline stays on the wall clock). Uses `scratch` for
    /// the discarded audio.
    ///
    /// Render thread: safe.
    public func processSkip(_ frameCount: Int, scratch: UnsafeMutableBufferPointer<Float>) {
        var left = frameCount
        let chunk = scratch.count / 2
        while left > 0 && !isFinished {
            let n = min(left, chunk)
            _ = render(into: scratch, frameCount: n)
            left -= n
        }
    }

    /// Schedules the commands due before the mixer clock passes `limit`, then renders.
    private func renderMixer(into output: UnsafeMutableBufferPointer<Float>, frameCount: Int) {
        var done = 0
        while done < frameCount {
            var n = frameCount - done
            let limit = mixer.currentFrame + FrameTime(n)
            while nextCommand < commands.count && commands[nextCommand].time < limit {
                if !mixer.processSchedule(commands[nextCommand]) {
                    // Pending queue full: render up to this command's frame first.
                    n = max(1, Int(commands[nextCommand].time - mixer.currentFrame))
                    break
                }
                nextCommand += 1
            }
            let slice = UnsafeMutableBufferPointer(rebasing: output[(2 * done)..<(2 * (done + n))])
            mixer.render(into: slice, frameCount: n)
            done += n
        }
    }

    /// Renders the limiter's look-ahead once and drops it, so output frame N is timeline
    /// frame N. Control thread, at creation.
    private func preroll() {
        guard latency > 0 else { return }
        let scratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: 2 * latency)
        defer { scratch.deallocate() }
        renderMixer(into: scratch, frameCount: latency)
    }
}
