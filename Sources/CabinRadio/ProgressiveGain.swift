import CabinIO
import Glibc

/// A playlist track's gain to the reference loudness, measured while the track decodes
/// ahead instead of in a pass over the whole file before it plays (which kept the first
/// track, and a jump to a track not yet measured, from starting for as long as decoding
/// the whole file took).
///
/// The track is decoded `aheadSeconds` (10 s) beyond what plays. The gain of each second
/// `k` of the track is the one that brings the integrated loudness (EBU R128, libebur128)
/// of everything up to `k + 1 + aheadSeconds` seconds to the reference; within the second
/// the gain moves linearly from the last second's. Once the whole track is decoded, its
/// integrated loudness — the value a separate pass gives — holds to the end, and the
/// playlist keeps it for the next time the track plays. A track shorter than 11 s has
/// that value from its first frame.
///
/// Deterministic: the gains depend only on the track's frames (the meter is fed exactly to
/// each second's horizon), never on how much is read at a time.
///
/// Thread: the playlist's thread (one at a time); not the render thread.
final class ProgressiveGain {
    static let aheadSeconds = 10.0
    let stepFrames: Int
    let aheadFrames: Int
    let referenceLoudness: Double
    private let meter: LoudnessMeter.Running?
    /// Frames of the track the meter has measured.
    private(set) var meteredFrames = 0
    /// The linear gain at the end of each second of the track so far.
    private var gains: [Float] = []
    private var complete = false
    /// The whole track's integrated loudness (LUFS), once it is all measured (nil before,
    /// or for silence).
    private(set) var finalLoudness: Double?

    init(sampleRate: Double, referenceLoudness: Double) {
        stepFrames = max(1, Int(sampleRate.rounded()))
        aheadFrames = Int((Self.aheadSeconds * sampleRate).rounded())
        self.referenceLoudness = referenceLoudness
        meter = try? LoudnessMeter.Running(channelCount: 2, sampleRate: sampleRate, truePeak: false)
    }

    /// Makes the gain known through (absolute) frame `frame`. `more(target)` decodes toward
    /// frame `target` and returns whether the track has ended and its frames from
    /// `meteredFrames` up to `target` (or to what exists): interleaved stereo, before any gain.
    func prepare(through frame: Int, more: (Int) -> (atEnd: Bool, frames: [Float])) {
        let last = frame / stepFrames
        while gains.count <= last {
            if !complete {
                let target = (gains.count + 1) * stepFrames + aheadFrames
                let (atEnd, frames) = more(target)
                if !frames.isEmpty {
                    frames.withUnsafeBufferPointer { try? meter?.add($0) }
                    meteredFrames += frames.count / 2
                }
                if atEnd && meteredFrames < target {
                    complete = true
                    finalLoudness = meter?.loudness.integrated
                }
            }
            let loudness = complete ? finalLoudness : meter?.loudness.integrated
            let gain = loudness.map { Float(pow(10, min(max(referenceLoudness - $0, -30), 24) / 20)) }
            gains.append(gain ?? gains.last ?? 1)
        }
    }

    /// The linear gain at (absolute) frame `frame` (after `prepare(through:)` covered it).
    func gain(at frame: Int) -> Float {
        let k = frame / stepFrames
        let now = gains[k], before = k > 0 ? gains[k - 1] : now
        guard now != before else { return now }
        let t = (Float(frame - k * stepFrames) + 0.5) / Float(stepFrames)
        return before + (now - before) * t
    }
}
