import CabinAudio
import CabinIO
import CabinSession
import Glibc

/// How each played or spoken cue of a session stands over the bed it lands on, and how far
/// it drives the limiter: the figures behind "no cue more than +10 LU over its bed, quiet
/// stretches included, and no one-shot driving the limiter by more than 1 dB"
/// (`cabin session levels`).
///
/// Method: the session is rendered twice, in lockstep, at the whole session's master gain
/// with the limiter off — the **bed** (every layer; each `play` and `say` at −120 dB, so it
/// still ducks what it ducks) and the **cues** (no layers; the cues as written). Both are linear, so their sum is the mix as the limiter receives it. Every
/// 100 ms the momentary loudness (EBU R128, 400 ms) of each stem is read, and the true peak
/// of the bed and of the sum. A cue's span runs from its time for its sound's length (at
/// least 400 ms, at most 10 s), ending where the next cue begins; its level is the cues
/// stem's loudest momentary window in the span. The bed it lands on is the median of the
/// bed's momentary readings over the 3 s before the cue: the level the listener was hearing
/// when it came (a passing horn in the bed just before does not count as the bed), so the
/// margin is the jump they hear — before a spoken prompt's duck, which is the voice's own
/// doing (its intelligibility is another measure); the bed
/// under the cue's loudest window (ducked, fading, whatever it does there) is reported
/// beside it. The limiter's drive is how far the sum's true peak over the span goes above
/// the ceiling, less how far the bed alone goes there: what the cue adds to the limiter's
/// work.
///
/// Thread: control thread (it renders; never the render thread).
public enum CueLevels {
    /// One cue's figures.
    public struct Cue: Sendable, Equatable, Encodable {
        /// Seconds into the session.
        public var time: Double
        /// The sound played (`ui/turn-signal`), or `say: ` and the text.
        public var name: String
        /// The bus the cue plays on, a key of the document's `buses`.
        public var bus: String
        /// The segment the cue lands in (the last mark's title or name before it).
        public var segment: String?
        /// The cues stem's highest momentary loudness in the span, LUFS (nil: silent).
        public var loudness: Double?
        /// The median of the bed's momentary loudness over the 3 s before the cue, LUFS (nil:
        /// silent there more than half the time).
        public var bedLoudness: Double?
        /// The bed's momentary loudness in the cue's loudest window, LUFS (nil: silent):
        /// below `bedLoudness` where the cue ducks it or it fades under the cue.
        public var bedUnder: Double?
        /// `loudness` − `bedLoudness`, LU (nil where either is silent: a cue over a silent
        /// bed has no margin, it stands alone).
        public var margin: Double?
        /// The margin to judge by: a cue over a silent bed counts as infinitely far over it,
        /// a silent cue as not over it at all.
        public var effectiveMargin: Double {
            if let margin { return margin }
            return loudness == nil ? -.infinity : .infinity
        }
        /// The true peak of the mix before the limiter over the span, dBTP.
        public var peak: Double?
        /// dB the limiter pulls the mix down by because of this cue (0: not at all).
        public var limiterDrive: Double
    }

    /// A session's cues and how each stands over its bed.
    public struct Report: Sendable, Encodable {
        /// The document's title (nil: it has none).
        public var title: String?
        /// The session's master gain, dB (the loudness target's, or as written).
        public var masterGain: Double
        /// The limiter's ceiling, dBTP.
        public var ceiling: Double
        /// Every cue that plays a sound or speaks, in timeline order (empty: none does).
        public var cues: [Cue]

        /// The cue with the largest margin over its bed (one over a silent bed first).
        public var loudest: Cue? { cues.max { $0.effectiveMargin < $1.effectiveMargin } }
        /// The cue that drives the limiter most.
        public var hardest: Cue? { cues.max { $0.limiterDrive < $1.limiterDrive } }
    }

    /// Loads a document for `measure`: its sounds and patterns, compiled with `options`.
    public typealias Load = (SessionDocument, SessionCompileOptions) throws -> SessionLoader.Loaded

    /// How long before a cue the bed it lands on is heard, seconds.
    public static let before = 3.0
    /// The hop between momentary readings, seconds.
    public static let step = 0.1
    /// A cue's span is its sound's length within these bounds, seconds.
    public static let span = 0.4...10.0

    /// Measures `document` (loaded and compiled through `load`, at the rate it chooses).
    public static func measure(_ document: SessionDocument, options: SessionCompileOptions = .init(),
                               load: Load) throws -> Report {
        let whole = try load(document, options)
        let masterGain = whole.compiled.config.masterGain.value
        var fixed = options
        fixed.masterGain = masterGain
        var bed = document, cues = document
        for i in bed.cues.indices {
            bed.cues[i].play?.gain = muted
            bed.cues[i].say?.gain = muted
        }
        // The cues alone: no layers (nor the cues that start, stop, fade or crossfade them),
        // so the second render costs next to nothing; ducking, parameters and bus effects stay.
        cues.layers = []
        cues.cues = cues.cues.compactMap { cue in
            var c = cue
            c.start = []
            c.stop = []
            c.fadeIn = nil
            c.fadeOut = nil
            c.fade = nil
            c.crossfade = nil
            let keeps = c.play != nil || c.say != nil || c.haptic != nil || c.hapticCrossfade != nil || c.trigger != nil
                || c.set != nil || c.effect != nil || c.mark != nil
            return keeps ? c : nil
        }
        for i in cues.cues.indices { cues.cues[i].index = i }
        let bedLoaded = try load(bed, fixed), cuesLoaded = try load(cues, fixed)
        let sampleRate = whole.compiled.sampleRate
        let ceiling = Mixer.limiterCeiling.value

        // Each cue's span: its sound's length within `span`, ending where the next begins.
        let spoken = document.cues.filter { $0.play != nil || $0.say != nil }
        var spans: [(cue: CabinSession.Cue, name: String, bus: String, end: Double)] = []
        for (k, cue) in spoken.enumerated() {
            let name: String, bus: String, frames: Int?
            if let play = cue.play {
                name = play.sound.description
                bus = play.bus
                frames = whole.sounds[play.sound]?.frameCount
            } else {
                let say = cue.say!
                name = "say: " + say.text
                bus = say.bus
                frames = (whole.sounds.sounds[say.soundKey] ?? say.fallback.flatMap { whole.sounds[$0] })?.frameCount
            }
            let length = min(span.upperBound, max(span.lowerBound, Double(frames ?? 0) / sampleRate))
            var end = cue.time + length
            if k + 1 < spoken.count, spoken[k + 1].time > cue.time { end = min(end, max(spoken[k + 1].time, cue.time + span.lowerBound)) }
            spans.append((cue, name, bus, end))
        }
        let traces = try render(bed: bedLoaded, cues: cuesLoaded, peaksIn: spans.map { ($0.cue.time, $0.end) })

        var report: [Cue] = []
        var segment: String?
        var marks = document.cues.filter { $0.mark != nil }[...]
        for (cue, name, bus, end) in spans {
            while let mark = marks.first, mark.time <= cue.time {
                segment = mark.markTitle ?? mark.mark
                marks = marks.dropFirst()
            }
            // Readings k are the windows ending at (k + 1) · step: those wholly inside the span,
            // or the first window past its start when the span is shorter.
            let first = Int((cue.time + span.lowerBound) / step - 0.5), last = max(first, Int(end / step - 0.5))
            var best: (index: Int, lufs: Double)?
            var peak = 0.0, bedPeak = 0.0
            for i in max(0, first)...max(0, min(last, traces.count - 1)) where i < traces.count {
                if let m = traces.cues[i], m > (best?.lufs ?? -.infinity) { best = (i, m) }
            }
            // Peaks over the span itself (100 ms blocks from the cue's own to the span's end).
            let firstBlock = Int(cue.time / step), lastBlock = Int(end / step)
            for i in max(0, firstBlock)...max(0, min(lastBlock, traces.count - 1)) where i < traces.count {
                peak = max(peak, traces.mixPeak[i])
                bedPeak = max(bedPeak, traces.bedPeak[i])
            }
            let lastBefore = min(traces.count - 1, Int((cue.time + 1e-9) / step) - 1)
            let firstBefore = max(0, Int((cue.time - Self.before + 1e-9) / step))
            let window = firstBefore <= lastBefore ? Array(traces.bed[firstBefore...lastBefore]) : [traces.bed[max(0, min(traces.count - 1, lastBefore))]]
            let heard = window.compactMap { $0 }.sorted()
            let bedLoudness = best == nil || heard.count * 2 < window.count ? nil : heard[heard.count / 2]
            let bedUnder = best.flatMap { traces.bed[$0.index] }
            let margin: Double? = best.flatMap { b in bedLoudness.map { b.lufs - $0 } }
            let over = { (p: Double) in p > 0 ? max(0, 20 * log10(p) - ceiling) : 0 }
            report.append(Cue(time: cue.time, name: name, bus: bus, segment: segment, loudness: best?.lufs,
                              bedLoudness: bedLoudness, bedUnder: bedUnder, margin: margin, peak: peak > 0 ? 20 * log10(peak) : nil,
                              limiterDrive: max(0, over(peak) - over(bedPeak))))
        }
        return Report(title: document.title, masterGain: masterGain, ceiling: ceiling, cues: report)
    }

    /// A momentary reading under EBU R128's absolute gate (−70 LUFS) is silence: the muted
    /// part of a stem plays at −120 dB, not at nothing.
    static func audible(_ lufs: Double?) -> Double? { lufs.flatMap { $0 >= -70 ? $0 : nil } }

    /// The gain that silences a stem's part while it keeps its ducking.
    static let muted = -120.0

    struct Traces {
        var bed: [Double?] = [], cues: [Double?] = []
        var bedPeak: [Double] = [], mixPeak: [Double] = []
        var count: Int { bed.count }
    }

    /// Renders both stems block by block (100 ms), with the limiter off. True peaks (the
    /// costly part: 4× oversampling) are measured only in the blocks of `peaksIn`'s spans,
    /// each from the block before it (so the oversampling filters have the audio before
    /// the span in them); elsewhere they read 0.
    static func render(bed: SessionLoader.Loaded, cues: SessionLoader.Loaded, peaksIn spans: [(Double, Double)]) throws -> Traces {
        var bedSession = bed.compiled, cueSession = cues.compiled
        bedSession.config.isLimiterEnabled = false
        cueSession.config.isLimiterEnabled = false
        let rate = bedSession.sampleRate
        let bedRunner = SessionRunner(bedSession), cueRunner = SessionRunner(cueSession)
        let bedMeter = try LoudnessMeter.Running(channelCount: 2, sampleRate: rate, truePeak: false)
        let cueMeter = try LoudnessMeter.Running(channelCount: 2, sampleRate: rate, truePeak: false)
        let bedPeaks = try LoudnessMeter.Running(channelCount: 2, sampleRate: rate)
        let mixPeaks = try LoudnessMeter.Running(channelCount: 2, sampleRate: rate)
        let block = Int((step * rate).rounded())
        let total = Int(bedSession.durationFrames)
        let blocks = (total + block - 1) / block
        var measured = [Bool](repeating: false, count: blocks)
        for (start, end) in spans {
            let first = max(0, Int(start / step) - 1), last = min(blocks - 1, Int(end / step) + 1)
            if first <= last { for i in first...last { measured[i] = true } }
        }
        var a = [Float](repeating: 0, count: 2 * block), b = a, sum = a
        var traces = Traces()
        var done = 0
        while done < total {
            let n = min(block, total - done)
            bed.radio.fill(frames: n)
            cues.radio.fill(frames: n)
            var bedPeak = 0.0, mixPeak = 0.0
            try a.withUnsafeMutableBufferPointer { pa in
                try b.withUnsafeMutableBufferPointer { pb in
                    try sum.withUnsafeMutableBufferPointer { ps in
                        _ = bedRunner.render(into: pa, frameCount: n)
                        _ = cueRunner.render(into: pb, frameCount: n)
                        let bedPart = UnsafeBufferPointer(rebasing: pa[0..<(2 * n)])
                        try bedMeter.add(bedPart)
                        try cueMeter.add(UnsafeBufferPointer(rebasing: pb[0..<(2 * n)]))
                        if measured[traces.count] {
                            for i in 0..<(2 * n) { ps[i] = pa[i] + pb[i] }
                            try bedPeaks.add(bedPart)
                            try mixPeaks.add(UnsafeBufferPointer(rebasing: ps[0..<(2 * n)]))
                            bedPeak = bedPeaks.lastTruePeak
                            mixPeak = mixPeaks.lastTruePeak
                        }
                    }
                }
            }
            traces.bed.append(audible(bedMeter.momentary))
            traces.cues.append(audible(cueMeter.momentary))
            traces.bedPeak.append(bedPeak)
            traces.mixPeak.append(mixPeak)
            done += n
        }
        return traces
    }
}
