/// # CabinSoundDesign
///
/// The built-in sound library as code: pure, seeded synthesis recipes (no I/O, no clock,
/// no system randomness), rendered by `CabinPlayback.SoundLibraryGenerator` into `Sounds/`.
///
/// - Registry: `SoundRecipes.families`; each family file lists its own recipes
///   (`EngineRecipes`, `AmbientRecipes`, `UIRecipes`, `RadioRecipes`, `VoiceRecipes`).
/// - Loops are seamless by construction (`Periodic`): whole engine cycles, filters run
///   periodically, events added modulo the loop, modulators with whole cycles per loop;
///   or made over the whole loop in the frequency domain (`Spectral`).
/// - Models: `EngineModel` (firing-order pulse trains through exhaust/body resonances),
///   `AmbientTextures` (road, Doppler pass-bys, rain on glass, wind, birds),
///   `SoundTexture` (noise given a real recording's cochlear-envelope statistics: `RainTexture`
///   and the outdoor beds' `SceneTextures`),
///   `Modal` (struck bars and bells, mechanical clicks), `Instruments` and `LofiLoop`.
///
/// ```swift
/// import CabinSoundDesign
///
/// let rain = try SoundRecipes.named("ambient/rain")!.make()   // 2^20 frames (21.8 s) stereo at 48 kHz
/// print(LoopSeam.measure(rain))                                 // seam step ≤ body's max step
/// ```
public enum CabinSoundDesign {}
