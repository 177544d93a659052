import CabinAudio
import CabinHaptics

/// The haptic track of a session: every haptic cue's pattern rendered as audio (with
/// `HapticAudioRenderer`), each starting on its cue's exact frame, summed into one mono
/// signal as long as the session and at its rate — sample-aligned with the session's mix,
/// so frame N of the track is frame N of the render.
///
/// Each pattern is rendered once (at the session's rate, mono) and placed at each cue that
/// uses it. Where cues overlap and their sum would pass the renderer's ceiling (−1 dBFS),
/// the whole track is scaled by one gain (``gain``) so its peak is exactly the ceiling; the
/// gain is found up front from the overlapping cues alone, so blocks render independently.
/// Audio past the session's end is cut.
///
/// ```swift
/// let track = SessionHapticTrack(compiled)
/// track.render(into: block, from: position, frameCount: 512)   // mono Float
/// ```
///
/// A session with haptic layers renders differently: its layers and cues are combined as
/// one signal (``SessionHapticSignal``: intensities added and clipped to 1, sharpness
/// weighted by intensity, as Core Haptics combines players) and synthesized block by block
/// (`HapticSignalSynth`), so a looped texture costs no memory for its length.
///
/// Thread: `init` on the control thread (allocates, renders patterns); `render` is
/// allocation-free and may run on any one thread at a time (rendering frames in order).
public struct SessionHapticTrack: Sendable {
    /// A pattern placed on the timeline.
    public struct Clip: Sendable, Equatable {
        /// The cue's frame: the clip's first sample is output frame `frame`.
        public var frame: FrameTime
        /// The cue's `haptic` text.
        public var pattern: String
        /// Index into the rendered patterns (−1 when the track renders the combined signal).
        let audioIndex: Int
    }

    /// The track's rate, Hz: the session's.
    public let sampleRate: Double
    /// The track's length in frames: the session's.
    public let durationFrames: FrameTime
    /// Placed patterns, sorted by frame (cues whose pattern did not load are left out).
    public let clips: [Clip]
    /// The normalisation gain (1 unless overlapping cues would pass the ceiling).
    public let gain: Float
    private let audio: [[Float]]
    /// With haptic layers: the layers and the cues combined (``SessionHapticSignal``) and
    /// synthesized as they are rendered; the clips are then not summed.
    let synth: HapticSignalSynth?
    /// The combined signal, when the session has haptic layers.
    public var signal: SessionHapticSignal? { synth?.signal }
    /// What the running session adds to the timeline, for a track that follows it live
    /// (``init(following:options:)``); nil for the timeline's track.
    public let live: LiveHapticState?

    /// The timeline's haptic track (`cabin render --haptics`).
    public init(_ session: CompiledSession, options: HapticAudioOptions = .init()) {
        self.init(session, options: options, live: false)
    }

    /// The haptic track of `session` as it plays live (`cabin play --haptics-device`): its
    /// layers follow the parameters the render thread hands ``live`` each period, and the
    /// focus haptic (`leave-focus`) can be started live (``LiveHapticState/trigger(pattern:frame:)``).
    /// Rendered with nothing live, it is the timeline's track.
    public init(following session: CompiledSession, options: HapticAudioOptions = .init()) {
        self.init(session, options: options, live: true)
    }

    private init(_ session: CompiledSession, options: HapticAudioOptions, live: Bool) {
        sampleRate = session.sampleRate
        durationFrames = session.durationFrames
        var audio: [[Float]] = []
        var index: [String: Int] = [:]
        var clips: [Clip] = []
        // Only what is heard is made: a pattern is cut at the session's end after its first cue.
        var firstFrame: [String: FrameTime] = [:]
        for cue in session.haptics { firstFrame[cue.pattern] = min(firstFrame[cue.pattern] ?? cue.frame, cue.frame) }
        // With haptic layers the cues are rendered through the combined signal: no clips made.
        var signal = SessionHapticSignal(session)
        // The patterns live events may start: in the combined signal, or as clips of their own.
        var triggers: [(name: String, index: Int, length: Double)] = []
        if live, let name = session.focus?.haptic, let compiled = session.hapticPatterns[name] {
            if signal != nil {
                triggers.append((name, signal!.pattern(named: name, compiled), compiled.duration))
            } else {
                audio.append(Self.clip(compiled, sampleRate: session.sampleRate, options: options))
                triggers.append((name, audio.count - 1, Double(audio[audio.count - 1].count) / session.sampleRate))
            }
        }
        let liveState = live ? LiveHapticState(session, triggers: triggers) : nil
        self.live = liveState
        for cue in session.haptics {
            guard let compiled = session.hapticPatterns[cue.pattern] else { continue }
            if signal != nil {
                clips.append(Clip(frame: cue.frame, pattern: cue.pattern, audioIndex: -1))
                continue
            }
            let i = index[cue.pattern] ?? {
                let heard = Int(clamping: max(0, session.durationFrames - (firstFrame[cue.pattern] ?? 0)))
                audio.append(Self.clip(compiled, sampleRate: session.sampleRate, options: options, maxFrames: heard))
                index[cue.pattern] = audio.count - 1
                return audio.count - 1
            }()
            clips.append(Clip(frame: cue.frame, pattern: cue.pattern, audioIndex: i))
        }
        self.clips = clips.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        self.audio = audio
        if let signal {
            synth = HapticSignalSynth(signal: signal, options: Self.clipOptions(options, sampleRate: session.sampleRate),
                                      sampleRate: session.sampleRate, live: liveState)
            gain = 1
            return
        }
        synth = nil
        let peak = Self.peak(self.clips, audio)
        let ceiling = options.peakCeiling
        gain = peak > ceiling ? Float(ceiling / peak) : 1
    }

    /// A pattern as mono audio at `sampleRate` (the renderer's own level and length, or
    /// its first `maxFrames`).
    public static func clip(_ compiled: CompiledHaptics, sampleRate: Double, options: HapticAudioOptions,
                            maxFrames: Int? = nil) -> [Float] {
        HapticAudioRenderer.synthesize(compiled, options: clipOptions(options, sampleRate: sampleRate), maxFrames: maxFrames).samples
    }

    /// Frames of `clip` (without rendering it).
    public static func clipFrameCount(_ compiled: CompiledHaptics, sampleRate: Double, options: HapticAudioOptions) -> Int {
        HapticAudioRenderer.frameCount(compiled, options: clipOptions(options, sampleRate: sampleRate))
    }

    private static func clipOptions(_ options: HapticAudioOptions, sampleRate: Double) -> HapticAudioOptions {
        var options = options
        options.sampleRate = sampleRate
        options.layout = .mono
        return options
    }

    /// Mono samples for frames `start ..< start + frameCount` into `output` (which it
    /// overwrites). Render thread: safe — no allocation, locks or I/O.
    public func render(into output: UnsafeMutableBufferPointer<Float>, from start: FrameTime, frameCount: Int) {
        guard let base = output.baseAddress, frameCount > 0 else { return }
        base.update(repeating: 0, count: frameCount)
        let end = min(start + FrameTime(frameCount), durationFrames)
        if let synth {
            if end > start { synth.render(into: base, from: start, count: Int(end - start)) }
            return
        }
        for clip in clips {
            if clip.frame >= end { break }
            let samples = audio[clip.audioIndex]
            let clipEnd = clip.frame + FrameTime(samples.count)
            guard clipEnd > start else { continue }
            add(samples, at: clip.frame, into: base, from: start, to: end)
        }
        if let live {
            for i in 0..<live.instanceCount {
                add(audio[live.triggers[live.kinds[i]].index], at: live.origins[i], into: base, from: start, to: end)
            }
        }
    }

    /// Adds `samples` (starting at frame `frame`) times ``gain`` to `base` (frame `start`)
    /// where they fall in `start..<end`.
    @inline(__always)
    private func add(_ samples: [Float], at frame: FrameTime, into base: UnsafeMutablePointer<Float>, from start: FrameTime,
                     to end: FrameTime) {
        let clipEnd = frame + FrameTime(samples.count)
        guard clipEnd > start, frame < end else { return }
        var f = max(start, frame)
        while f < min(end, clipEnd) {
            base[Int(f - start)] += samples[Int(f - frame)] * gain
            f += 1
        }
    }

    /// The largest |sample| of the summed clips: single clips by their own peak, groups of
    /// overlapping clips by mixing just that group.
    static func peak(_ clips: [Clip], _ audio: [[Float]]) -> Double {
        var peak = 0.0
        var group: [Clip] = []
        var groupEnd: FrameTime = 0
        func flush() {
            guard let first = group.first else { return }
            if group.count == 1 {
                peak = max(peak, Double(audio[first.audioIndex].lazy.map { abs($0) }.max() ?? 0))
            } else {
                var mix = [Float](repeating: 0, count: Int(groupEnd - first.frame))
                for clip in group {
                    for (k, v) in audio[clip.audioIndex].enumerated() { mix[Int(clip.frame - first.frame) + k] += v }
                }
                peak = max(peak, Double(mix.lazy.map { abs($0) }.max() ?? 0))
            }
            group = []
        }
        for clip in clips {
            let end = clip.frame + FrameTime(audio[clip.audioIndex].count)
            if !group.isEmpty && clip.frame >= groupEnd { flush() }
            if group.isEmpty { groupEnd = end } else { groupEnd = max(groupEnd, end) }
            group.append(clip)
        }
        flush()
        return peak
    }
}
