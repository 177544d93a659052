import CabinAudio

/// The outdoor beds as sound textures (`SoundTexture`), each with the statistics of a real
/// recording of its scene: the colour is the recording's power in the 30 cochlear bands less
/// each band's width (dB, the lowest band 0; `scripts/texture-colour RECORDING` prints it),
/// the layers are chosen from what its envelope statistics show (`scripts/sound-compare`), and
/// the swell is set to its 3 s level swing. The figures are measurements; no audio of the
/// recordings is in the project. The recordings are the third-party fixtures in
/// `../shared/fixtures/ambience/` (licences in their SOURCES.md).
///
/// Thread: values; any thread except the render thread.
public enum SceneTextures {
    /// Wind out of doors (against `blanket__wind.ogg`, a CC0 recording of wind in the open):
    /// dark (its power falls some 56 dB from 50 Hz to 9 kHz), Gaussian within a few seconds
    /// in every band but the top two, where grit and leaves in the gusts click (envelope
    /// skewness 1.1, kurtosis 4.6: drops, ~200 a second, over 7 kHz), and swelling in gusts
    /// (its 3 s level swings 2.35 dB; the swell set to 2.8, which the loop's own windows
    /// bring to the recording's).
    public static let wind = SoundTexture(
        colour: [
            0.00, -0.41, -5.25, -5.70, -4.24, -9.70, -12.61, -19.48, -21.77, -22.61, -23.86, -28.16, -30.37, -32.09, -34.28,
            -36.50, -37.90, -39.05, -39.98, -40.70, -42.04, -43.34, -45.33, -47.92, -49.73, -51.70, -54.16, -57.81, -56.37, -55.73,
        ],
        layers: [.init(.init(from: 7000, full: 9000, share: 0.6), .drops(rate: 200, spread: 1, wander: 0.7, wanderHz: 3))],
        swellDB: 2.4, swellHz: 0.15)

    /// A city street (against `blanket__city.ogg`, CC BY): traffic's broad roar below 500 Hz,
    /// voices and footsteps in the middle bands (their envelopes move most at 4–16 Hz: a
    /// layer under a gain wandering at ~5 Hz), and above 1.5 kHz the clatter of a street:
    /// bursts that decay in ~80 ms, a few a second, in two groups of bands that move apart
    /// (the high bands' envelopes skewed +0.8, kurtosis 5.3, yet correlated only 0.2 with
    /// each other); its 3 s level swings 1.3 dB.
    public static let city = SoundTexture(
        colour: [
            0.00, -0.25, -2.40, -3.90, -1.30, -1.57, -8.90, -9.55, -10.15, -11.66, -13.41, -13.67, -14.71, -15.73, -15.95,
            -18.29, -19.45, -20.38, -22.49, -25.30, -27.79, -30.62, -33.54, -35.64, -37.55, -38.25, -40.40, -35.82, -44.90, -48.91,
        ],
        layers: [
            .init(.init(from: 1500, full: 2500, until: 3500, to: 4500, share: 0.5), .bursts(rate: 8, spread: 0.8, decay: 0.08)),
            .init(.init(from: 3500, full: 4500, share: 0.5), .bursts(rate: 8, spread: 0.8, decay: 0.08)),
            .init(.init(from: 300, full: 600, until: 1500, to: 2500, share: 0.4), .wobble(depth: 0.8, hz: 5)),
        ],
        swellDB: 1.29, swellHz: 0.15)

    /// A summer night in the country (against `blanket__summer-night.ogg`, public domain):
    /// distant traffic's low hum, and insects. Field crickets on a carrier of 4.3 kHz (a peak
    /// ~130 Hz wide, its second harmonic 30 dB under it at 8.6 kHz), pulsing at 48 a second in
    /// chirps some 0.42 s apart (their envelopes' autocorrelation peaks at 21 ms and 0.42 s),
    /// three of them, each at its own period, chirps of 4 pulses blurred to 30 % deep; their
    /// band's envelopes are skewed (+1.2: a quiet floor, the nearest chirps over it). And a
    /// trill at 5–7 kHz that is mostly on, with gaps of up to 0.8 s about once a second (its
    /// envelopes skewed −0.6…−1.3). The crickets' band (3.7–4.8 kHz) and their harmonic's
    /// (7.8–8.8 kHz) are taken out of the colour (the floor on either side continued under
    /// them) and given to the crickets' tone. Its 3 s level swings 1.0 dB.
    public static let night = SoundTexture(
        colour: [
            0.00, 2.13, -2.54, -7.61, -12.34, -15.16, -16.58, -16.59, -15.57, -14.94, -16.04, -18.38, -18.74, -20.84, -23.55,
            -24.69, -27.43, -28.31, -26.77, -29.22, -33.30, -34.38, -33.40, -32.40, -31.30, -30.25, -39.13, -40.26, -40.00, -41.00,
        ],
        layers: [
            .init(.init(from: 4500, full: 4900, until: 7000, to: 7800, share: 0.99), .dips(rate: 1, width: 0.8, depth: 1)),
            .init(SoundTexture.Tone(carrier: 4300, width: 130, peakDB: 8, harmonicDB: -30),
                  .chirps(singers: 3, pulseHz: 48, pulses: 4, period: 0.42, depth: 0.3, floor: 0.05)),
        ],
        swellDB: 1.0, swellHz: 0.15)
}
