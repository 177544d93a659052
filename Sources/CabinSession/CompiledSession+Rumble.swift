import CabinHaptics

extension CompiledSession {
    /// The session's haptic cues as one plan for a rumble device: each loaded pattern
    /// placed at its cue (the cue's frame in whole milliseconds, rounded), overlapping
    /// continuous tracks added per motor, transients sharing the transient voices (see
    /// `RumblePlan/init(placed:options:)`). A live player walks it against the audio
    /// clock (`RumblePlayer.play(_:clock:)` in `CabinPlayback` takes any clock), so cue N's
    /// rumble starts with cue N's sound.
    ///
    /// Thread: pure; control thread (allocates).
    ///
    /// With haptic layers, the plan is made from the session's combined signal
    /// (``SessionHapticSignal``: layers and cues added as Core Haptics adds players), in
    /// one-minute pieces.
    public func rumblePlan(options: RumblePlanOptions = .init()) -> RumblePlan {
        if let signal = SessionHapticSignal(self) {
            let total = Int((duration * SessionHapticSignal.controlRate).rounded(.up))
            let piece = 60_000
            let pieces = stride(from: 0, to: total, by: piece).lazy.map { ($0, signal.sampled(from: $0, count: min(piece, total - $0))) }
            return RumblePlan(sampledPieces: pieces, options: options)
        }
        return RumblePlan(placed: haptics.compactMap { cue in
            hapticPatterns[cue.pattern].map { (Int((Double(cue.frame) * 1000 / sampleRate).rounded()), $0) }
        }, options: options)
    }
}
