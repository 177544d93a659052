import CabinAudio

/// The lo-fi radio's composer: plans the music section by section (eight bars each), for
/// `LofiGenerator` to play. The plan is drawn from one seeded generator in section order,
/// so a seed always gives the same music, and every section is new:
///
/// - **Tracks** of 4–7 sections, each with its own tempo (70–88 BPM), key, swing and
///   piano tone; a section may move the key up a fourth or down a tone.
/// - **Harmony**: one of seven four-chord progressions of ninth and thirteenth chords
///   (ii–V–I–vi, I–vi–ii–V, IV–iii–ii–I, …), a chord a bar or two bars a chord, each chord
///   voiced afresh (inversion, a tone left out, the top doubled an octave up, strummed up
///   or down) and comped in one of six rhythms, changed now and then within a section.
/// - **Bass**: roots, fifths and approach notes in one of four patterns.
/// - **Drums**: four kick patterns, snares on two and four with ghost notes, swung hats
///   with skips and open hats, a fill into the next section, and breakdowns (drums out).
/// - **Melody** (most sections): a one- or two-bar motif on the key's pentatonic scale,
///   answered by a variation, a new phrase and a cadence that ends on a chord tone.
/// - Vinyl dust ticks and pops at random times.
///
/// Thread: a value; any thread except the render thread.
struct LofiComposer {
    /// One thing to play: a note or a hit, at a frame.
    struct Event {
        enum Kind {
            case piano(hertz: Double, velocity: Double, seconds: Double, brightness: Double)
            case bass(hertz: Double, seconds: Double, tone: Double, decay: Double)
            case lead(hertz: Double, velocity: Double, seconds: Double)
            case kick(tune: Double, decay: Double)
            case snare(tone: Double)
            case hat(open: Bool)
            case tick(loud: Bool)
        }
        var kind: Kind
        var start: Int
        var pan: Double
        var gain: Double
        /// The event's own randomness (noise of a snare, a hat, a tick).
        var seed: UInt64
        /// Plan order: breaks ties between equal starts.
        var order: Int
    }

    /// A chord: semitones above its root.
    static let qualities: [String: [Int]] = [
        "m9": [0, 3, 7, 10, 14], "13": [0, 4, 10, 14, 21], "maj9": [0, 4, 7, 11, 14], "m7": [0, 3, 7, 10],
        "9": [0, 4, 7, 10, 14], "m11": [0, 3, 10, 14, 17], "maj7": [0, 4, 7, 11],
    ]
    /// Progressions: (degree in semitones above the key, quality).
    static let progressions: [[(Int, String)]] = [
        [(2, "m9"), (7, "13"), (0, "maj9"), (9, "m9")],   // ii–V–I–vi
        [(0, "maj9"), (9, "m9"), (2, "m11"), (7, "13")],  // I–vi–ii–V
        [(9, "m9"), (2, "m9"), (7, "9"), (0, "maj7")],    // vi–ii–V–I
        [(5, "maj9"), (4, "m7"), (2, "m9"), (0, "maj9")], // IV–iii–ii–I
        [(2, "m9"), (7, "13"), (4, "m7"), (9, "m11")],    // ii–V–iii–vi
        [(5, "maj7"), (7, "9"), (4, "m7"), (9, "m9")],    // IV–V–iii–vi
        [(0, "maj9"), (5, "9"), (0, "maj9"), (5, "13")],  // I–IV vamp
    ]
    /// Comping rhythms: (beat, velocity, length in beats).
    static let comping: [[(Double, Double, Double)]] = [
        [(0, 0.75, 3.5), (1.5, 0.5, 2)],
        [(0, 0.7, 4)],
        [(0.5, 0.6, 2), (2.5, 0.55, 1.5)],
        [(0, 0.7, 2.5), (2.75, 0.45, 1.25)],
        [(0, 0.65, 1), (1, 0.35, 1.5), (2.5, 0.55, 1.5)],
        [(-0.5, 0.6, 3), (2, 0.45, 2)],
    ]
    static let kicks: [[Double]] = [[0, 2.5], [0, 1.75, 2.5], [0, 2.25], [0, 0.75, 2.5]]
    /// Bass: (beat, interval above the root: 0 root, 7 fifth, -1 approach from below, 12 octave).
    static let basslines: [[(Double, Int)]] = [
        [(0, 0), (2.5, 0)], [(0, 0), (1.5, 7), (2.5, 0)], [(0, 0), (2, 7), (3.5, -1)], [(0, 0), (0.75, 12), (2.5, 0)],
    ]
    static let pentatonic = [0, 2, 4, 7, 9]

    let sampleRate: Double
    private var random: SeededRandom
    private var order = 0
    /// Where the next section starts, in seconds.
    private(set) var nextStart = 0.05
    private var sectionsLeft = 0
    private var bpm = 80.0
    private var key = 0
    private var swing = 0.16
    private var brightness = 1.0
    private var section = 0

    init(sampleRate: Double, seed: UInt64) {
        self.sampleRate = sampleRate
        random = SeededRandom(seed: seed ^ 0x10F1_10F1)
    }

    var nextStartFrame: Int { Int(nextStart * sampleRate) }

    /// Plans the next section (eight bars) and returns its events, unsorted.
    mutating func planSection() -> [Event] {
        if sectionsLeft == 0 { newTrack() } else if random.chance(0.2) {
            key = key >= 2 ? key - 2 : key + 5  // down a tone, or up a fourth
        }
        sectionsLeft -= 1
        section += 1
        let beat = 60 / bpm
        let start = nextStart
        var events: [Event] = []
        func add(_ kind: Event.Kind, _ beats: Double, jitter: Double, pan: Double = 0, gain: Double) {
            let t = start + beats * beat + random.uniform(-jitter...jitter)
            events.append(Event(kind: kind, start: max(0, Int(t * sampleRate)), pan: pan, gain: gain, seed: random.next(),
                                order: order))
            order += 1
        }
        let progression = Self.progressions[random.int(0...(Self.progressions.count - 1))]
        let barsPerChord = random.chance(0.5) ? 1 : 2
        var rhythm = Self.comping[random.int(0...(Self.comping.count - 1))]
        let kick = Self.kicks[random.int(0...(Self.kicks.count - 1))]
        let bassline = Self.basslines[random.int(0...(Self.basslines.count - 1))]
        let breakdown = section > 1 && random.chance(0.15)
        let hasMelody = random.chance(0.75)
        let melody = hasMelody ? planMelody() : []
        let fill = random.int(0...3)
        for bar in 0..<8 {
            let b = Double(bar * 4)
            let (degree, quality) = progression[(bar / barsPerChord) % progression.count]
            let root = key + degree
            if random.chance(0.25) { rhythm = Self.comping[random.int(0...(Self.comping.count - 1))] }
            // Piano: a fresh voicing every bar.
            let voicing = voice(root: root, quality: quality)
            let down = random.chance(0.3)
            for (velocity, hit) in rhythm.map({ ($0.1, $0) }) {
                let feel = velocity * random.uniform(0.8...1.05)
                for (k, note) in voicing.enumerated() {
                    let strum = Double(down ? voicing.count - 1 - k : k) * random.uniform(0.008...0.018)
                    add(.piano(hertz: Instruments.hertz(Double(note)), velocity: feel, seconds: hit.2 * beat + 0.6,
                               brightness: brightness),
                        b + hit.0 + strum / beat, jitter: 0.008, pan: Double(k) / Double(max(1, voicing.count - 1)) * 0.6 - 0.3,
                        gain: 0.16)
                }
            }
            // Bass.
            var bassRoot = root
            while bassRoot > 11 { bassRoot -= 12 }
            while bassRoot < 0 { bassRoot += 12 }
            // A bar in two or so takes another of the patterns; each note its own length,
            // tone and lazy timing, so no two bars' bass lines are the same samples.
            let line = random.chance(0.4) ? Self.basslines[random.int(0...(Self.basslines.count - 1))] : bassline
            for (offset, interval) in line {
                let note = 36 + bassRoot + interval
                let seconds = (offset == 0 ? 1.3 : 0.8) * random.uniform(0.6...1.1)
                add(.bass(hertz: Instruments.hertz(Double(note)), seconds: seconds, tone: random.uniform(0.1...0.4),
                          decay: random.uniform(0.3...0.6)),
                    b + offset, jitter: 0.014, gain: 0.42 * random.uniform(0.75...1))
            }
            // Drums.
            let drumsOut = breakdown && bar < 4
            let isFillBar = bar == 7 && fill > 0
            if !drumsOut {
                for offset in kick where !(isFillBar && offset >= 2.5 && fill == 3) {
                    add(.kick(tune: random.uniform(42...54), decay: random.uniform(0.11...0.17)), b + offset, jitter: 0.009,
                        gain: 0.55 * random.uniform(0.85...1))
                }
                for offset in [1.0, 3.0] {
                    add(.snare(tone: random.uniform(170...200)), b + offset, jitter: 0.01, gain: 0.22 * random.uniform(0.85...1))
                }
                for offset in [1.75, 2.75, 3.75] where random.chance(0.12) {
                    add(.snare(tone: random.uniform(170...200)), b + offset, jitter: 0.008, gain: 0.07)
                }
            }
            if isFillBar {
                switch fill {
                case 1:  // a roll of sixteenths into the next section
                    for s in 0..<4 {
                        add(.snare(tone: random.uniform(170...210)), b + 3 + Double(s) / 4, jitter: 0.006,
                            gain: 0.08 + 0.04 * Double(s))
                    }
                case 2:  // a kick-snare pickup
                    add(.kick(tune: 50, decay: 0.1), b + 3.5, jitter: 0.004, gain: 0.4)
                    add(.snare(tone: 190), b + 3.75, jitter: 0.004, gain: 0.16)
                default: break  // a stop: the kick leaves the last half bar
                }
            }
            for eighth in 0..<8 where !(isFillBar && fill == 1 && eighth >= 6) {
                if random.chance(0.08) { continue }
                let open = eighth == 7 && random.chance(0.2)
                let swung = eighth % 2 == 1 ? swing : 0
                add(.hat(open: open), b + Double(eighth) / 2 + swung, jitter: 0.006, pan: 0.25,
                    gain: (eighth % 2 == 0 ? 0.07 : 0.045) * random.uniform(0.7...1) * (drumsOut ? 0.7 : 1))
            }
            // Melody notes of this bar: (beat in the section, scale step, beats).
            for note in melody where note.0 >= b && note.0 < b + 4 {
                let midi = 72 + key + scaleNote(note.1)
                add(.lead(hertz: Instruments.hertz(Double(midi)), velocity: random.uniform(0.45...0.7), seconds: note.2 * beat + 0.4),
                    note.0, jitter: 0.01, pan: -0.15, gain: 0.2)
            }
        }
        // Vinyl: dust ticks and the odd pop.
        let seconds = 32 * beat
        for _ in 0..<Int(seconds * 9) {
            add(.tick(loud: random.chance(0.06)), random.uniform(0...32), jitter: 0, pan: random.uniform(-0.5...0.5), gain: 1)
        }
        nextStart += seconds
        return events
    }

    /// A new track: tempo, key, swing and piano tone.
    private mutating func newTrack() {
        sectionsLeft = random.int(4...7)
        bpm = random.uniform(70...88)
        key = random.int(-4...5)
        swing = random.uniform(0.1...0.2)
        brightness = random.uniform(0.7...1.2)
    }

    /// The chord's notes between MIDI 53 and 79: an inversion, maybe a tone left out (never
    /// the third or the seventh), maybe the top doubled an octave up.
    private mutating func voice(root: Int, quality: String) -> [Int] {
        var intervals = Self.qualities[quality]!
        if intervals.count > 4 && random.chance(0.4) {
            let candidates = intervals.indices.filter { ![3, 4, 10, 11].contains(intervals[$0] % 12) && $0 != 0 }
            if !candidates.isEmpty { intervals.remove(at: candidates[random.int(0...(candidates.count - 1))]) }
        }
        var notes = intervals.map { 60 + root + $0 }
        for _ in 0..<random.int(0...2) { notes[0] += 12; notes.sort() }
        while notes.last! > 79 { notes = notes.map { $0 - 12 } }
        while notes.first! < 53 { notes = notes.map { $0 + 12 } }
        if random.chance(0.2), let top = notes.last, top + 12 <= 86 { notes.append(top + 12) }
        return notes
    }

    /// A scale step (pentatonic, any octave) as semitones above the key.
    private func scaleNote(_ step: Int) -> Int {
        let octave = step >= 0 ? step / 5 : -((-step + 4) / 5)
        return octave * 12 + Self.pentatonic[step - octave * 5]
    }

    /// The section's melody: motif, variation, new phrase, cadence (two bars each).
    /// Returns (beat within the section, scale step, length in beats).
    private mutating func planMelody() -> [(Double, Int, Double)] {
        func motif() -> [(Double, Int, Double)] {
            let count = random.int(3...6)
            var beats = Set<Double>()
            while beats.count < count { beats.insert(Double(random.int(0...13)) / 2) }  // eighths of the phrase's first 7 beats
            var step = random.int(-1...4)
            return beats.sorted().enumerated().map { (i, beat) in
                if i > 0 { step = max(-3, min(7, step + [-2, -1, -1, 1, 1, 2, 0][random.int(0...6)])) }
                return (beat, step, random.chance(0.3) ? 1.5 : 0.75)
            }
        }
        let first = motif()
        var answer = first
        for i in answer.indices.suffix(2) { answer[i].1 += random.int(-2...2) }
        let third = motif()
        var cadence = random.chance(0.5) ? first : third
        cadence = Array(cadence.prefix(max(2, cadence.count - 1)))
        cadence[cadence.count - 1].1 = random.chance(0.5) ? 0 : 2
        cadence[cadence.count - 1].2 = 2.5
        var notes: [(Double, Int, Double)] = []
        for (phrase, offset) in [(first, 0.0), (answer, 8.0), (third, 16.0), (cadence, 24.0)] where random.chance(0.9) {
            notes += phrase.map { ($0.0 + offset, $0.1, $0.2) }
        }
        return notes
    }
}
