import CabinAudio
import Glibc

/// The slow instrumental pad generated as it plays (`gen:pad`, the drive's `--radio pad`
/// and the quest's bed): the library's `radio/pad` is four chords of detuned saws, 32 s that
/// come back sample for sample; this one walks a progression of diatonic seventh chords
/// (I, ii, iii, IV, V, vi, each moving where such chords go), each chord voiced as close as
/// it can be to the last (smooth voice leading), held 6–11 s, swelling in over 2.5–4 s and
/// releasing into the next, its low-pass opening by its own amount, and every 16–28 chords
/// the key moves a fourth or a fifth — so it never comes back the same, for hours.
///
/// Deterministic: each chord is rendered whole into a buffer of the seconds ahead when the
/// first frame it sounds in is asked for, chords in start order, so a frame's value does not
/// depend on the sizes asked; the same seed gives the same samples, another seed another pad.
/// It plays near the library's reference loudness (−23 LUFS).
///
/// Thread: a value; a producer thread (the radio's `GeneratedStation`), never the
/// render thread (it allocates).
public struct PadGenerator {
    /// Frames a second of what it produces.
    public let sampleRate: Double
    /// Frames produced so far.
    public private(set) var produced = 0
    /// The output's gain: near the library's reference loudness (−19.3 LUFS at 0.62 over ten
    /// minutes of a session's `gen:pad`, so 0.405 for −23).
    static let outputGain = 0.405

    private var random: SeededRandom
    /// Where the next chord starts (frames) and what it is.
    private var nextStart = 0
    private var degree = 0
    private var key = 0
    private var chordsInKey = 0, chordsUntilModulation = 20
    /// The last chord's upper voices (MIDI notes), for voice leading.
    private var voicing: [Double] = [52, 55, 59, 64]
    /// The chords ahead: frame `bufferStart + i` is `left[i]`, `right[i]`.
    private var left: [Double] = [], right: [Double] = []
    private var bufferStart = 0
    private var highLeft: Biquad, highRight: Biquad

    /// A generator at `sampleRate` whose pad is fixed by `seed`, at its first frame.
    public init(sampleRate: Double, seed: UInt64) {
        self.sampleRate = sampleRate
        random = SeededRandom(seed: seed ^ 0x9AD0)
        key = random.int(-3...3)
        degree = [0, 5, 3][random.int(0...2)]
        highLeft = Biquad(.highpass, frequency: 40, q: 0.7071, sampleRate: sampleRate)
        highRight = highLeft
        // The first chord began before the first frame: the pad sounds from the start
        // instead of swelling in from silence (a session's fade-in is the session's to give).
        nextStart = -Int(4 * sampleRate)
        bufferStart = nextStart
    }

    /// The next `frames` frames, interleaved stereo.
    public mutating func produce(_ frames: Int) -> [Float] {
        guard frames > 0 else { return [] }
        let end = produced + frames
        while nextStart < end { startChord() }
        var out = [Float](repeating: 0, count: 2 * frames)
        for i in 0..<frames {
            let a = produced + i - bufferStart
            let l = a < left.count ? left[a] : 0, r = a < right.count ? right[a] : 0
            out[2 * i] = Float(highLeft.process(l) * Self.outputGain)
            out[2 * i + 1] = Float(highRight.process(r) * Self.outputGain)
        }
        produced = end
        let drop = produced - bufferStart
        if drop >= 1 << 17 {
            left.removeFirst(min(drop, left.count))
            right.removeFirst(min(drop, right.count))
            bufferStart = produced
        }
        return out
    }

    /// Scale degrees of the major scale (semitones above the key's tonic) and the chord
    /// built on each: root, third, fifth, seventh in semitones above its root.
    static let degrees: [(root: Double, tones: [Double])] = [
        (0, [0, 4, 7, 11]), (2, [0, 3, 7, 10]), (4, [0, 3, 7, 10]), (5, [0, 4, 7, 11]),
        (7, [0, 4, 7, 10]), (9, [0, 3, 7, 10]),
    ]
    /// Where each degree goes next (indices into `degrees`), as common-practice and pop
    /// progressions move: I anywhere, ii to V or IV, iii to vi or IV, IV to I, V or ii,
    /// V to I or vi, vi to ii, IV or V.
    static let moves: [[Int]] = [[3, 5, 1, 4, 2], [4, 3, 4], [5, 3], [0, 4, 1, 0], [0, 5, 0], [1, 3, 4, 3]]

    /// Plans the next chord and renders it whole into the buffer ahead.
    private mutating func startChord() {
        let seconds = random.uniform(6...11)
        let attack = random.uniform(2.5...4), release = random.uniform(3...4)
        let chord = Self.degrees[degree]
        let root = 36 + Double(key) + chord.root
        // The root in the bass (36…47), and above it the chord's four tones, each placed in
        // 50…74 as close as it can be to the last voicing.
        let tones = chord.tones.map { (root + $0) }
        voicing = Self.lead(from: voicing, to: tones)
        var bass = root
        while bass < 36 { bass += 12 }
        while bass > 47 { bass -= 12 }
        let notes = [bass] + voicing
        let opening = random.uniform(500...1200), brightness = random.uniform(450...600)
        let length = Int((seconds + release) * sampleRate)
        let offset = nextStart - bufferStart
        if left.count < offset + length {
            left += [Double](repeating: 0, count: offset + length - left.count)
            right += [Double](repeating: 0, count: offset + length - right.count)
        }
        let total = seconds + release
        for (k, note) in notes.enumerated() {
            let gain = k == 0 ? 0.14 : 0.11
            for detune in [-random.uniform(0.05...0.09), random.uniform(0.04...0.08)] {
                let f = Instruments.hertz(note + detune)
                let pan = (detune < 0 ? -1 : 1) * random.uniform(0.25...0.6) * (k == 0 ? 0.3 : 1)
                let angle = (pan + 1) * Double.pi / 4
                let gl = gain * cos(angle), gr = gain * sin(angle)
                var tone = Instruments.saw(f, frames: length, phase: random.unit(), sampleRate: sampleRate)
                var lp = Biquad(.lowpass, frequency: brightness, q: 0.8, sampleRate: sampleRate)
                for i in 0..<length {
                    let t = Double(i) / sampleRate
                    if i % 64 == 0 {
                        let open = brightness + opening * sin(Double.pi * min(1, t / total))
                        lp.setCoefficients(.lowpass, frequency: min(open, 0.45 * sampleRate), q: 0.8, sampleRate: sampleRate)
                    }
                    let env = SoundFinish.raisedCosine(t / attack) * SoundFinish.raisedCosine((total - t) / release)
                    tone[i] = lp.process(tone[i]) * env
                }
                for i in 0..<length {
                    left[offset + i] += tone[i] * gl
                    right[offset + i] += tone[i] * gr
                }
            }
        }
        nextStart += Int(seconds * sampleRate)
        // The next chord: where this one goes; now and then a new key a fourth or fifth away,
        // entered on its I or IV.
        chordsInKey += 1
        if chordsInKey >= chordsUntilModulation {
            key += random.chance(0.5) ? 5 : -5
            if key > 5 { key -= 12 } else if key < -6 { key += 12 }
            degree = random.chance(0.5) ? 0 : 3
            chordsInKey = 0
            chordsUntilModulation = random.int(16...28)
        } else {
            let choices = Self.moves[degree]
            degree = choices[random.int(0...(choices.count - 1))]
        }
    }

    /// The chord `tones` (MIDI notes, any octave) voiced in 50…74, each voice moved to the
    /// nearest place of a tone from `previous` (as a choir moves: the least motion).
    static func lead(from previous: [Double], to tones: [Double]) -> [Double] {
        var best: [Double] = [], bestCost = Double.infinity
        // Each rotation of the tones assigned to the previous voices in order, each tone to
        // its octave nearest the voice it replaces.
        for rotation in 0..<tones.count {
            var voices: [Double] = []
            var cost = 0.0
            for (v, old) in previous.enumerated() {
                let pitch = tones[(v + rotation) % tones.count]
                var placed = pitch
                while placed - old > 6 { placed -= 12 }
                while old - placed > 6 { placed += 12 }
                while placed < 50 { placed += 12 }
                while placed > 74 { placed -= 12 }
                cost += abs(placed - old)
                voices.append(placed)
            }
            if cost < bestCost {
                bestCost = cost
                best = voices
            }
        }
        return best.sorted()
    }
}
