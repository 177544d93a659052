import CabinAudio
import CabinHaptics
import Glibc

/// Haptic layers heard on the `haptics` bus (`cabin render --haptics-in-mix`): with
/// ``SessionCompileOptions/hapticsBusGain`` set, each haptic layer is also an ordinary
/// looping mixer layer on that bus, playing one loop of its pattern rendered as audio (the
/// sine-and-bursts rendering of the haptic track), started, stopped and crossfaded by the
/// layer's own cues, its gain following the `intensity` map. The `sharpness` map does not
/// apply (the loop's tone is its pattern's).
///
/// The intensity map is a factor on amplitude; the mixer's gain maps are in dB, linear
/// between points, so each segment of the map is resampled at ``intensityMapSteps`` points
/// and a factor of 0 becomes ``silentGain`` — the level follows the factor within a few
/// tenths of a dB where it is audible.
extension SessionCompiler.Builder {
    /// Points each segment of an intensity map is resampled at for the gain map.
    static let intensityMapSteps = 16
    /// The gain for a factor of 0 (inaudible).
    static let silentGain = -120.0

    /// Adds the mixer layer of `layer` on the haptics bus (when there is one).
    mutating func declareHapticLayerAudio(_ layer: HapticLayer) {
        guard let bus = hapticsBus, let asset = hapticLoopAsset(layer.pattern) else { return }
        layers[layer.name] = config.addLayer(LayerConfig(
            name: layer.name, bus: bus, source: .asset(asset), gain: 0, isLooping: layer.isLooping,
            gainMap: intensityGainMap(layer.intensity)))
    }

    /// One loop of `pattern` as audio (its duration's frames, at least one, with the tails
    /// past its end wrapped onto its start: `CompiledHaptics.looped`), registered once as an
    /// asset; nil when the pattern did not load or renders to nothing.
    mutating func hapticLoopAsset(_ pattern: String) -> AssetID? {
        let key = "haptic-loop:\(pattern)"
        if let id = assets[key] { return id }
        guard let compiled = (hapticPatterns[pattern] ?? resolvedHaptics.patterns[pattern])?.looped() else { return nil }
        let length = max(1, Int((compiled.duration * config.sampleRate).rounded()))
        var clip = SessionHapticTrack.clip(compiled, sampleRate: config.sampleRate, options: options.hapticAudio,
                                           maxFrames: length)
        guard !clip.isEmpty else { return nil }
        if clip.count < length { clip += [Float](repeating: 0, count: length - clip.count) }
        let id = config.addAsset(AudioBuffer(samples: clip, channelCount: 1, sampleRate: config.sampleRate))
        assets[key] = id
        return id
    }

    /// The intensity map as a gain map in dB (see the extension's note); nil without one.
    func intensityGainMap(_ map: LayerMap?) -> ParameterMap? {
        guard let map, let id = config.parameter(named: map.parameter), let first = map.points.first else { return nil }
        func decibels(_ factor: Double) -> Double {
            let f = min(max(factor, 0), 1)
            return f > 0 ? max(20 * log10(f), Self.silentGain) : Self.silentGain
        }
        var points = [(first.0, decibels(first.1))]
        for (a, b) in zip(map.points, map.points.dropFirst()) {
            for k in 1...Self.intensityMapSteps {
                let x = a.0 + (b.0 - a.0) * Double(k) / Double(Self.intensityMapSteps)
                points.append((x, decibels(map.value(at: x))))
            }
        }
        return ParameterMap(parameter: id, points: points)
    }
}
