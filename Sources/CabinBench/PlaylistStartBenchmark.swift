import CabinAudio
import CabinPlayback
import CabinRadio
import CabinSession

/// How long a playlist takes to have its first half second of audio ready — what the
/// playlist's thread fills before anything plays (`PlaylistStation.leadSeconds`) — and
/// how long a jump to the next track takes to have its first half second, with untagged
/// tracks' loudness measured in a separate pass over each file before it plays (the
/// reference, and how offline renders still measure) and measured while the track decodes
/// ahead (`ProgressiveGain`, as live playback does). A jump slower than the half second
/// already in the ring underflows (`cabin bench --playlist PATH`).
///
/// Thread: control thread (decodes and allocates).
package enum PlaylistStartBenchmark {
    package struct Figures: Sendable {
        /// Seconds to the first half second, and for a jump to the next track.
        package var firstSeconds: Double
        package var jumpSeconds: Double
    }

    /// (separate pass, while decoding ahead) for the folder or playlist file at `path`.
    package static func measure(_ path: String, sampleRate: Double = 48_000) throws -> (pass: Figures, whileDecoding: Figures) {
        let entries = try PlaylistSource.read(path).entries
        func run(_ whileDecoding: Bool) -> Figures {
            let feeder = PlaylistFeeder(name: path, entries: entries, options: PlaylistOptions(), sampleRate: sampleRate,
                                        measuresWhileDecoding: whileDecoding)
            let half = Int(sampleRate / 2)
            let clock = ContinuousClock()
            let first = clock.measure { _ = feeder.produce(half) }
            let jump = clock.measure {
                feeder.skip(by: 1)
                _ = feeder.produce(half)
            }
            return Figures(firstSeconds: first.inSeconds, jumpSeconds: jump.inSeconds)
        }
        return (run(false), run(true))
    }
}
