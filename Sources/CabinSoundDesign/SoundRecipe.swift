import CabinAudio

/// The families of the built-in library (the manifest's `category`).
public enum SoundCategory: String, Sendable, CaseIterable {
    /// Engine loops (`engine/…`): mono and seamless.
    case engine
    /// Ambient beds (`ambient/…`): stereo, seamless loops.
    case ambient
    /// UI one-shots (`ui/…`): chimes and mechanical sounds, mono.
    case ui
    /// Radio beds (`radio/…`): stereo, seamless loops.
    case radio
    /// Voice prompts (`voice/…`): spoken by a `SpeechSource`, mono.
    case voice
}

/// How an asset is best stored: Ogg Opus (small) or FLAC (lossless, for seams Opus would
/// disturb). The generator checks the decoded seam and falls back to FLAC when Opus hurts it.
public enum StorageFormat: String, Sendable {
    /// Ogg Opus: small, lossy.
    case opus
    /// FLAC: lossless, for seams Opus would disturb.
    case flac
    /// The file name's extension, without the dot: `opus` or `flac`.
    public var fileExtension: String { self == .opus ? "opus" : "flac" }
}

/// What a recipe renders with.
public struct SoundDesignContext {
    /// Frames a second the recipe renders at (default 48 000).
    public var sampleRate: Double
    /// Seeded from the recipe's seed: the same recipe renders the same samples every time.
    public var random: SeededRandom
    /// What speaks voice prompts; nil when none was given (a voice recipe then throws
    /// ``SoundDesignError``).
    public var speech: (any SpeechSource)?

    /// A context at `sampleRate` whose random source is seeded with `seed`.
    public init(sampleRate: Double = 48000, seed: UInt64, speech: (any SpeechSource)? = nil) {
        self.sampleRate = sampleRate
        self.random = SeededRandom(seed: seed)
        self.speech = speech
    }
}

/// One sound of the library: its name, what it is, and the function that makes it.
///
/// A loop's buffer loops as a whole (loop start 0, end = frame count).
///
/// Thread: a value; render on any thread except the audio thread.
public struct SoundRecipe: Sendable {
    /// Library name, e.g. `engine/v8-idle`; also its path under `Sounds/` without extension.
    public var name: String
    /// Its family, the manifest's `category`.
    public var category: SoundCategory
    /// What it is, for people (the manifest's description).
    public var description: String
    /// The seed of its ``SoundDesignContext/random``: fixed per recipe, so it renders the
    /// same samples every time.
    public var seed: UInt64
    /// Whether the sound is a seamless loop (the whole buffer) rather than a one-shot.
    public var isLoop: Bool
    /// How the generator stores it (it falls back to FLAC when Opus hurts a seam).
    public var storage: StorageFormat
    /// How loud it sits against the library's reference loudness, in dB (the manifest's
    /// trim brings it to reference + level): heavy traffic above light, say.
    public var level: Double = 0
    private let body: @Sendable (inout SoundDesignContext) throws -> AudioBuffer

    /// A recipe called `name` in `category`; `render` makes its buffer from a context
    /// seeded with `seed` and may throw (``SoundDesignError``).
    public init(_ name: String, _ category: SoundCategory, loop: Bool, storage: StorageFormat, seed: UInt64,
                description: String, render: @escaping @Sendable (inout SoundDesignContext) throws -> AudioBuffer) {
        self.name = name
        self.category = category
        self.isLoop = loop
        self.storage = storage
        self.seed = seed
        self.description = description
        self.body = render
    }

    /// The same recipe sitting `decibels` from the reference loudness.
    public func at(level decibels: Double) -> SoundRecipe {
        var copy = self
        copy.level = decibels
        return copy
    }

    /// Renders the sound (deterministic: same recipe and seed → same samples).
    public func make(sampleRate: Double = 48000, speech: (any SpeechSource)? = nil) throws -> AudioBuffer {
        var context = SoundDesignContext(sampleRate: sampleRate, seed: seed, speech: speech)
        return try body(&context)
    }

    /// Whether rendering needs a speech source.
    public var needsSpeech: Bool { category == .voice }
}

/// A recipe could not render.
public struct SoundDesignError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the recipe.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
