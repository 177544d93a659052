import CabinIO
import CabinSession

/// The loudness of a session over time (`cabin session plot`): the session rendered
/// offline, as fast as it goes, through libebur128, reading the short-term loudness (the
/// last 3 s, EBU R128) every `step` seconds.
///
/// Thread: control thread (it renders; never the render thread).
public enum LoudnessProfile {
    /// The most points `step(for:)` gives a profile.
    public static let maximumPoints = 600
    /// The step for a session `duration` seconds long, in seconds: 1 s, or longer so that a
    /// long session has at most `maximumPoints` points (a whole number of seconds).
    public static func step(for duration: Double) -> Double {
        max(1, (duration / Double(maximumPoints)).rounded(.up))
    }

    /// Times `step`, 2·`step` … up to the end, each with the short-term loudness there
    /// (nil: silence). `compiled` must allow blocks of `blockFrames`. `radio` (the loaded
    /// session's, not started) feeds its playlists and generated music before every block.
    public static func measure(_ compiled: CompiledSession, step: Double, blockFrames: Int = 1024, radio: (any SessionRadio)? = nil)
        throws(SystemError) -> [(time: Double, lufs: Double?)]
    {
        let meter = try LoudnessMeter.Running(channelCount: 2, sampleRate: compiled.sampleRate)
        let runner = SessionRunner(compiled)
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: 2 * blockFrames)
        defer { buffer.deallocate() }
        let count = Int((compiled.duration / step + 1e-9).rounded(.down))
        var points: [(time: Double, lufs: Double?)] = []
        points.reserveCapacity(count)
        var rendered = 0
        for k in stride(from: 1, through: count, by: 1) {
            let target = Int((Double(k) * step * compiled.sampleRate).rounded())
            while rendered < target {
                let n = min(blockFrames, target - rendered)
                radio?.fill(frames: n)
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[0..<(2 * n)])
                _ = runner.render(into: slice, frameCount: n)   // silence after the end
                try meter.add(UnsafeBufferPointer(slice))
                rendered += n
            }
            points.append((Double(k) * step, meter.shortTerm))
        }
        return points
    }
}
