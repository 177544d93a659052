import CabinHaptics

extension CompiledSession {
    /// The session's haptic cues as one plan for a rumble device: each loaded pattern
    /// placed at its cue (the cue's frame in whole milliseconds, rounded), overlapping
    /// continuous tracks added per motor, transients sharing the transient voices (see
    /// ``RumblePlan/init(placed:options:)``). A live player walks it against the audio
    /// clock (`RumblePlayer.play(_:clock:)` in `CabinPlayback` takes any clock), so cue N's
    /// rumble starts with cue N's sound.
    ///
    /// Thread: pure; control thread (allocates).
    public func rumblePlan(options: RumblePlanOptions = .init()) -> RumblePlan {
        RumblePlan(placed: haptics.compactMap { cue in
            hapticPatterns[cue.pattern].map { (Int((Double(cue.frame) * 1000 / sampleRate).rounded()), $0) }
        }, options: options)
    }
}
