import Glibc

/// The mixer's per-bus, per-layer, per-parameter and per-rule state, and the one-time
/// setup that lays it out in preallocated memory.
///
/// Thread: built on the control thread when the mixer is made; then render thread only.

/// A bus: its voice slots, gain ramp and how long it sounded in the current segment.
struct BusState: BitwiseCopyable {
    var firstSlot: Int
    var slotCount: Int
    var polyphony: Int
    var gain: DecibelRamp
    /// The listener's volume for the bus (`MixerHandle.setVolume`), on top of `gain`: the
    /// timeline moves `gain`, never this.
    var volume = DecibelRamp(0)
    /// Frames of the current segment during which some voice on the bus sounded.
    var soundingFrames = 0
    /// Whether the bus buffer has been cleared for the current segment.
    var isBufferCleared = false
    /// The bus's effects: `Mixer.effects[firstEffect..<firstEffect + effectCount]`.
    var firstEffect = 0
    var effectCount = 0
    /// Whether some effect has a tail (or a moving parameter): the bus is not idle.
    var effectsHaveTail = false
    /// Whether the effects ran in the current segment (so the bus buffer is summed).
    var isEffectRendered = false
}

/// A layer: what it plays and which voice currently plays it.
struct LayerState: BitwiseCopyable {
    var bus: Int32
    var source: SoundSource
    var gain: Double
    var isLooping: Bool
    /// The voice slot playing the layer, or −1.
    var voice: Int32 = -1
}

/// A parameter: its ramp and range.
struct ParameterState: BitwiseCopyable {
    var ramp: Ramp
    var lower: Double
    var upper: Double

    func clamped(_ x: Double) -> Double { min(max(x, lower), upper) }
}

/// A ducking rule in motion: its dB position moves towards `depth` at `attackStep` dB per
/// frame while the `when` bus sounds, and back to 0 at `releaseStep` otherwise.
struct DuckState: BitwiseCopyable {
    var when: Int
    var depth: Double
    var depthGain: Double
    var attackStep: Double
    var releaseStep: Double
    var decibels: Double = 0
    var gain: Double = 1
}

/// A band ducking rule on one bus: the all-pass of its bell cut (`DuckingRule`'s parallel
/// form), one `Biquad` a channel.
struct BandDuck {
    var rule: Int
    var bus: Int
    /// The all-pass `(−c + d z⁻¹ + z⁻²) / (1 + d z⁻¹ − c z⁻²)`, left and right.
    var left = Biquad(), right = Biquad()

    init(rule: Int, bus: Int, band: ClosedRange<Double>, sampleRate: Double) {
        self.rule = rule
        self.bus = bus
        let top = 0.45 * sampleRate
        let low = min(max(band.lowerBound, 10), top / 2), high = min(max(band.upperBound, low * 1.01), top)
        let width = 2 * Double.pi * (high - low) / sampleRate
        let t = Glibc.tan(width / 2)
        let c = (t - 1) / (t + 1)
        let d = -Glibc.cos(2 * Double.pi * (low * high).squareRoot() / sampleRate) * (1 - c)
        left.setAllPass(c: c, d: d)
        right.takeResponse(of: left)
    }

    /// Whether either channel's state holds anything (the cut still rings out of silence).
    var hasState: Bool { left.hasState || right.hasState }
}

/// Allocates and fills the layer, map, parameter and ducking tables from a config.
struct MixerSetup {
    let layers: UnsafeMutablePointer<LayerState>
    let layerMaps: UnsafeMutablePointer<LayerMaps>
    let mapPoints: UnsafeMutablePointer<Double>
    let parameters: UnsafeMutablePointer<ParameterState>
    let ducks: UnsafeMutablePointer<DuckState>
    let duckAffects: UnsafeMutablePointer<Bool>
    let bandDucks: UnsafeMutablePointer<BandDuck>
    let bandDuckCount: Int

    init(config: MixerConfig) {
        let layerCount = max(1, config.layers.count)
        layers = .allocate(capacity: layerCount)
        layerMaps = .allocate(capacity: layerCount)
        layerMaps.initialize(repeating: LayerMaps(), count: layerCount)
        var flat: [Double] = []
        for (l, layer) in config.layers.enumerated() {
            (layers + l).initialize(to: LayerState(bus: layer.bus.index, source: layer.source,
                                                    gain: layer.gain.value, isLooping: layer.isLooping))
            if let map = layer.pitchMap {
                layerMaps[l].pitchParameter = map.parameter.index
                layerMaps[l].pitchOffset = Int32(flat.count)
                layerMaps[l].pitchCount = Int32(map.points.count)
                flat += map.flattened
            }
            if let map = layer.gainMap {
                layerMaps[l].gainParameter = map.parameter.index
                layerMaps[l].gainOffset = Int32(flat.count)
                layerMaps[l].gainCount = Int32(map.points.count)
                flat += map.flattened
            }
        }
        mapPoints = .zeroed(max(1, flat.count))
        for (i, v) in flat.enumerated() { mapPoints[i] = v }

        parameters = .allocate(capacity: max(1, config.parameters.count))
        for (p, parameter) in config.parameters.enumerated() {
            let r = parameter.range
            let value = min(max(parameter.value, r.lowerBound), r.upperBound)
            (parameters + p).initialize(to: ParameterState(ramp: Ramp(value), lower: r.lowerBound,
                                                           upper: r.upperBound))
        }

        let busCount = config.buses.count
        ducks = .allocate(capacity: max(1, config.ducking.count))
        duckAffects = .allocate(capacity: max(1, config.ducking.count * busCount))
        duckAffects.initialize(repeating: false, count: max(1, config.ducking.count * busCount))
        var bands: [BandDuck] = []
        for (r, rule) in config.ducking.enumerated() {
            let depth = max(DecibelRamp.floor, min(0, rule.depth.value))
            let attack = max(1, (rule.attackDuration * config.sampleRate).rounded())
            let release = max(1, (rule.releaseDuration * config.sampleRate).rounded())
            (ducks + r).initialize(to: DuckState(
                when: Int(rule.when.index), depth: depth, depthGain: DecibelRamp.linear(depth),
                attackStep: -depth / attack, releaseStep: -depth / release))
            for b in rule.duck where b.index >= 0 && Int(b.index) < busCount {
                if let band = rule.band {
                    bands.append(BandDuck(rule: r, bus: Int(b.index), band: band, sampleRate: config.sampleRate))
                } else {
                    duckAffects[r * busCount + Int(b.index)] = true
                }
            }
        }
        bandDuckCount = bands.count
        bandDucks = .allocate(capacity: max(1, bands.count))
        bandDucks.initialize(from: bands, count: bands.count)
    }
}
