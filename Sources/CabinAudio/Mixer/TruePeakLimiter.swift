import Glibc

/// A lookahead true-peak limiter holding the output at or below `ceiling` (−1.5 dBTP: the
/// −1 dBTP target with 0.5 dB of margin for the estimate).
///
/// Detection: the true peak of each inter-sample interval is estimated by 4× oversampling
/// (`TruePeakDetector`: a 48-tap windowed-sinc polyphase interpolator, as EBU R128 meters
/// like libebur128 do below 96 kHz). Gain: the needed gain `min(1, ceiling / peak)` goes
/// through an instant-attack, exponential-release follower (`releaseDuration`), then a
/// running minimum over the lookahead window W and a moving average over the same W. The
/// average of W minima that all include frame k never exceeds the gain frame k needs, so
/// the gain is fully down on the peak yet moves smoothly (no clicks). The audio is delayed
/// by W − 1 frames plus the detector's 6, which is `latencyFrames` (≈ 1.6 ms at 48 kHz).
///
/// Block-based: chunks of up to 64 frames — the detector's estimates for the chunk
/// (vectorized, and only those that can lower the gain; see `processChunk`), the gain frame
/// by frame (a sequential recurrence), then the delayed frames times their gains. Every
/// sample is what the frame-by-frame limiter gives (`MixerLimiterReferenceTests`).
///
/// Thread: render thread only after `init`; `deallocate()` on the control thread.
struct TruePeakLimiter {
    /// Output true-peak ceiling, linear.
    let ceiling: Double
    /// Lookahead window, frames.
    let window: Int
    let releaseCoefficient: Double
    private(set) var minimumGain = 1.0

    private var detector: TruePeakDetector
    private var minima: SlidingMinimum
    /// Last W held gains, for the moving average.
    private let held: UnsafeMutablePointer<Double>
    private var heldSum = 0.0
    private var heldIndex = 0
    /// held[0] + held[1] + … + held[heldIndex − 1], summed in that order as they are written:
    /// at the wrap it is the exact re-sum of the window.
    private var heldPartial = 0.0
    /// Delayed stereo input.
    private let delay: UnsafeMutablePointer<Float>
    private let delayLength: Int
    private var delayIndex = 0
    private var follower = 1.0
    /// The last estimate of the previous chunk, then the detector's estimates of the chunk
    /// being processed.
    private let peakSlots: UnsafeMutablePointer<Float>
    /// Per frame of the chunk: the needed gain, then the moving sum of the held gains.
    private let work: UnsafeMutablePointer<Double>
    /// The gains of the chunk being processed.
    private let gains: UnsafeMutablePointer<Float>
    /// The last held gain, and how many frames in a row it has been held.
    private var lastHold = 1.0
    private var holdRun = 0

    /// Frames of delay the limiter adds.
    var latencyFrames: Int { delayLength }

    init(sampleRate: Double, ceiling: Decibels = Mixer.limiterCeiling, lookaheadDuration: Double = 0.0015,
         releaseDuration: Double = 0.08) {
        self.ceiling = ceiling.linearGain
        window = max(1, Int((lookaheadDuration * sampleRate).rounded()))
        releaseCoefficient = 1 - exp(-1 / max(1, releaseDuration * sampleRate))
        detector = TruePeakDetector(quietLevel: self.ceiling)
        minima = SlidingMinimum(window: window)
        held = .allocate(capacity: window)
        held.initialize(repeating: 1, count: window)
        heldSum = Double(window)
        delayLength = window - 1 + TruePeakDetector.delay
        peakSlots = .zeroed(1 + TruePeakDetector.chunkFrames)
        work = .zeroed(TruePeakDetector.chunkFrames)
        gains = .allocate(capacity: TruePeakDetector.chunkFrames)
        gains.initialize(repeating: 1, count: TruePeakDetector.chunkFrames)
        delay = .zeroed(2 * max(1, delayLength))
    }

    func deallocate() {
        detector.deallocate()
        minima.deallocate()
        held.deallocate()
        delay.deallocate()
        peakSlots.deallocate()
        work.deallocate()
        gains.deallocate()
    }

    /// Limits `frameCount` interleaved stereo frames from `input` into `output`.
    ///
    /// Render thread: safe.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    mutating func process(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>,
                          frameCount: Int) {
        if isSettled(input, frameCount: frameCount) {
            processSettled(input, into: output, frameCount: frameCount)
            return
        }
        // Chunks of at most W frames: `processChunk` counts the hold's run back over `held`.
        let chunk = min(TruePeakDetector.chunkFrames, window)
        var done = 0
        while done < frameCount {
            let n = min(chunk, frameCount - done)
            processChunk(input + 2 * done, into: output + 2 * done, frameCount: n)
            done += n
        }
    }

    /// `process` for up to `TruePeakDetector.chunkFrames` frames (and at most `window`): the
    /// detector's estimates for the chunk, the gain, then the delayed frames times their gains.
    ///
    /// Only the estimates that can lower the follower are measured. The follower rises at
    /// most by release: over the chunk and the frame after it (which also sees the chunk's
    /// last estimate), never above `rising` = f + (n + 1)·(1 − f)·releaseCoefficient (the
    /// release's first-order bound, with room for rounding). An estimate below
    /// ceiling / rising gives a needed gain above every candidate `follower + (1 −
    /// follower)·releaseCoefficient` it meets, so the follower takes the candidate whether
    /// the estimate is exact or 0: the detector may report 0 for it, and every gain, hence
    /// every output sample, is what the frame-by-frame limiter gives.
    ///
    /// The gain in three passes, so that only the recurrences are frame by frame: the needed
    /// gains (a division each, independent), the follower, running minimum and moving sum
    /// (sequential), then the sums divided by the window (two at a time) and the lowest gain.
    /// Each value comes from the same operations on the same operands as in one loop.
    #if !DEBUG  // checked by the optimizer; debug code calls unspecialised generics
    @_noAllocation @_noLocks
    #endif
    private mutating func processChunk(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>,
                                       frameCount n: Int) {
        let rising = min(1, follower + (1 - follower) * releaseCoefficient * Double(n + 1) * 1.0001 + 1e-12)
        detector.measure(input, frameCount: n, threshold: ceiling / rising * (1 - 1e-6), into: peakSlots + 1)
        let ceiling = self.ceiling, releaseCoefficient = self.releaseCoefficient, window = self.window
        let held = self.held, work = self.work, gains = self.gains, peaks = self.peakSlots
        // Needed gains. A frame's estimate covers the intervals either side of the frame the
        // detector is centred on: its own and the previous one (peaks[0], from the last chunk).
        for i in 0..<n {
            let cover = max(Double(peaks[i + 1]), Double(peaks[i]))
            let quotient = ceiling / cover
            work[i] = cover > ceiling ? quotient : 1
        }
        peaks[0] = peaks[n]
        // The state in locals for the loop (so it stays in registers: the stores through the
        // buffers' pointers could otherwise alias it).
        var follower = self.follower, minima = self.minima.cursor
        var lastHold = self.lastHold, heldSum = self.heldSum, heldIndex = self.heldIndex
        var heldPartial = self.heldPartial
        for i in 0..<n {
            follower = min(work[i], follower + (1 - follower) * releaseCoefficient)
            let hold = minima.push(follower)
            lastHold = hold
            heldSum += hold - held[heldIndex]
            held[heldIndex] = hold
            heldPartial += hold
            heldIndex &+= 1
            if heldIndex == window {
                // Re-sum exactly once per window so rounding cannot drift over hours: the
                // partial sum is held[0] + … + held[W − 1] in order, as a loop would add them.
                heldIndex = 0
                heldSum = heldPartial
                heldPartial = 0
            }
            work[i] = heldSum
        }
        self.follower = follower; self.minima.cursor = minima
        // How many frames in a row the last hold has been held: counted back over this
        // chunk's holds (the last n of `held`, n ≤ W), then the run before it if they all are.
        var run = 0, index = heldIndex
        while run < n {
            index = index == 0 ? window - 1 : index - 1
            if held[index] != lastHold { break }
            run += 1
        }
        holdRun = run == n && lastHold == self.lastHold ? holdRun + n : max(1, run)
        self.lastHold = lastHold; self.heldSum = heldSum; self.heldIndex = heldIndex
        self.heldPartial = heldPartial
        // Gains: min(1, sum / W), two at a time (a vector division rounds each lane as the
        // scalar one does).
        let width = SIMD2<Double>(repeating: Double(window)), one = SIMD2<Double>(repeating: 1)
        var lowest = SIMD2<Double>(repeating: minimumGain)
        var k = 0
        while k + 2 <= n {
            var gain = UnsafeRawPointer(work + k).loadUnaligned(as: SIMD2<Double>.self) / width
            gain.replace(with: one, where: .!(gain .< one))
            lowest.replace(with: gain, where: gain .< lowest)
            gains[k] = Float(gain[0])
            gains[k + 1] = Float(gain[1])
            k += 2
        }
        var minimumGain = min(lowest[0], lowest[1])
        if k < n {
            let gain = min(1, work[k] / Double(window))
            if gain < minimumGain { minimumGain = gain }
            gains[k] = Float(gain)
        }
        self.minimumGain = minimumGain
        // The frame leaving the delay line is the one all W held minima covered.
        var i = 0
        while i < n {
            let run = min(n - i, delayLength - delayIndex)
            let slot = delay + 2 * delayIndex, from = input + 2 * i, to = output + 2 * i, g = gains + i
            for k in 0..<run {
                to[2 * k] = slot[2 * k] * g[k]
                to[2 * k + 1] = slot[2 * k + 1] * g[k]
                slot[2 * k] = from[2 * k]
                slot[2 * k + 1] = from[2 * k + 1]
            }
            i += run
            delayIndex += run
            if delayIndex == delayLength { delayIndex = 0 }
        }
    }

    /// Whether this block leaves the gain where it is: the detector takes its quiet shortcut
    /// on every frame (so each needed gain is 1), the follower cannot rise any further (1, or
    /// as near 1 as its rounding gets), the running minimum is the follower, and for two
    /// windows every held value has been the same (so `held` is all that value and
    /// `heldSum` is the re-sum of it, which every later re-sum repeats).
    private func isSettled(_ input: UnsafePointer<Float>, frameCount: Int) -> Bool {
        guard holdRun >= 2 * window, Double(peakSlots[0]) <= ceiling, minima.minimum == follower,
              min(1, follower + (1 - follower) * releaseCoefficient) == follower else { return false }
        return detector.isQuiet(input, frameCount: frameCount)
    }

    /// `process` for a settled block: every frame's state update and output are what the
    /// per-frame loop gives (its gain is the same constant on every frame), done a block at
    /// a time.
    private mutating func processSettled(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>,
                                         frameCount: Int) {
        detector.pushQuiet(input, frameCount: frameCount)
        peakSlots[0] = 0
        minima.pushMinimum(follower, times: frameCount)
        holdRun += frameCount
        // `held` keeps its values; each re-sum at a wrap gives `heldSum` back unchanged.
        heldIndex = (heldIndex + frameCount) % window
        heldPartial = 0
        for k in 0..<heldIndex { heldPartial += held[k] }
        let gain = min(1, heldSum / Double(window))
        if gain < minimumGain { minimumGain = gain }
        let g = Float(gain)
        guard delayLength > 0 else {
            for i in 0..<(2 * frameCount) { output[i] = input[i] * g }
            return
        }
        var i = 0
        while i < frameCount {
            let run = min(frameCount - i, delayLength - delayIndex)
            let slot = delay + 2 * delayIndex, from = input + 2 * i, to = output + 2 * i
            for k in 0..<(2 * run) {
                let delayed = slot[k]
                slot[k] = from[k]
                to[k] = delayed * g
            }
            i += run
            delayIndex += run
            if delayIndex == delayLength { delayIndex = 0 }
        }
    }
}
