/// The registry of every built-in sound: each family file contributes its own list, so a
/// new sound is a new entry in its family's file and never an edit here.
///
/// ```swift
/// let v8 = SoundRecipes.named("engine/v8")!
/// let buffer = try v8.make()          // 48 kHz, seamless loop
/// ```
///
/// Thread: immutable values; any thread.
public enum SoundRecipes {
    /// The families, in library order. A new family is one line here.
    public static let families: [[SoundRecipe]] = [
        EngineRecipes.all,
        AmbientRecipes.all,
        UIRecipes.all,
        RadioRecipes.all,
        VoiceRecipes.all,
    ]

    /// Every recipe, in library order.
    public static var all: [SoundRecipe] { families.flatMap { $0 } }

    /// The recipe called `name` (`engine/v8`), or nil when there is none.
    public static func named(_ name: String) -> SoundRecipe? { all.first { $0.name == name } }

    /// The sample rate of every library asset (Ogg Opus is 48 kHz only).
    public static let sampleRate = 48000.0
}
