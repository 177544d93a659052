/// Offline rendering ("bouncing") into an `AudioBuffer`, for `cabin render`, previews and
/// tests.
extension Mixer {
    /// Renders the next `frameCount` frames into a new interleaved stereo buffer, in blocks
    /// of `blockFrames` (the result does not depend on the block size). Commands already sent
    /// through the handle act on their frames as in real time.
    ///
    /// Thread: the thread that owns the mixer, offline only — it allocates the result, so it
    /// is not for the audio callback (which calls `render(into:frameCount:)`).
    public func bounce(frameCount: Int, blockFrames: Int = 512) -> AudioBuffer {
        var samples = [Float](repeating: 0, count: 2 * max(0, frameCount))
        samples.withUnsafeMutableBufferPointer { all in
            var done = 0
            while done < frameCount {
                let n = min(max(1, blockFrames), frameCount - done)
                let block = UnsafeMutableBufferPointer(rebasing: all[(2 * done)..<(2 * (done + n))])
                render(into: block, frameCount: n)
                done += n
            }
        }
        return AudioBuffer(samples: samples, channelCount: 2, sampleRate: sampleRate)
    }
}
