import CabinAudio

/// GPS-style and Pomodoro voice prompts: spoken by the context's `SpeechSource`
/// (CMU Flite's `slt` voice through `CabinIO.FliteSynthesizer`), then polished: band-limited to a
/// phone-friendly 110 Hz–7.5 kHz, the fundamental's region under 300 Hz 9 dB down and a
/// presence lift of 3 dB at 2.5 kHz (at one loudness, the bands that carry the words get the
/// level the voice's low fundamental took: `scripts/voice-clarity`), the sibilance region
/// eased, a touch of soft saturation, short fades and breathing room before and after. Mono, Opus.
public enum VoiceRecipes {
    /// Library name → what is said (the text as shown, and as spoken).
    public static let prompts: [(name: String, text: String, spoken: String)] = [
        ("voice/10-miles-driven", "10 miles driven — great progress!", "Ten miles driven. Great progress!"),
        ("voice/halfway", "Halfway to your destination", "Halfway to your destination."),
        ("voice/rest-stop-5-miles", "Rest stop in 5 miles", "Rest stop in five miles."),
        ("voice/take-a-break", "Take a 5 minute break", "Take a five minute break."),
        ("voice/ready-to-go", "Ready to hit the road again?", "Ready to hit the road again?"),
        ("voice/approaching-destination", "Approaching your destination", "Approaching your destination."),
        ("voice/journey-complete", "Journey complete", "Journey complete."),
        ("voice/focus-time", "Focus time", "Focus time."),
        ("voice/short-break", "Short break", "Short break."),
        ("voice/long-break", "Long break", "Long break."),
        ("voice/session-complete", "Session complete", "Session complete."),
    ]

    /// A recipe per prompt, in ``prompts`` order; each throws ``SoundDesignError`` without a
    /// speech source.
    public static let all: [SoundRecipe] = prompts.enumerated().map { index, prompt in
        SoundRecipe(prompt.name, .voice, loop: false, storage: .opus, seed: 0x7000 + UInt64(index),
                    description: "Voice: \"\(prompt.text)\"") { context in
            guard let speech = context.speech else {
                throw SoundDesignError("\(prompt.name): needs a speech source (Flite)")
            }
            let raw = try speech.speak(prompt.spoken, sampleRate: context.sampleRate)
            return polish(raw.map(Double.init), sampleRate: context.sampleRate)
        }
    }

    /// The voice polish (see the type's summary).
    public static func polish(_ speech: [Double], sampleRate sr: Double) -> AudioBuffer {
        let lead = Int(0.08 * sr), tail = Int(0.25 * sr)
        var x = [Double](repeating: 0, count: lead) + trimmedSilence(speech) + [Double](repeating: 0, count: tail)
        var chain = [Biquad(.highpass, frequency: 110, q: 0.7, sampleRate: sr),
                     Biquad(.lowShelf(gainDB: -9), frequency: 300, q: 0.7, sampleRate: sr),
                     Biquad(.peak(gainDB: 3), frequency: 2500, q: 0.9, sampleRate: sr),
                     Biquad(.highShelf(gainDB: -2.5), frequency: 5000, q: 0.7, sampleRate: sr),
                     Biquad(.lowpass, frequency: 7500, q: 0.7, sampleRate: sr)]
        let peak = max(1e-9, x.peakMagnitude)
        for i in x.indices {
            var v = x[i] / peak
            for k in chain.indices { v = chain[k].process(v) }
            x[i] = SoundFinish.saturate(v, drive: 1.3)
        }
        return SoundFinish.buffer([x], sampleRate: sr, peakDB: -4, fadeIn: 0.005, fadeOut: 0.05)
    }

    /// The speech without espeak's leading and trailing silence.
    static func trimmedSilence(_ x: [Double]) -> [Double] {
        let threshold = x.peakMagnitude * 0.003
        guard let first = x.firstIndex(where: { abs($0) > threshold }),
              let last = x.lastIndex(where: { abs($0) > threshold }) else { return x }
        return Array(x[first...last])
    }
}
