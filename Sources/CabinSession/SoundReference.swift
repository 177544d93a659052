/// Where a sound comes from: the built-in library, a file beside the document, or a
/// synthesizer.
public enum SoundReference: Sendable, Equatable, CustomStringConvertible {
    /// A library name such as `engine/v6`, resolved through `Sounds/manifest.json`.
    case library(String)
    /// A path relative to the document's folder (never escaping it).
    case file(String)
    /// A synthesized source.
    case synth(SynthSource)

    public var description: String {
        switch self {
        case .library(let name): name
        case .file(let path): path
        case .synth(let s): s.description
        }
    }
}

/// Sources made in the engine rather than read from files.
public enum SynthSource: Sendable, Equatable, CustomStringConvertible {
    case whiteNoise
    case pinkNoise
    case brownNoise
    /// A sine at `frequency` Hz.
    case sine(frequency: Double)
    /// Binaural beats: `carrier` Hz with left and right `beat` Hz apart.
    case binaural(carrier: Double, beat: Double)

    /// The names after `synth:`.
    public static let names = ["white-noise", "pink-noise", "brown-noise", "sine", "binaural"]

    public var description: String {
        switch self {
        case .whiteNoise: "synth:white-noise"
        case .pinkNoise: "synth:pink-noise"
        case .brownNoise: "synth:brown-noise"
        case .sine(let f): "synth:sine?frequency=\(SessionTime.format(number: f))"
        case .binaural(let c, let b):
            "synth:binaural?carrier=\(SessionTime.format(number: c))&beat=\(SessionTime.format(number: b))"
        }
    }
}
