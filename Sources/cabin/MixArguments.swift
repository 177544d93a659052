import ArgumentParser
import CabinSession

/// `--loudness LUFS|off` and `--seed N` for the commands that run sessions (`play`, `render`).
struct MixArguments: ParsableArguments {
    // Unconditional: the value is negative (-18), not an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Integrated loudness to play at, in LUFS (\(Int(SessionDocument.loudnessRange.lowerBound))…\(Int(SessionDocument.loudnessRange.upperBound)); presets: \(Int(SessionDocument.defaultLoudness))), or 'off' for the gains as written. Default: the document's \"loudness\".",
                               valueName: "LUFS"))
    var loudness: String?

    @Option(help: "Seed for everything random in the session (noises, scatters), instead of the document's \"seed\"; another seed, other variations.")
    var seed: UInt64?

    func validate() throws {
        _ = try choice()
        if let seed, Double(seed) > SessionDocument.seedRange.upperBound {
            throw ValidationError("--seed must be a whole number from 0 to 9007199254740991, not \(seed)")
        }
    }

    /// The compile options these arguments ask for.
    func options(hapticsBusGain: Double? = nil) throws -> SessionCompileOptions {
        SessionCompileOptions(hapticsBusGain: hapticsBusGain, loudness: try choice(), seed: seed)
    }

    /// What the compiler is asked for.
    func choice() throws -> SessionCompileOptions.LoudnessChoice {
        guard let loudness else { return .document }
        if loudness == "off" { return .off }
        guard let value = Double(loudness), SessionDocument.loudnessRange.contains(value) else {
            throw ValidationError("--loudness must be a number of LUFS from \(Int(SessionDocument.loudnessRange.lowerBound)) to \(Int(SessionDocument.loudnessRange.upperBound)) or 'off', not '\(loudness)'")
        }
        return .target(value)
    }
}
