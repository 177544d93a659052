extension Mixer {
    /// Queues `command` directly in the audio thread's pending queue, for a sequencer that
    /// runs on the render thread itself (the session runner), so the control ring keeps a
    /// single producer (the control thread). False if the queue is full.
    ///
    /// Render thread: safe — no allocation, locks or errors. Call it only from the thread
    /// that calls `render`.
    @inline(__always)
    public func processSchedule(_ command: MixerCommand) -> Bool {
        pending.push(command)
    }

    /// The engine clock: frames rendered so far.
    ///
    /// Render thread: safe.
    public var currentFrame: FrameTime { clock }
}
