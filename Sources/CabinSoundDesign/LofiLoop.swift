import CabinAudio

/// The lo-fi radio loop: eight bars at 80 BPM of a ii–V–I–vi progression on an electric
/// piano with lazy syncopation, a round bass, soft boom-bap drums with swung hats, vinyl
/// crackle and hiss, all darkened and gently saturated like a worn record.
enum LofiLoop {
    static let bpm = 80.0
    static let bars = 8
    /// Chords as MIDI notes (voicings around middle C) with the bass root.
    static let chords: [(notes: [Double], root: Double)] = [
        ([62, 65, 69, 72, 76], 38),  // Dm9
        ([59, 65, 67, 71, 76], 43),  // G13
        ([60, 64, 67, 71, 74], 36),  // Cmaj9
        ([57, 60, 64, 67, 71], 45),  // Am9
    ]

    static func make(sampleRate sr: Double, random r: inout SeededRandom) -> StereoBed {
        let beat = 60 / bpm
        let frames = Int((Double(bars * 4) * beat * sr).rounded())
        var bed = StereoBed(frames: frames, sampleRate: sr)
        func at(_ beats: Double, _ jitter: Double = 0.008, random: inout SeededRandom) -> Int {
            Int(((beats * beat) + random.uniform(-jitter...jitter)) * sr) + Int(0.02 * sr)
        }
        let kick = Instruments.kick(sampleRate: sr)
        for bar in 0..<bars {
            let chord = chords[bar % chords.count]
            let b = Double(bar * 4)
            // Electric piano: on the one and the "and" of two, the second hit softer.
            for (offset, velocity) in [(0.0, 0.75), (1.5, 0.5)] {
                for (k, note) in chord.notes.enumerated() {
                    let strum = Double(k) * 0.012
                    let ep = Instruments.electricPiano(Instruments.hertz(note), velocity: velocity * r.uniform(0.85...1),
                                                       seconds: 2.6, sampleRate: sr)
                    bed.add(ep, at: at(b + offset, random: &r) + Int(strum * sr), pan: Double(k - 2) * 0.15, gain: 0.16)
                }
            }
            // Bass on one and three.
            for offset in [0.0, 2.5] {
                bed.add(Instruments.bass(Instruments.hertz(chord.root), seconds: 1.2, sampleRate: sr),
                        at: at(b + offset, 0.004, random: &r), gain: 0.42)
            }
            // Drums: kick on one and the "and" of three, snare on two and four, swung eighth hats.
            for offset in [0.0, 2.5] { bed.add(kick, at: at(b + offset, 0.004, random: &r), gain: 0.55) }
            for offset in [1.0, 3.0] {
                bed.add(Instruments.snare(sampleRate: sr, random: &r), at: at(b + offset, 0.01, random: &r), gain: 0.22)
            }
            for eighth in 0..<8 {
                let swing = eighth % 2 == 1 ? beat * 0.16 : 0
                let start = at(b + Double(eighth) / 2, 0.006, random: &r) + Int(swing * sr)
                bed.add(Instruments.hat(sampleRate: sr, random: &r), at: start, pan: 0.25,
                        gain: (eighth % 2 == 0 ? 0.07 : 0.045) * r.uniform(0.8...1))
            }
        }
        crackle(&bed, random: &r)
        bed.filter(.lowpass, 5200, q: 0.6)
        bed.filter(.highpass, 35)
        bed.left = bed.left.map { SoundFinish.saturate($0, drive: 1.2) }
        bed.right = bed.right.map { SoundFinish.saturate($0, drive: 1.2) }
        return bed
    }

    /// Vinyl: sparse dust ticks, a few louder pops, and a low hiss.
    static func crackle(_ bed: inout StereoBed, random r: inout SeededRandom) {
        let sr = bed.sampleRate, n = bed.frames
        let ticks = Int(Double(n) / sr * 9)
        for _ in 0..<ticks {
            let loud = r.chance(0.06)
            let length = Int((loud ? 0.002 : 0.0006) * sr)
            let amp = (loud ? 0.12 : 0.03) * r.uniform(0.3...1)
            let tick = (0..<length).map { i in amp * r.bipolar() * (1 - Double(i) / Double(length)) }
            bed.add(tick.filtered(.lowpass, 3500, sampleRate: sr, periodic: false), at: r.int(0...(n - 1)),
                    pan: r.uniform(-0.5...0.5))
        }
        let hiss = Noise.pink(n, random: &r).filtered(.bandpass, 3000, q: 0.5, sampleRate: sr, periodic: true)
        bed.add(left: hiss, right: hiss, gain: 0.012)
    }
}
