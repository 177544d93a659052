import CabinAudio
import CabinIO
import CabinSoundDesign

/// The library's voice prompts, spoken once, in library order, before anything renders.
///
/// espeak-ng's output for a text depends a little on what it said before in the same
/// process (see `SpeechSynthesizer`): a run of the generator that spoke only some prompts,
/// or spoke them in a different order on several threads, would write slightly different
/// files. Speaking the whole list in its fixed order first makes every prompt come out the
/// same in every run of `cabin sounds generate`, whatever `--only` asks for. Texts not in
/// the list are spoken live.
///
/// Thread: any (the cache is filled in `init` and only read afterwards).
public final class PrespokenSpeech: SpeechSource, @unchecked Sendable {
    private let synthesizer: SpeechSynthesizer
    private let spoken: [String: AudioBuffer]

    public init(_ synthesizer: SpeechSynthesizer, texts: [String] = VoiceRecipes.prompts.map(\.spoken)) throws {
        self.synthesizer = synthesizer
        var spoken: [String: AudioBuffer] = [:]
        for text in texts where spoken[text] == nil { spoken[text] = try synthesizer.synthesize(text) }
        self.spoken = spoken
    }

    public func speak(_ text: String, sampleRate: Double) throws -> [Float] {
        guard let native = spoken[text] else { return try synthesizer.speak(text, sampleRate: sampleRate) }
        return try Resampler.resample(native, to: sampleRate).samples
    }
}
