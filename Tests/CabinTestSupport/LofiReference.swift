import Glibc

/// The lo-fi radio's notes as their closed forms — the formulas `LofiGenerator` computed
/// frame by frame with `sin`, `cos` and `exp` before `LofiNote` played them from
/// recurrences — the reference `LofiNoteTests` holds the recurrences to.
///
/// Thread: pure functions; any thread.
public enum LofiReference {
    /// Frame `i` of a piano note `length` frames long.
    public static func piano(_ i: Int, hertz f: Double, velocity: Double, brightness: Double, length: Int,
                             sampleRate sr: Double) -> Double {
        let t = Double(i) / sr
        let release = raisedCosine(Double(length - i) / sr / 0.15)
        let w = 2 * Double.pi * f / sr * Double(i)
        let index = 0.3 + 1.6 * velocity * brightness * exp(-t / 0.12)
        let env = exp(-t / 1.1) * min(1, t / 0.004) * release
        return velocity * env * (1 + 0.08 * sin(2 * Double.pi * 4.5 * t)) * sin(w + index * sin(w))
    }

    /// Frame `i` of a bass note `length` frames long.
    public static func bass(_ i: Int, hertz f: Double, tone: Double, decay: Double, length: Int,
                            sampleRate sr: Double) -> Double {
        let t = Double(i) / sr
        let release = raisedCosine(Double(length - i) / sr / 0.15)
        let w = 2 * Double.pi * f / sr * Double(i)
        return exp(-t / decay) * min(1, t / 0.006) * release * (sin(w) + tone * sin(2 * w))
    }

    /// Frame `i` of a melody (mallet) note `length` frames long.
    public static func lead(_ i: Int, hertz f: Double, velocity: Double, length: Int, sampleRate sr: Double) -> Double {
        let t = Double(i) / sr
        let release = raisedCosine(Double(length - i) / sr / 0.15)
        let w = 2 * Double.pi * f / sr * Double(i)
        let vibrato = 0.004 * sin(2 * Double.pi * 5 * t) * min(1, t / 0.4)
        let env = exp(-t / 0.9) * min(1, t / 0.005) * release
        return velocity * env * (sin(w * (1 + vibrato)) + 0.25 * exp(-t / 0.12) * sin(4 * w))
    }

    static func raisedCosine(_ t: Double) -> Double {
        if t >= 1 { return 1 }
        if t <= 0 { return 0 }
        return 0.5 - 0.5 * cos(Double.pi * t)
    }
}
