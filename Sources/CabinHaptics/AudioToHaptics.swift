import CabinAudio
import CabinJSON
import Glibc

/// A sound turned into a haptic pattern (`cabin haptics from-audio`), as Meta Haptics
/// Studio analyses audio: the amplitude envelope becomes intensity, a spectral measure
/// sharpness, and onsets transients.
///
/// - **Intensity**: the RMS level of the sound (channels mixed) over a window of one point's
///   length (at least 5 ms) centred on each point, ``AudioToHapticsOptions/resolution``
///   points a second and one at every onset; relative to the loudest point, times the
///   gain, clipped to 1, then times the headroom (the continuous track's ceiling below
///   full intensity, room left for the transients to stand out of it).
/// - **Sharpness**: the spectral centroid over the same window (power-weighted over
///   `OnsetDetector`'s frames) on a log scale, 100 Hz → 0 and 8 kHz → 1 (a kick's thump is
///   dull, a click or hiss crisp); held through silence.
/// - **Transients**: `OnsetDetector`'s onsets (spectral flux with an adaptive threshold,
///   ``AudioToHapticsOptions/emphasisThreshold``), each with the intensity of the 20 ms
///   after it (relative to the loudest point, times the gain, clipped to 1; no headroom) and
///   the sharpness there.
///
/// The result is a `.haptic` document (`hapticDocument`: the amplitude envelope as
/// amplitude² with each transient an `emphasis` on its own breakpoint, sharpness as
/// frequency², as Lofelt's readers take the root), and the `pattern` read back from it, which
/// ``AHAPWriter`` writes as AHAP — one result, two formats.
///
/// Thread: pure; any thread except the render thread (allocates).
public struct AudioToHaptics: Sendable {
    /// A point of the continuous track.
    public struct Point: Sendable, Hashable {
        /// Seconds from the sound's start.
        public var time: Double
        /// Intensity there, 0…1.
        public var intensity: Double
        /// Sharpness there, 0…1 (the spectral centroid, 100 Hz → 0, 8 kHz → 1).
        public var sharpness: Double
    }

    /// The options the analysis used.
    public var options: AudioToHapticsOptions
    /// The sound's length in seconds.
    public var duration: Double
    /// The continuous track, in time order (first at 0, last at `duration`).
    public var points: [Point]
    /// The transients (time, intensity, sharpness), at the sound's onsets.
    public var transients: [Point]

    /// Analyses `sound` (any channel count; mixed to mono).
    public init(_ sound: AudioBuffer, options: AudioToHapticsOptions = .init()) {
        let mono = Self.mono(sound)
        let rate = sound.sampleRate
        self.options = options
        let length = Double(mono.count) / rate
        duration = length
        let frames = OnsetDetector.frames(mono, sampleRate: rate)
        let onsets = OnsetDetector.detect(mono, sampleRate: rate, frames: frames,
                                          options: OnsetDetector.Options(threshold: options.emphasisThreshold, minimumGap: options.minimumGap))
        var energy = [Double](repeating: 0, count: mono.count + 1)
        for (i, x) in mono.enumerated() { energy[i + 1] = energy[i] + Double(x) * Double(x) }
        func rms(_ from: Double, _ to: Double) -> Double {
            let a = min(mono.count, max(0, Int(from * rate))), z = min(mono.count, max(0, Int(to * rate)))
            return z > a ? ((energy[z] - energy[a]) / Double(z - a)).squareRoot() : 0
        }
        let half = max(0.0025, 0.5 / options.resolution)
        var times = Set((0...Int(length * options.resolution)).map { Double($0) / options.resolution })
        times.insert(length)
        for onset in onsets { times.insert(onset.time) }
        let sorted = times.filter { $0 <= length }.sorted()
        let levels = sorted.map { rms($0 - half, $0 + half) }
        let reference = max(levels.max() ?? 0, 1e-9)
        let gain = pow(10, options.gainDecibels / 20), ceiling = pow(10, -options.headroomDecibels / 20)
        var held = 0.0
        points = zip(sorted, levels).map { time, level in
            if let s = Self.sharpness(frames, from: time - half, to: time + half) { held = s }
            return Point(time: time, intensity: min(1, level / reference * gain) * ceiling, sharpness: held)
        }
        transients = onsets.map { onset in
            Point(time: onset.time, intensity: min(1, rms(onset.time, onset.time + 0.02) / reference * gain),
                  sharpness: Self.sharpness(frames, from: onset.time, to: onset.time + 0.02) ?? 0.5)
        }
    }

    /// The channels' mean, frame by frame.
    public static func mono(_ sound: AudioBuffer) -> [Float] {
        let channels = max(1, sound.channelCount)
        guard channels > 1 else { return sound.samples }
        return stride(from: 0, to: sound.samples.count - channels + 1, by: channels).map { i in
            var sum: Float = 0
            for c in 0..<channels { sum += sound.samples[i + c] }
            return sum / Float(channels)
        }
    }

    /// The power-weighted spectral centroid of the frames centred in `from…to` on the log
    /// scale (100 Hz → 0, 8 kHz → 1), nil where they are silent.
    static func sharpness(_ frames: OnsetDetector.Frames, from: Double, to: Double) -> Double? {
        let a = max(0, Int((from / frames.hop).rounded(.up))), z = min(frames.centroid.count - 1, Int((to / frames.hop).rounded(.down)))
        guard z >= a else { return nil }
        var weighted = 0.0, total = 0.0
        for f in a...z where frames.centroid[f] > 0 {
            weighted += frames.power[f] * frames.centroid[f]
            total += frames.power[f]
        }
        guard total > 1e-20 else { return nil }
        return min(1, max(0, log(weighted / total / 100) / log(80)))
    }
}
