import CabinAudio
import Glibc

/// The lo-fi radio generated as it plays (`gen:lofi` in a session): `LofiComposer` plans
/// eight bars at a time — a melody, chords voiced afresh, bass, drums with fills, vinyl —
/// and `produce` plays them, so the music never comes back the same, for hours, in the
/// memory of a few seconds of audio. Deterministic: the same seed gives the same samples
/// however the frames are asked for (one frame at a time or a minute at once); another
/// seed, other music.
///
/// How it stays cheap and exact: hits (drums, ticks) are rendered whole when they start,
/// into a buffer of the few seconds ahead, in start order; notes (piano, bass, melody) are
/// `LofiNote`s, their closed forms played from recurrences (phasors and multiplied decays,
/// re-anchored every 256 frames of the note's own time), so each call computes only the
/// frames it returns, every sounding note summed in start order, and a frame's value does
/// not depend on the calls' sizes. The sum goes through the worn record — low-pass at
/// 5.2 kHz, high-pass at 35 Hz, a soft saturation and a band of hiss — as the library's
/// `radio/lofi` loop does, at about the library's −23 LUFS.
///
/// Thread: a value; a producer thread (the radio's `GeneratedStation`), never the
/// render thread (it allocates).
public struct LofiGenerator {
    /// Frames a second of what it produces.
    public let sampleRate: Double
    /// Frames produced so far.
    public private(set) var produced = 0
    /// The output's gain, so that it plays near the library's reference loudness (−23 LUFS).
    static let outputGain = 0.5

    private var composer: LofiComposer
    private var pending: [LofiComposer.Event] = []
    private var sounding: [Note] = []
    /// Hits ahead: frame `accumulatorStart + i` is `hitsLeft[i]`.
    private var hitsLeft: [Double] = []
    private var hitsRight: [Double] = []
    private var accumulatorStart = 0
    private var consumed = 0
    private var lowLeft: Biquad, lowRight: Biquad, highLeft: Biquad, highRight: Biquad, hissBand: Biquad
    private var hiss: SeededRandom
    private var pink = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    /// A note that sounds over several calls.
    struct Note {
        var note: LofiNote
        var start: Int
        var left: Double
        var right: Double

        /// The frames of `from..<to` (the generator's frame count) the note sounds in.
        func frames(from: Int, to: Int) -> (Int, Int) {
            (max(start, from), min(start + note.length, to))
        }
    }
    /// Each call's sum of the notes, kept between calls.
    private var scratchLeft: [Double] = [], scratchRight: [Double] = []

    /// A generator at `sampleRate` whose music is fixed by `seed`, at its first frame.
    public init(sampleRate: Double, seed: UInt64) {
        self.sampleRate = sampleRate
        composer = LofiComposer(sampleRate: sampleRate, seed: seed)
        hiss = SeededRandom(seed: seed ^ 0x4155)
        lowLeft = Biquad(.lowpass, frequency: min(5200, 0.45 * sampleRate), q: 0.6, sampleRate: sampleRate)
        lowRight = lowLeft
        highLeft = Biquad(.highpass, frequency: 35, q: 0.7071, sampleRate: sampleRate)
        highRight = highLeft
        hissBand = Biquad(.bandpass, frequency: min(3000, 0.4 * sampleRate), q: 0.5, sampleRate: sampleRate)
    }

    /// The next `frames` frames, interleaved stereo.
    public mutating func produce(_ frames: Int) -> [Float] {
        guard frames > 0 else { return [] }
        let end = produced + frames
        // Plan a second ahead: no event of a later section can start before `end`.
        while composer.nextStartFrame <= end + Int(sampleRate) {
            pending += composer.planSection()
            pending.sort { ($0.start, $0.order) < ($1.start, $1.order) }
        }
        var taken = 0
        while taken < pending.count && pending[taken].start < end {
            start(pending[taken])
            taken += 1
        }
        pending.removeFirst(taken)

        if scratchLeft.count < frames {
            scratchLeft = [Double](repeating: 0, count: frames)
            scratchRight = scratchLeft
        }
        scratchLeft.withUnsafeMutableBufferPointer { left in
            scratchRight.withUnsafeMutableBufferPointer { right in
                let l = left.baseAddress!, r = right.baseAddress!
                l.update(repeating: 0, count: frames)
                r.update(repeating: 0, count: frames)
                sounding.withUnsafeMutableBufferPointer { notes in
                    // Two pianos in a row that sound over the same frames (a chord's notes)
                    // are rendered together: the same sums as one after the other.
                    var k = 0
                    while k < notes.count {
                        let (from, to) = notes[k].frames(from: produced, to: end)
                        guard from < to else { k += 1; continue }
                        if k + 1 < notes.count && notes[k + 1].frames(from: produced, to: end) == (from, to)
                            && notes[k].note.rendersInPairs && notes[k + 1].note.rendersInPairs {
                            LofiNote.render(&notes[k].note, &notes[k + 1].note, count: to - from,
                                            gains: (notes[k].left, notes[k].right), (notes[k + 1].left, notes[k + 1].right),
                                            into: l + (from - produced), r + (from - produced))
                            k += 2
                            continue
                        }
                        notes[k].note.render(count: to - from, left: notes[k].left, right: notes[k].right,
                                             into: l + (from - produced), r + (from - produced))
                        k += 1
                    }
                }
            }
        }
        sounding.removeAll { $0.start + $0.note.length <= end }

        var out = [Float](repeating: 0, count: frames * 2)
        for i in 0..<frames {
            let a = consumed + i
            let hitL = a < hitsLeft.count ? hitsLeft[a] : 0, hitR = a < hitsRight.count ? hitsRight[a] : 0
            let left = scratchLeft[i], right = scratchRight[i]
            let h = 0.012 * hissBand.process(nextPink())
            let l = hitL + left + h, r = hitR + right + h
            let yl = SoundFinish.saturate(highLeft.process(lowLeft.process(l)), drive: 1.2)
            let yr = SoundFinish.saturate(highRight.process(lowRight.process(r)), drive: 1.2)
            out[2 * i] = Float(yl * Self.outputGain)
            out[2 * i + 1] = Float(yr * Self.outputGain)
        }
        consumed += frames
        if consumed >= 1 << 16 {
            let drop = min(consumed, hitsLeft.count)
            hitsLeft.removeFirst(drop)
            hitsRight.removeFirst(drop)
            accumulatorStart += consumed
            consumed = 0
        }
        produced = end
        return out
    }

    /// Starts an event: a hit into the buffer ahead, a note into those sounding.
    private mutating func start(_ e: LofiComposer.Event) {
        let angle = (min(1, max(-1, e.pan)) + 1) * Double.pi / 4
        let gl = e.gain * cos(angle), gr = e.gain * sin(angle)
        var random = SeededRandom(seed: e.seed)
        let hit: [Double]
        switch e.kind {
        case .piano(let hertz, let velocity, let seconds, let brightness):
            return sound(.piano(hertz: hertz, velocity: velocity, brightness: brightness), e, seconds, gl, gr)
        case .bass(let hertz, let seconds, let tone, let decay):
            return sound(.bass(hertz: hertz, tone: tone, decay: decay), e, seconds, gl, gr)
        case .lead(let hertz, let velocity, let seconds):
            return sound(.lead(hertz: hertz, velocity: velocity), e, seconds, gl, gr)
        case .kick(let tune, let decay): hit = Self.kick(tune: tune, decay: decay, sampleRate: sampleRate)
        case .snare(let tone): hit = Self.snare(tone: tone, sampleRate: sampleRate, random: &random)
        case .hat(let open): hit = Self.hat(open: open, sampleRate: sampleRate, random: &random)
        case .tick(let loud):
            let length = Int((loud ? 0.002 : 0.0006) * sampleRate)
            let amp = (loud ? 0.12 : 0.03) * random.uniform(0.3...1)
            let raw = (0..<max(1, length)).map { i in amp * random.bipolar() * (1 - Double(i) / Double(max(1, length))) }
            hit = raw.filtered(.lowpass, min(3500, 0.4 * sampleRate), sampleRate: sampleRate, periodic: false)
        }
        let offset = e.start - accumulatorStart
        if hitsLeft.count < offset + hit.count {
            hitsLeft += [Double](repeating: 0, count: offset + hit.count - hitsLeft.count)
            hitsRight += [Double](repeating: 0, count: offset + hit.count - hitsRight.count)
        }
        for i in hit.indices {
            hitsLeft[offset + i] += hit[i] * gl
            hitsRight[offset + i] += hit[i] * gr
        }
    }

    private mutating func sound(_ sound: LofiNote.Sound, _ e: LofiComposer.Event, _ seconds: Double, _ gl: Double, _ gr: Double) {
        let note = LofiNote(sound, length: Int(seconds * sampleRate), sampleRate: sampleRate)
        sounding.append(Note(note: note, start: e.start, left: gl, right: gr))
    }

    private mutating func nextPink() -> Double {
        let x = hiss.bipolar()
        var p = pink
        p.0 = 0.99886 * p.0 + x * 0.0555179; p.1 = 0.99332 * p.1 + x * 0.0750759
        p.2 = 0.96900 * p.2 + x * 0.1538520; p.3 = 0.86650 * p.3 + x * 0.3104856
        p.4 = 0.55000 * p.4 + x * 0.5329522; p.5 = -0.7616 * p.5 - x * 0.0168980
        let y = p.0 + p.1 + p.2 + p.3 + p.4 + p.5 + p.6 + x * 0.5362
        p.6 = x * 0.115926
        pink = p
        return y * 0.11
    }

    static func kick(tune: Double, decay: Double, sampleRate sr: Double) -> [Double] {
        var phase = 0.0
        return (0..<Int(0.35 * sr)).map { i in
            let t = Double(i) / sr
            phase += 2 * Double.pi * (tune + 62 * exp(-t / 0.03)) / sr
            return sin(phase) * exp(-t / decay) * min(1, t / 0.002)
        }
    }

    static func snare(tone: Double, sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        var bp = Biquad(.bandpass, frequency: 1700, q: 0.8, sampleRate: sr)
        var lp = Biquad(.lowpass, frequency: min(4500, 0.45 * sr), q: 0.7, sampleRate: sr)
        return (0..<Int(0.3 * sr)).map { i in
            let t = Double(i) / sr
            let body = 0.5 * sin(2 * Double.pi * tone * t) * exp(-t / 0.05)
            let noise = bp.process(random.bipolar()) * exp(-t / 0.09) * 1.6
            return lp.process((body + noise) * min(1, t / 0.002))
        }
    }

    static func hat(open: Bool, sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        var bp = Biquad(.bandpass, frequency: min(6500, 0.4 * sr), q: 1.2, sampleRate: sr)
        let decay = open ? 0.12 : 0.02
        return (0..<Int((open ? 0.4 : 0.08) * sr)).map { i in
            let t = Double(i) / sr
            return bp.process(random.bipolar()) * exp(-t / decay) * min(1, t / 0.001)
        }
    }
}
