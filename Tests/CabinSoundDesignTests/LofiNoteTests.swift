import CabinAudio
import CabinSoundDesign
import CabinTestSupport
import Testing

/// `LofiNote` plays the lo-fi radio's notes from recurrences (phasors, multiplied decays):
/// within `bound` of the closed forms (`LofiReference`) over whole notes of a few seconds,
/// whatever blocks the frames are asked in.
@Suite struct LofiNoteTests {
    static let rate = 48_000.0
    /// The largest difference allowed from the closed form, full scale 1 (220 dB down:
    /// far below a Float's resolution).
    static let bound = 1e-11

    static let notes: [(LofiNote.Sound, Double)] = [
        (.piano(hertz: 174.6, velocity: 0.79, brightness: 1.2), 3.8),
        (.piano(hertz: 698.5, velocity: 0.42, brightness: 0.7), 2.1),
        (.piano(hertz: 1318.5, velocity: 0.6, brightness: 1.0), 1.3),
        (.piano(hertz: 87.3, velocity: 1.0, brightness: 1.2), 1.5),  // index past 2: the reduced sincos
        (.bass(hertz: 41.2, tone: 0.4, decay: 0.3), 1.4),
        (.bass(hertz: 98.0, tone: 0.1, decay: 0.6), 0.9),
        (.lead(hertz: 523.3, velocity: 0.7), 2.9),
        (.lead(hertz: 1760, velocity: 0.45), 1.1),
    ]

    static func reference(_ sound: LofiNote.Sound, _ i: Int, length: Int) -> Double {
        switch sound {
        case .piano(let f, let v, let b):
            LofiReference.piano(i, hertz: f, velocity: v, brightness: b, length: length, sampleRate: rate)
        case .bass(let f, let tone, let decay):
            LofiReference.bass(i, hertz: f, tone: tone, decay: decay, length: length, sampleRate: rate)
        case .lead(let f, let v):
            LofiReference.lead(i, hertz: f, velocity: v, length: length, sampleRate: rate)
        }
    }

    /// The note's frames asked in blocks of random sizes (gains 1 and 0.5).
    static func play(_ sound: LofiNote.Sound, length: Int, seed: UInt64) -> (left: [Double], right: [Double]) {
        var note = LofiNote(sound, length: length, sampleRate: rate)
        var left = [Double](repeating: 0, count: length), right = left
        var random = SeededRandom(seed: seed)
        var done = 0
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                while done < length {
                    let n = min(random.int(1...3000), length - done)
                    note.render(count: n, left: 1, right: 0.5, into: l.baseAddress! + done, r.baseAddress! + done)
                    done += n
                }
            }
        }
        return (left, right)
    }

    @Test func notesStayWithinTheBoundOfTheClosedForms() {
        for (k, (sound, seconds)) in Self.notes.enumerated() {
            let length = Int(seconds * Self.rate)
            let (left, right) = Self.play(sound, length: length, seed: UInt64(k))
            var worst = 0.0, peak = 0.0
            for i in 0..<length {
                let x = Self.reference(sound, i, length: length)
                worst = max(worst, abs(left[i] - x), abs(right[i] - 0.5 * x))
                peak = max(peak, abs(x))
            }
            print("LofiNote \(sound): worst difference \(worst) (peak \(peak))")
            #expect(worst <= Self.bound, "\(sound)")
            #expect(peak > 0.05, "\(sound)")  // the note sounds
        }
    }

    @Test func notesAreTheSameWhateverTheBlocks() {
        for (k, (sound, seconds)) in Self.notes.enumerated() {
            let length = Int(seconds * Self.rate)
            let a = Self.play(sound, length: length, seed: UInt64(k))
            let b = Self.play(sound, length: length, seed: UInt64(k + 100))
            #expect(a.left == b.left && a.right == b.right, "\(sound)")
        }
    }

    /// Two pianos rendered together give `x.render` then `y.render`'s sums to the bit: notes
    /// begun at other frames (their anchors fall apart), through attack and release, in blocks
    /// of random sizes, added into buffers other notes filled; a pair with a piano past the
    /// polynomials' range falls back to one by one.
    @Test func twoPianosTogetherAreThemOneAfterTheOther() {
        let pianos: [LofiNote.Sound] = [
            .piano(hertz: 174.6, velocity: 0.79, brightness: 1.2), .piano(hertz: 698.5, velocity: 0.42, brightness: 0.7),
            .piano(hertz: 1318.5, velocity: 0.6, brightness: 1.0), .piano(hertz: 87.3, velocity: 1.0, brightness: 1.2),
        ]
        #expect(pianos.map { LofiNote($0, length: 10, sampleRate: Self.rate).rendersInPairs } == [true, true, true, false])
        #expect(!LofiNote(.bass(hertz: 41.2, tone: 0.4, decay: 0.3), length: 10, sampleRate: Self.rate).rendersInPairs)
        var random = SeededRandom(seed: 7)
        for (n, (first, second)) in [(0, 1), (1, 2), (2, 0), (0, 3)].enumerated() {
            let length = Int(1.2 * Self.rate)
            // y has already played `lead` frames when the two are first asked together.
            let lead = [0, 300, 1_000, 77][n]
            func fresh() -> (LofiNote, LofiNote) {
                (LofiNote(pianos[first], length: length + lead, sampleRate: Self.rate),
                 LofiNote(pianos[second], length: length + lead, sampleRate: Self.rate))
            }
            var (x1, y1) = fresh(), (x2, y2) = fresh()
            var skip = [Double](repeating: 0, count: lead)
            skip.withUnsafeMutableBufferPointer {
                y1.render(count: lead, left: 1, right: 1, into: $0.baseAddress!, $0.baseAddress!)
                y2.render(count: lead, left: 1, right: 1, into: $0.baseAddress!, $0.baseAddress!)
            }
            // What other notes left in the buffers: sums are rounded, so the order of the
            // adds shows.
            let other = (0..<length).map { _ in 0.3 * random.bipolar() }
            var together = (other, other.map { -$0 })
            var apart = together
            var done = 0
            while done < length {
                let count = min(random.int(1...700), length - done)
                together.0.withUnsafeMutableBufferPointer { l in
                    together.1.withUnsafeMutableBufferPointer { r in
                        LofiNote.render(&x1, &y1, count: count, gains: (0.8, 0.3), (0.45, 0.7),
                                        into: l.baseAddress! + done, r.baseAddress! + done)
                    }
                }
                apart.0.withUnsafeMutableBufferPointer { l in
                    apart.1.withUnsafeMutableBufferPointer { r in
                        x2.render(count: count, left: 0.8, right: 0.3, into: l.baseAddress! + done, r.baseAddress! + done)
                        y2.render(count: count, left: 0.45, right: 0.7, into: l.baseAddress! + done, r.baseAddress! + done)
                    }
                }
                done += count
            }
            #expect(together.0 == apart.0 && together.1 == apart.1, "pair \(n)")
            #expect(zip(together.0, other).contains { abs($0 - $1) > 0.05 }, "pair \(n) sounds")
        }
    }
}
