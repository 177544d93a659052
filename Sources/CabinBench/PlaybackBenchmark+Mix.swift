import CabinAudio
import CabinIO
import CabinPlayback

extension PlaybackBenchmark {
    /// The mixer against the plain summing loop on the loud mix, in one process.
    package struct MixFigure: Sendable {
        package var voices: Int
        package var seconds: Double
        /// Audio seconds per CPU second: the mixer (limiter on), the mixer with the limiter
        /// off, and the plain summing loop of the same voices.
        package var speed: Double
        package var speedWithoutLimiter: Double
        package var plainSpeed: Double
        /// The mixer's speed as a fraction of the plain loop's.
        package var ratio: Double { speed / plainSpeed }
        /// The share of the mixer's render time the limiter takes, in percent.
        package var limiterPercent: Double { 100 * (1 - speed / speedWithoutLimiter) }
        /// Nanoseconds per output frame.
        package var nanosecondsPerFrame: Double { 1e9 / (speed * 48_000) }
    }

    /// Renders `LoudMixScene(voices:duration: seconds)` in blocks of `blockFrames` with the
    /// mixer (limiter on and off) and with `PlainSummingLoop`, `repeats` times in turn, and
    /// keeps each one's best CPU time (the least disturbed by other processes).
    /// With `pitch`, the mixer's layers are repitched (`LoudMixScene.pitch`); the plain loop's
    /// are not.
    package static func compareMix(voices: Int, seconds: Double, blockFrames: Int = 512, repeats: Int = 3,
                                  pitch: Double? = nil) -> MixFigure {
        let scene = LoudMixScene(voices: voices, duration: seconds, pitch: pitch)
        let frames = Int(seconds * scene.sampleRate)
        var best = [Double](repeating: .infinity, count: 3)
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 2 * blockFrames)
        defer { block.deallocate() }
        for _ in 0..<repeats {
            for limiter in [true, false] {
                var (config, commands) = scene.mixer(maxBlockFrames: blockFrames)
                config.isLimiterEnabled = limiter
                let (mixer, handle) = config.make()
                let out = UnsafeMutableBufferPointer(start: block, count: 2 * blockFrames)
                var next = 0
                let start = ThreadCPUClock.seconds()
                var done = 0
                while done < frames {
                    // Commands a second ahead, as a session runner sends them.
                    while next < commands.count, commands[next].time < FrameTime(done + 48_000), handle.send(commands[next]) {
                        next += 1
                    }
                    let n = min(blockFrames, frames - done)
                    mixer.render(into: out, frameCount: n)
                    done += n
                }
                let cpu = ThreadCPUClock.seconds() - start
                best[limiter ? 0 : 1] = min(best[limiter ? 0 : 1], cpu)
            }
            let plain = PlainSummingLoop(scene)
            let start = ThreadCPUClock.seconds()
            var done = 0
            while done < frames {
                let n = min(blockFrames, frames - done)
                plain.render(into: block, frameCount: n)
                done += n
            }
            best[2] = min(best[2], ThreadCPUClock.seconds() - start)
        }
        let speed = { (cpu: Double) in seconds / max(1e-9, cpu) }
        return MixFigure(voices: voices, seconds: seconds, speed: speed(best[0]), speedWithoutLimiter: speed(best[1]),
                         plainSpeed: speed(best[2]))
    }
}
