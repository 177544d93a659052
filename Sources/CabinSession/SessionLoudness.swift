import CabinAudio
import Glibc

/// The integrated loudness a session will have, estimated from what it plays and the
/// known loudness of every sound, without rendering it; and the master gain that brings it
/// to a target (a document's `"loudness"`).
///
/// Why an estimate and not a measured pre-render: every sound's loudness is already known
/// (library sounds are measured and trimmed to the manifest's reference, speech is measured
/// when it is synthesized, synthesized sources are measured by the loader), and the session
/// is a timeline of gains, so its loudness follows from the document at the cost of a few
/// thousand additions — at load, for a four-hour session as for a one-minute one, and the
/// same for `play`, `render`, a seek and every block size (the gain is a pure function of
/// the document and the loaded sounds, so renders stay bit-identical). A measured
/// pre-render would cost seconds before a long session plays, or measure only a part.
///
/// The target is the bed's: a session with layers is estimated from its layers alone, and
/// its cues ride over the bed by the margin the document's bus gains give them (they add a
/// few tenths of a dB to the measured whole). A session of one-shots only is estimated from
/// those, each counted at its loudness over its whole length.
///
/// The model, in 400 ms blocks (BS.1770's): each layer that plays contributes its sound's
/// loudness plus its bus gain, layer gain, the level of its `fade` cues (ramps linear in
/// dB) and its `gainMap` at the parameter's value then (parameters follow their `set`
/// ramps); fade-ins and fade-outs count from their midpoint; a crossfade switches sound at
/// its midpoint; while a one-shot (`play`, `say`) sounds on a ducking rule's `when` bus the
/// ducked buses drop by the rule's depth. Sources add as powers (uncorrelated). Blocks are then gated as BS.1770 does
/// (−70 LUFS absolute, −10 LU relative) and averaged. What it leaves out: the limiter,
/// bus effects (a low-pass lowers the loudness a little), and correlation between sources.
///
/// Thread: pure; control thread.
public enum SessionLoudness {
    /// The blocks' length in seconds (BS.1770's gating block).
    public static let blockDuration = 0.4
    /// The master gain is kept within this range (dB), whatever the estimate.
    public static let masterGainRange: ClosedRange<Double> = -40...40

    /// A synthesized source's loudness when it was not measured: −15 dBFS RMS on both
    /// channels, unweighted (K-weighting moves noises and tones by a few dB; the loader
    /// measures the real figure).
    public static let nominalSynthLoudness = -0.691 + 10 * log10(2) + SoundSource.synthReferenceRMS.value

    /// What the estimate needs to know of a sound, as it plays at 0 dB (after its trim).
    public struct SoundFacts: Sendable {
        /// Integrated loudness in LUFS (nil: unknown; counted at the library's reference).
        public var loudness: Double?
        /// Length in seconds (one-shots; loops play for as long as their layer).
        public var duration: Double
        /// A sound of `loudness` LUFS (nil: unknown) lasting `duration` seconds.
        public init(loudness: Double?, duration: Double) {
            self.loudness = loudness
            self.duration = duration
        }
    }

    /// The estimated integrated loudness (LUFS) of `document` before any master gain, or
    /// nil when it plays nothing. `facts(reference, normalize)` tells each sound's loudness
    /// and length (`say` cues ask with `.file(soundKey)`); unknown loudness counts as
    /// `referenceLoudness`.
    public static func estimate(_ document: SessionDocument, referenceLoudness: Double = -23,
                                facts: (SoundReference, Bool) -> SoundFacts?) -> Double? {
        let blockCount = max(1, Int((document.duration / blockDuration).rounded(.up)))
        guard blockCount <= 1_000_000 else { return nil }
        var power = [Double](repeating: 0, count: blockCount)
        var shotPower = [Double](repeating: 0, count: blockCount)
        let busGain = Dictionary(document.buses.map { ($0.name, $0.gain) }, uniquingKeysWith: { a, _ in a })
        func loudness(_ r: SoundReference, _ normalize: Bool) -> Double {
            facts(r, normalize)?.loudness ?? referenceLoudness
        }

        // One-shots: their power over their length, and when each voice-like bus sounds.
        var sounding: [String: [Bool]] = [:]
        for rule in document.ducking where sounding[rule.when] == nil {
            sounding[rule.when] = [Bool](repeating: false, count: blockCount)
        }
        for cue in document.cues {
            var shot: (SoundReference, String, Double)?
            if let play = cue.play { shot = (play.sound, play.bus, play.gain) }
            if let say = cue.say {
                let spoken = SoundReference.file(say.soundKey)
                shot = facts(spoken, true) != nil ? (spoken, say.bus, say.gain) : say.fallback.map { ($0, say.bus, say.gain) }
            }
            guard let (sound, bus, gain) = shot, let f = facts(sound, true) else { continue }
            let level = (f.loudness ?? referenceLoudness) + (busGain[bus] ?? 0) + gain
            let range = blocks(from: cue.time, to: cue.time + f.duration, count: blockCount)
            let power = decibelsToPower(level)
            for i in range {
                shotPower[i] += power
                sounding[bus]?[i] = true
            }
        }

        // Parameters: their value in every block.
        var parameterValues: [String: [Double]] = [:]
        for p in document.parameters {
            var values = [Double](repeating: p.value, count: blockCount)
            var current = p.value
            let sets = document.cues.compactMap { c in c.set.flatMap { $0.parameter == p.name ? (c.time, $0) : nil } }
            for (k, (time, change)) in sets.enumerated() {
                let end = k + 1 < sets.count ? sets[k + 1].0 : document.duration
                let from = current
                for i in blocks(from: time, to: end, count: blockCount) {
                    let t = (Double(i) + 0.5) * blockDuration
                    let x = change.over > 0 ? min(1, max(0, (t - time) / change.over)) : 1
                    values[i] = from + (change.to - from) * x
                }
                current = change.over > 0 ? from + (change.to - from) * min(1, max(0, (end - time) / change.over)) : change.to
            }
            parameterValues[p.name] = values
        }

        // Layers: level in every block while they play.
        for layer in document.layers {
            var events: [(time: Double, apply: (inout LayerState) -> Void)] = []
            for cue in document.cues {
                if cue.start.contains(layer.name) {
                    let t = cue.time + (cue.fadeIn ?? 0) / 2
                    events.append((t, { $0.isPlaying = true; $0.fade = (0, 0, 0, 0) }))
                }
                if cue.stop.contains(layer.name) {
                    events.append((cue.time + (cue.fadeOut ?? 0) / 2, { $0.isPlaying = false }))
                }
                if let fade = cue.fade, fade.layer == layer.name {
                    let t = cue.time
                    events.append((t, { s in s.fade = (s.level(at: t), fade.to, t, fade.over) }))
                }
                if let crossfade = cue.crossfade, crossfade.layer == layer.name {
                    events.append((cue.time + crossfade.over / 2, { $0.sound = crossfade.to }))
                }
            }
            events.sort { $0.time < $1.time }
            var state = LayerState(sound: layer.sound)
            let scattered = layer.scatter.map { scatterLoudness($0, normalize: layer.normalize, referenceLoudness, facts) }
            var crossfaded = false
            var next = 0
            // What does not change from block to block is looked up once (the sound's
            // loudness again only after an event): the sums and powers are the same.
            let bus = busGain[layer.bus] ?? 0
            let mapValues = layer.gainMap.flatMap { parameterValues[$0.parameter] }
            let ducks = document.ducking.filter { $0.duck.contains(layer.bus) }.map { (by: $0.by, sounding: sounding[$0.when]) }
            var own: Double?
            var lastLevel = Double.nan, lastPower = 0.0
            for i in 0..<blockCount {
                let t = (Double(i) + 0.5) * blockDuration
                while next < events.count && events[next].time <= t {
                    events[next].apply(&state)
                    next += 1
                    crossfaded = crossfaded || state.sound != layer.sound
                    own = nil
                }
                guard state.isPlaying else { continue }
                let sound = own ?? (crossfaded ? nil : scattered) ?? loudness(state.sound, layer.normalize)
                own = sound
                var level = sound + bus + layer.gain + state.level(at: t)
                if let map = layer.gainMap, let values = mapValues { level += map.value(at: values[i]) }
                for rule in ducks where rule.sounding?[i] == true { level += rule.by }
                if level != lastLevel {
                    lastLevel = level
                    lastPower = decibelsToPower(level)
                }
                power[i] += lastPower
            }
        }
        return gatedLoudness(power) ?? gatedLoudness(shotPower)
    }

    /// A scatter's loudness as a steady bed: its events' mean energy (sounds' loudness over
    /// their length, gains averaged as powers) times their mean rate.
    static func scatterLoudness(_ s: Scatter, normalize: Bool, _ reference: Double,
                                _ facts: (SoundReference, Bool) -> SoundFacts?) -> Double {
        let energies = s.sounds.map { sound -> Double in
            let f = facts(sound, normalize)
            return decibelsToPower(f?.loudness ?? reference) * max(blockDuration, f?.duration ?? 1)
        }
        let energy = energies.reduce(0, +) / Double(max(1, energies.count))
        let (a, b) = (s.gain.lowerBound, s.gain.upperBound)
        let gainPower = b > a ? (decibelsToPower(b) - decibelsToPower(a)) / ((b - a) * log(10) / 10) : decibelsToPower(a)
        let perSecond = (s.rate.lowerBound + s.rate.upperBound) / 2 / 60
        return 10 * log10(max(1e-30, energy * gainPower * perSecond))
    }

    /// The master gain (dB) that brings a session estimated at `estimate` LUFS to `target`.
    public static func masterGain(target: Double, estimate: Double?) -> Double {
        guard let estimate else { return 0 }
        return min(masterGainRange.upperBound, max(masterGainRange.lowerBound, target - estimate))
    }

    /// A layer's state while the estimate walks its cues.
    struct LayerState {
        var sound: SoundReference
        var isPlaying = false
        /// A `fade` cue: from dB, to dB, start time, duration.
        var fade: (from: Double, to: Double, time: Double, over: Double) = (0, 0, 0, 0)

        func level(at t: Double) -> Double {
            guard fade.over > 0 else { return t >= fade.time ? fade.to : fade.from }
            let x = min(1, max(0, (t - fade.time) / fade.over))
            return fade.from + (fade.to - fade.from) * x
        }
    }

    static func blocks(from start: Double, to end: Double, count: Int) -> Range<Int> {
        let a = max(0, min(count, Int((start / blockDuration).rounded(.down))))
        let z = max(a, min(count, Int((end / blockDuration).rounded(.up))))
        return a..<z
    }

    static func decibelsToPower(_ db: Double) -> Double { pow(10, db / 10) }

    /// BS.1770's gating over block powers (K-weighted mean squares, as LUFS + 0.691 dB).
    static func gatedLoudness(_ power: [Double]) -> Double? {
        let absolute = decibelsToPower(-70)
        let loud = power.filter { $0 > absolute }
        guard !loud.isEmpty else { return nil }
        let relative = loud.reduce(0, +) / Double(loud.count) * decibelsToPower(-10)
        let gated = loud.filter { $0 > relative }
        return 10 * log10(gated.reduce(0, +) / Double(gated.count))
    }
}
