extension RumblePlan {
    /// The two motor magnitudes in each millisecond `0..<durationMilliseconds` of the plan,
    /// as the evdev path sends them (`RumblePlayer` walks these same steps): a voice's effect
    /// runs from its `play` for its replay length, until its `stop` or the next `play` on
    /// the voice replaces it (the player uploads to the voice's slot again), and the effects
    /// running at once add per motor, clamped to 0xFFFF, as the kernel's memless
    /// force-feedback driver combines them (`ml_combine_effects`), at the device's full gain
    /// (`FF_GAIN` 0xFFFF, `haptics play --rumble`'s default).
    ///
    /// Thread: pure; any thread except the render thread (allocates).
    public func motorMagnitudes() -> [RumbleMagnitudes] {
        var running = [(magnitudes: RumbleMagnitudes, until: Int)?](repeating: nil, count: max(1, voiceCount))
        var result = [RumbleMagnitudes](repeating: .zero, count: max(0, durationMilliseconds))
        var next = 0
        for ms in result.indices {
            while next < steps.count && steps[next].time <= ms {
                switch steps[next].action {
                case .play(let voice, let magnitudes, let length) where voice < running.count:
                    running[voice] = (magnitudes, steps[next].time + length)
                case .stop(let voice) where voice < running.count:
                    running[voice] = nil
                default:
                    break
                }
                next += 1
            }
            var strong = 0, weak = 0
            for case let effect? in running where effect.until > ms {
                strong += Int(effect.magnitudes.strong)
                weak += Int(effect.magnitudes.weak)
            }
            result[ms] = RumbleMagnitudes(strong: UInt16(min(strong, 65535)), weak: UInt16(min(weak, 65535)))
        }
        return result
    }
}
