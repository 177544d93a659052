import CabinAudio
import Glibc

/// What makes one combustion engine sound like itself: how many cylinders fire when, how
/// evenly, and what the exhaust and body do with each firing.
public struct EngineSpec: Sendable {
    /// Firing angles in crank degrees within the four-stroke cycle (0..<720), one per cylinder.
    public var firingAngles: [Double]
    /// Spread of strength between cylinders (standard deviation, fixed per cylinder): the
    /// source of the half-order "lope" under the firing frequency.
    public var cylinderSpread = 0.1
    /// Spread of strength from firing to firing.
    public var eventSpread = 0.05
    /// Timing jitter as a fraction of the mean firing interval.
    public var timingJitter = 0.01
    /// Probability that a firing is weak (a sputter).
    public var misfireChance = 0.0
    /// Exhaust pulse rise (seconds).
    public var pulseAttack = 0.0008
    /// Exhaust pulse decay (seconds).
    public var pulseDecay = 0.004
    /// Exhaust and body resonances (frequency Hz, Q, gain).
    public var resonances: [(Double, Double, Double)] = []
    /// The pulse train itself, low-passed at 300 Hz, added under the resonances.
    public var directGain = 0.4
    /// Final tone: nothing bright above this.
    public var lowpass = 2500.0
    /// Gain of the valve-train and combustion noise burst on each firing.
    public var mechanical = 0.05
    /// Centre frequency of those noise bursts, in Hz.
    public var mechanicalFrequency = 2000.0
    /// Diesel knock: short bright bursts on each firing.
    public var knock = 0.0
    /// Broadband low rumble (intake, road) under everything.
    public var rumble = 0.05
    /// Soft saturation drive (1 = gentle).
    public var drive = 1.2
    /// Nothing below this (sub-harmonics a speaker cannot play only eat headroom).
    public var highpass = 38.0

    /// A spec with `firingAngles` (crank degrees, 0..<720, one per cylinder) and every
    /// other setting at its default.
    public init(firingAngles: [Double]) { self.firingAngles = firingAngles }

    /// Evenly spaced firing for `cylinders` cylinders.
    public static func even(_ cylinders: Int) -> EngineSpec {
        EngineSpec(firingAngles: (0..<cylinders).map { Double($0) * 720 / Double(cylinders) })
    }
}

/// Renders engines as a firing-order pulse train through resonant exhaust/body filters.
///
/// Thread: pure functions; any thread except the render thread.
public enum EngineModel {
    /// A seamless loop at a steady `rpm`, about `seconds` long: a whole number of engine
    /// cycles, every filter run periodically. The rpm is nudged so a cycle is whole frames.
    public static func loop(_ spec: EngineSpec, rpm: Double, seconds: Double, sampleRate sr: Double,
                            random: inout SeededRandom) -> [Double] {
        let cycleFrames = (sr * 120 / rpm).rounded()
        let cycles = max(1, (seconds * sr / cycleFrames).rounded())
        let frames = Int(cycles * cycleFrames)
        var cylinder = cylinderGains(spec, random: &random)
        var events: [(Double, Double)] = []
        let interval = cycleFrames / Double(spec.firingAngles.count)
        for k in 0..<Int(cycles) {
            for (c, angle) in spec.firingAngles.enumerated() {
                // Half an interval in: the loop's wrap falls between firings, not on an onset.
                let position = (Double(k) + angle / 720) * cycleFrames + interval / 2
                    + spec.timingJitter * interval * random.gaussian()
                events.append((position, eventGain(spec, cylinder[c], random: &random)))
            }
        }
        cylinder.removeAll()
        return voice(spec, events: events, frames: frames, periodic: true, sampleRate: sr, random: &random)
    }

    /// A one-shot with a changing speed: `rpm(frame)` (the ignition's crank, catch and settle).
    public static func synthesize(_ spec: EngineSpec, frames: Int, sampleRate sr: Double, random: inout SeededRandom,
                              rpm: (Int) -> Double) -> [Double] {
        let gains = cylinderGains(spec, random: &random)
        var events: [(Double, Double)] = []
        var theta = 0.0
        for i in 0..<frames {
            let step = 6 * rpm(i) / sr
            let next = theta + step
            for (c, angle) in spec.firingAngles.enumerated() {
                let k = ((next - angle) / 720).rounded(.down)
                let at = angle + 720 * k
                if at > theta && at <= next {
                    let interval = (sr * 120 / max(60, rpm(i))) / Double(spec.firingAngles.count)
                    let position = Double(i) + (at - theta) / step + spec.timingJitter * interval * random.gaussian()
                    events.append((position, eventGain(spec, gains[c], random: &random)))
                }
            }
            theta = next
        }
        return voice(spec, events: events, frames: frames, periodic: false, sampleRate: sr, random: &random)
    }

    private static func cylinderGains(_ spec: EngineSpec, random: inout SeededRandom) -> [Double] {
        spec.firingAngles.map { _ in max(0.3, 1 + spec.cylinderSpread * random.gaussian()) }
    }

    private static func eventGain(_ spec: EngineSpec, _ cylinder: Double, random: inout SeededRandom) -> Double {
        var g = cylinder * max(0.2, 1 + spec.eventSpread * random.gaussian())
        if random.chance(spec.misfireChance) { g *= 0.15 }
        return g
    }

    /// Pulse train, burst envelopes, filters, saturation.
    private static func voice(_ spec: EngineSpec, events: [(Double, Double)], frames: Int, periodic: Bool,
                              sampleRate sr: Double, random: inout SeededRandom) -> [Double] {
        var pulses = [Double](repeating: 0, count: frames)
        var bursts = [Double](repeating: 0, count: frames)
        var knocks = [Double](repeating: 0, count: frames)
        let pulseLength = Int((spec.pulseDecay * 7 + spec.pulseAttack * 4) * sr)
        let burstLength = Int(0.02 * sr)
        for (position, gain) in events {
            let first = Int(position.rounded(.up))
            for j in 0..<max(pulseLength, burstLength) {
                let t = (Double(first + j) - position) / sr
                var index = first + j
                if periodic { index = ((index % frames) + frames) % frames } else if index < 0 || index >= frames { continue }
                if j < pulseLength {
                    pulses[index] += gain * (1 - exp(-t / spec.pulseAttack)) * exp(-t / spec.pulseDecay)
                }
                if j < burstLength {
                    bursts[index] += gain * exp(-t / 0.004)
                    knocks[index] += gain * exp(-t / 0.0012)
                }
            }
        }
        let noise = Noise.white(frames, random: &random)
        var out = pulses.filtered(.lowpass, 300, sampleRate: sr, periodic: periodic).scaled(spec.directGain)
        for (f, q, g) in spec.resonances {
            out = out.mixed(with: pulses.filtered(.bandpass, f, q: q, sampleRate: sr, periodic: periodic), gain: g)
        }
        let scale = max(1e-9, out.peakMagnitude)
        if spec.mechanical > 0 {
            let mech = zip(noise, bursts).map { $0 * $1 }
                .filtered(.bandpass, spec.mechanicalFrequency, q: 1.2, sampleRate: sr, periodic: periodic)
            out = out.mixed(with: mech, gain: spec.mechanical * scale / max(1e-9, mech.peakMagnitude))
        }
        if spec.knock > 0 {
            let k = zip(noise, knocks).map { $0 * $1 }
                .filtered(.bandpass, 2600, q: 2.5, sampleRate: sr, periodic: periodic)
            out = out.mixed(with: k, gain: spec.knock * scale / max(1e-9, k.peakMagnitude))
        }
        if spec.rumble > 0 {
            let r = Noise.brown(frames, random: &random, periodic: periodic)
                .filtered(.lowpass, 350, sampleRate: sr, periodic: periodic)
            out = out.mixed(with: r, gain: spec.rumble * scale / max(1e-9, r.peakMagnitude))
        }
        out = out.filtered(.lowpass, spec.lowpass, q: 0.6, sampleRate: sr, periodic: periodic)
        let peak = max(1e-9, out.peakMagnitude)
        // Saturating an asymmetric pulse train makes DC: the high-pass comes after it.
        return out.map { SoundFinish.saturate($0 / peak, drive: spec.drive) }
            .filtered(.highpass, spec.highpass, q: 0.6, sampleRate: sr, periodic: periodic)
    }
}
