import CabinAudio
import Glibc

/// A stereo loop under construction: two periodic channels that events are added into,
/// wrapping at the loop's end.
///
/// Thread: a value; any thread except the render thread.
public struct StereoBed {
    /// The left channel's samples, one per frame.
    public var left: [Double]
    /// The right channel's samples, one per frame (as many as `left`).
    public var right: [Double]
    /// Frames a second.
    public let sampleRate: Double

    /// A silent bed `frames` frames long at `sampleRate`.
    public init(frames: Int, sampleRate: Double) {
        left = [Double](repeating: 0, count: frames)
        right = left
        self.sampleRate = sampleRate
    }

    /// The loop's length in frames.
    public var frames: Int { left.count }

    /// The loop's length in seconds.
    public var duration: Double { Double(frames) / sampleRate }

    /// Adds a mono event at `start` (frames), panned −1 (left) … 1 (right), equal power,
    /// times `gain` (linear), wrapping at the loop's end.
    public mutating func add(_ event: [Double], at start: Int, pan: Double = 0, gain: Double = 1) {
        let angle = (min(1, max(-1, pan)) + 1) * Double.pi / 4
        Periodic.add(event, into: &left, at: start, gain: gain * cos(angle))
        Periodic.add(event, into: &right, at: start, gain: gain * sin(angle))
    }

    /// Adds an event whose pan moves: `pan(i)` for the event's frame `i`.
    public mutating func add(_ event: [Double], at start: Int, gain: Double = 1, pan: (Int) -> Double) {
        var l = event, r = event
        for i in event.indices {
            let angle = (min(1, max(-1, pan(i))) + 1) * Double.pi / 4
            l[i] *= cos(angle)
            r[i] *= sin(angle)
        }
        Periodic.add(l, into: &left, at: start, gain: gain)
        Periodic.add(r, into: &right, at: start, gain: gain)
    }

    /// Adds a stereo layer of the same length.
    public mutating func add(left l: [Double], right r: [Double], gain: Double = 1) {
        for i in 0..<frames {
            left[i] += l[i] * gain
            right[i] += r[i] * gain
        }
    }

    /// Both channels through the same (periodic) filter, each with its own state.
    public mutating func filter(_ kind: Biquad.Kind, _ frequency: Double, q: Double = 0.7071) {
        left = left.filtered(kind, frequency, q: q, sampleRate: sampleRate, periodic: true)
        right = right.filtered(kind, frequency, q: q, sampleRate: sampleRate, periodic: true)
    }

    /// The two channels, left then right.
    public var channels: [[Double]] { [left, right] }
}
