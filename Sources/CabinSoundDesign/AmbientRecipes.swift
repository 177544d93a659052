import CabinAudio

/// Ambient loops (stereo, 21.8–32 s so the repeat is not obvious, seamless by construction:
/// every layer is periodic in the loop and events wrap around its end).
public enum AmbientRecipes {
    /// The ambient recipes (`ambient/…`), in library order.
    public static let all: [SoundRecipe] = [
        highway("light", seconds: 30, seed: 0xA101, "Light highway traffic from inside the car: a car now and then",
                road: 0.5, brightness: 380, perMinute: 8, truckShare: 0, gain: 0.7, wind: 0.05, windHigh: 700).at(level: -4),
        highway("medium", seconds: 30, seed: 0xA102, "Steady highway traffic",
                road: 0.6, brightness: 420, perMinute: 18, truckShare: 0.12, gain: 0.75, wind: 0.06, windHigh: 750),
        highway("heavy", seconds: 32, seed: 0xA103, "Heavy highway traffic: dense, with trucks",
                road: 0.7, brightness: 450, perMinute: 40, truckShare: 0.25, gain: 0.8, wind: 0.07, windHigh: 800).at(level: 3),
        // Rain out of doors, a texture with real rain's statistics (RainTexture): 2^20 frames
        // (21.8 s at 48 kHz), a power of two for the FFT the texture is made with (not 2^21:
        // the presets' variation scatters whole copies of the bed, at most 8 at once, and
        // 43.7 s ones overlap more than that); its own colour to 11 kHz, so not the beds'
        // 9 kHz low-pass; its peak at -6.5 dBFS, since its bright drops' true peaks stand
        // some 3.5 dB over their samples once Opus has them.
        ambient("ambient/rain", frames: 1 << 20, seed: 0xA201,
                "Steady rain out of doors: a dense hiss of drops, brightest on top, swelling and easing now and then",
                lowpass: nil, peakDB: -6.5) { bed, r in
            RainTexture.add(&bed, level: 0.25, random: &r)
        },
        // Rain heard from inside the car (the old ambient/rain, with a roof): the drops on the
        // windscreen, the wipers, the road hushed beneath, and the rain outside as the car's
        // body passes it: RainTexture through the cabin's low-pass (two 1.6 kHz biquads, 24 dB
        // an octave) with the roof panel's drumming (a +6 dB resonance at 220 Hz, Q 1.4).
        // 2^20 frames (21.8 s) for the texture's FFT.
        ambient("ambient/rain-car", frames: 1 << 20, seed: 0xA202,
                "Rain from inside the car: drops on the windscreen and drumming on the roof, the wipers now and then, the road hushed beneath",
                lowpass: 12000) { bed, r in
            var outside = StereoBed(frames: bed.frames, sampleRate: bed.sampleRate)
            RainTexture.add(&outside, level: 0.5, random: &r)
            outside.filter(.lowpass, 1600)
            outside.filter(.lowpass, 1600)
            outside.filter(.peak(gainDB: 6), 220, q: 1.4)
            bed.add(left: outside.left, right: outside.right)
            AmbientTextures.rain(&bed, perSecond: 160, level: 0.25, random: &r)
            AmbientTextures.road(&bed, level: 0.22, brightness: 350, random: &r)
            AmbientTextures.wiper(&bed, at: Int(5.3 * bed.sampleRate), level: 0.12, random: &r)
            AmbientTextures.wiper(&bed, at: Int(16.1 * bed.sampleRate), level: 0.12, random: &r)
        },
        // The outdoor beds are textures with the statistics of real recordings of their scenes
        // (SceneTextures), made like the rain: 2^20 frames (21.8 s), their own colour to 11 kHz,
        // their peaks at -6.5 dBFS.
        texture("ambient/night", seed: 0xA301,
                "Summer night in the country: crickets chirping, a trill in the grass, distant traffic a low hum",
                SceneTextures.night),
        texture("ambient/city", seed: 0xA401,
                "A city street: traffic's roar, voices and footsteps, the clatter of the street", SceneTextures.city).at(level: 1),
        texture("ambient/desert-wind", seed: 0xA501, "Desert wind in gusts, grit ticking in the air", SceneTextures.wind),
        // The rest area on a summer evening: no recording of a rest area is at hand, so it is
        // the summer night's (the highway a hum beyond the trees, insects in the grass), its
        // own seed, with a bird now and then (a few short phrases, well under the insects).
        texture("ambient/rest-area", seed: 0xA601,
                "Rest area on a summer evening: the highway a low hum beyond the trees, insects in the grass, a bird now and then",
                SceneTextures.night) { bed, r in
            AmbientTextures.birds(&bed, phrases: 4, level: 0.01, random: &r)
        },
    ]

    /// Cars and trucks arriving at random (a Poisson process: `perMinute` on average, the
    /// gaps exponential, so they bunch and thin out as real traffic does), a `truckShare`
    /// of them trucks.
    static func traffic(_ bed: inout StereoBed, perMinute: Double, truckShare: Double, gain: Double,
                        random: inout SeededRandom) {
        for start in AmbientTextures.arrivals(perMinute: perMinute, seconds: bed.duration, random: &random) {
            let truck = random.chance(truckShare)
            AmbientTextures.passBy(&bed, at: Int(start * bed.sampleRate),
                                   seconds: truck ? random.uniform(6...8) : random.uniform(3.5...5.5),
                                   gain: gain * random.uniform(0.6...1) * (truck ? 1.2 : 1), truck: truck,
                                   direction: random.chance(0.5) ? 1 : -1, distance: random.uniform(0.9...1.6),
                                   random: &random)
        }
    }

    /// `ambient/highway-LEVEL`: road noise, passing cars and trucks, and wind.
    static func highway(_ level: String, seconds: Double, seed: UInt64, _ description: String,
                        road: Double, brightness: Double, perMinute: Double, truckShare: Double, gain: Double,
                        wind: Double, windHigh: Double) -> SoundRecipe {
        ambient("ambient/highway-\(level)", seconds: seconds, seed: seed, description) { bed, r in
            AmbientTextures.road(&bed, level: road, brightness: brightness, random: &r)
            traffic(&bed, perMinute: perMinute, truckShare: truckShare, gain: gain, random: &r)
            AmbientTextures.wind(&bed, level: wind, low: 300, high: windHigh, whistle: 0.05, random: &r)
        }
    }

    /// A bed that is a sound texture: 2^20 frames, then `more` (events over it).
    static func texture(_ name: String, seed: UInt64, _ description: String, _ texture: SoundTexture,
                        _ more: @escaping @Sendable (inout StereoBed, inout SeededRandom) -> Void = { _, _ in }) -> SoundRecipe {
        ambient(name, frames: 1 << 20, seed: seed, description, lowpass: nil, peakDB: -6.5) { bed, r in
            texture.add(to: &bed, level: 0.25, random: &r)
            more(&bed, &r)
        }
    }

    /// A bed of `seconds`, or of exactly `frames` at any rate.
    /// `lowpass` nil: the bed is band-limited already (below 30 Hz and above 11 kHz it is silent).
    static func ambient(_ name: String, seconds: Double = 0, frames: Int? = nil, seed: UInt64, _ description: String,
                        lowpass: Double? = 9000, peakDB: Double = -4,
                        _ build: @escaping @Sendable (inout StereoBed, inout SeededRandom) -> Void) -> SoundRecipe {
        SoundRecipe(name, .ambient, loop: true, storage: .opus, seed: seed, description: description) { context in
            var bed = StereoBed(frames: frames ?? Int(seconds * context.sampleRate), sampleRate: context.sampleRate)
            build(&bed, &context.random)
            // Subtle, never harsh: nothing much above 9 kHz, no sub-bass pressure below 45 Hz.
            guard let lowpass else { return SoundFinish.buffer(bed.channels, sampleRate: context.sampleRate, peakDB: peakDB) }
            bed.filter(.lowpass, lowpass)
            bed.filter(.highpass, 45)
            return SoundFinish.buffer(bed.channels, sampleRate: context.sampleRate, peakDB: peakDB)
        }
    }
}
