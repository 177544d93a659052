/// Music made while it plays, as long as it plays: a session's `gen:NAME` sounds. Where a
/// library bed is a loop of a few tens of seconds, a generator composes as it goes, so a
/// four-hour session hears no stretch twice, and holds only the seconds ahead.
///
/// ```swift
/// var lofi = SoundGenerators.make("lofi", sampleRate: 48_000, seed: 7)!
/// let frames = lofi.produce(4_800)   // 0.1 s, interleaved stereo
/// ```
///
/// Thread: values; a producer thread (never the render thread).
public protocol SoundGenerator {
    /// The next `frames` frames, interleaved stereo, at about −23 LUFS (the library's
    /// reference loudness). The same seed gives the same frames whatever the sizes asked.
    mutating func produce(_ frames: Int) -> [Float]
}

extension LofiGenerator: SoundGenerator {}
extension PadGenerator: SoundGenerator {}

/// The generators a session's `gen:NAME` can name: their list, and each made by its name.
///
/// Thread: immutable values; any thread (the generators it makes: see ``SoundGenerator``).
public enum SoundGenerators {
    /// Every generator: its name (after `gen:`) and what it plays.
    public static let all: [(name: String, summary: String)] = [
        ("lofi", "lo-fi radio composed section by section: tracks of 70-88 BPM, chords voiced afresh, a melody, drum fills, vinyl"),
        ("pad", "a slow instrumental pad: seventh chords walking a progression, voiced smoothly, each swelling 6-11 s, the key moving now and then"),
    ]

    /// A generator by name, or nil for a name `all` does not list.
    public static func make(_ name: String, sampleRate: Double, seed: UInt64) -> (any SoundGenerator)? {
        switch name {
        case "lofi": LofiGenerator(sampleRate: sampleRate, seed: seed)
        case "pad": PadGenerator(sampleRate: sampleRate, seed: seed)
        default: nil
        }
    }

    /// Why `name` names no generator (one line), or nil.
    public static func problem(with name: String) -> String? {
        all.contains { $0.name == name } ? nil
            : "gen:\(name): no such generator (there is \(all.map { "gen:" + $0.name }.joined(separator: ", ")))"
    }
}
