import Glibc

/// A waveform an `AudioCustom` event plays: interleaved samples (1 or 2 channels) already at
/// the rate the pattern's audio is rendered at.
///
/// Thread: a value type; any thread.
public struct HapticWaveform: Sendable, Hashable {
    /// Interleaved samples, `frameCount × channelCount`.
    public var samples: [Float]
    /// Channels a frame has: 1 or 2.
    public var channelCount: Int
    /// A waveform of interleaved `samples` with `channelCount` channels (1 or 2).
    public init(samples: [Float], channelCount: Int) {
        self.samples = samples
        self.channelCount = channelCount
    }
    /// Frames in ``samples`` (0 when ``channelCount`` is 0).
    public var frameCount: Int { channelCount == 0 ? 0 : samples.count / channelCount }
}

/// The sound an AHAP carries — its `AudioCustom` and `AudioContinuous` events — rendered as
/// stereo audio, as Core Haptics plays it beside the haptics (Apple publishes no exact
/// model; these are Cabin's choices, stated here):
///
/// - `AudioCustom`: the waveform (``HapticWaveform``, loaded by whoever knows files) starts
///   at the event's `Time`, at `AudioVolume` (0…1, default 1) times the waveform's own
///   level, panned by `AudioPan` (−1 left … 1 right, a balance: the far side falls
///   linearly, the near side stays at unity), read faster or slower by `AudioPitch`
///   (−1…1 is −1…+1 octave, linear interpolation). `EventDuration` (when given) cuts it,
///   with a 5 ms fade; `EventWaveformUseVolumeEnvelope` shapes it with the event's
///   `AttackTime` (a fade in) and `ReleaseTime` (a fade out at its end) in the seconds of
///   ``HapticEnvelopeShape``. `EventWaveformLoopEnabled` loops it for `EventDuration`.
/// - `AudioContinuous`: a generated tone for `EventDuration`: a sine at 440 Hz × 2^`AudioPitch`
///   with odd harmonics as `AudioBrightness` rises (0: a pure sine; 1: harmonics 3 and 5 at
///   1/3 and 1/5), its level `AudioVolume` shaped by the attack/decay/release envelope
///   continuous haptic events have, panned as above.
/// - `AudioBrightness` of an `AudioCustom` event tilts its tone (`BrightnessFilter`: 0.5,
///   the default, leaves it as recorded; 0 keeps what lies below about 1 kHz; 1 lifts
///   what lies above by 6 dB).
/// - The audio controls (`Parameter`s and `ParameterCurve`s) apply over the pattern's time as
///   the haptic ones do: `AudioVolumeControl` multiplies `AudioVolume`; `AudioPanControl`,
///   `AudioPitchControl` and `AudioBrightnessControl` are added to the event's value, then
///   clamped to its range (a pitch that moves changes the read rate and the tone's
///   frequency as they go). `AudioAttackTimeControl`, `AudioDecayTimeControl` and
///   `AudioReleaseTimeControl` are added to an event's `AttackTime`, `DecayTime` and
///   `ReleaseTime` at the event's start (then clamped to 0…1), as the `Haptic…TimeControl`
///   IDs are for haptic events: they move an `AudioContinuous` tone's envelope and the fades
///   of an `AudioCustom` event that uses the volume envelope.
///
/// Thread: pure; any thread except the render thread (allocates).
public enum HapticPatternAudio {
    /// Whether `pattern` has audio events.
    public static func hasAudio(_ pattern: HapticPattern) -> Bool {
        pattern.events.contains { $0.type == .audioCustom || $0.type == .audioContinuous }
    }

    /// Interleaved stereo samples of the pattern's audio events at `sampleRate` (empty when
    /// it has none). An `AudioCustom` event whose waveform is not in `waveforms` is silent.
    public static func synthesize(_ pattern: HapticPattern, waveforms: [String: HapticWaveform], sampleRate: Double,
                                  envelope: HapticEnvelopeShape = .default) -> [Float] {
        let controls = Controls(pattern)
        var length = 0
        for event in pattern.events {
            let start = Int((event.time * sampleRate).rounded())
            switch event.type {
            case .audioCustom:
                guard let path = event.waveformPath, let w = waveforms[path] else { continue }
                let natural = customFrames(event, waveform: w, sampleRate: sampleRate, controls: controls)
                length = max(length, start + (event.duration > 0 ? Int((event.duration * sampleRate).rounded()) : natural))
            case .audioContinuous:
                let release = envelope.seconds(controls.timeValue(.releaseTime, of: event))
                length = max(length, start + Int(((event.duration + release) * sampleRate).rounded()) + 1)
            default: continue
            }
        }
        guard length > 0 else { return [] }
        var out = [Float](repeating: 0, count: 2 * length)
        for event in pattern.events {
            let start = Int((event.time * sampleRate).rounded())
            let volume = event.value(.audioVolume)
            let (left, right) = balance(event.value(.audioPan))
            switch event.type {
            case .audioCustom:
                guard let path = event.waveformPath, let w = waveforms[path], w.frameCount > 0 else { continue }
                let step = rate(event)
                let loops = event.waveformLoopEnabled == true && event.duration > 0
                let natural = customFrames(event, waveform: w, sampleRate: sampleRate, controls: controls)
                let frames = event.duration > 0 ? Int((event.duration * sampleRate).rounded()) : natural
                let fade = event.duration > 0 ? Int(0.005 * sampleRate) : 0
                let useEnvelope = event.waveformUsesVolumeEnvelope == true
                let attack = useEnvelope ? envelope.seconds(controls.timeValue(.attackTime, of: event)) * sampleRate : 0
                let release = useEnvelope ? envelope.seconds(controls.timeValue(.releaseTime, of: event)) * sampleRate : 0
                var tone = BrightnessFilter(sampleRate: sampleRate)
                var position = 0.0
                for n in 0..<frames where start + n < length {
                    let t = event.time + Double(n) / sampleRate
                    var x: Double
                    if controls.pitch.isEmpty {
                        x = Double(n) * step
                    } else {
                        x = position
                        position += pow(2, min(max(event.value(.audioPitch) + controls.pitch.value(at: t), -1), 1))
                    }
                    if loops { x = x.truncatingRemainder(dividingBy: Double(w.frameCount)) }
                    let i = Int(x)
                    guard i < w.frameCount else { break }
                    let f = x - Double(i)
                    var level = volume
                    if !controls.volume.isEmpty { level *= min(max(controls.volume.value(at: t), 0), 1) }
                    if attack > 0 { level *= min(1, Double(n) / attack) }
                    if release > 0 { level *= min(1, Double(frames - n) / release) }
                    if fade > 0 && frames - n < fade { level *= Double(frames - n) / Double(fade) }
                    let gains = controls.pan.isEmpty ? (left, right)
                        : balance(event.value(.audioPan) + controls.pan.value(at: t))
                    let brightness = controls.brightness.isEmpty ? event.value(.audioBrightness)
                        : min(max(event.value(.audioBrightness) + controls.brightness.value(at: t), 0), 1)
                    for c in 0..<2 {
                        let ch = min(c, w.channelCount - 1)
                        let a = w.samples[i * w.channelCount + ch]
                        let b = i + 1 < w.frameCount ? w.samples[(i + 1) * w.channelCount + ch] : (loops ? w.samples[ch] : 0)
                        let v = tone.process(Double(a) + (Double(b) - Double(a)) * f, channel: c, brightness: brightness)
                        out[2 * (start + n) + c] += Float(v * level * (c == 0 ? gains.0 : gains.1))
                    }
                }
            case .audioContinuous:
                let knots = envelope.knots(
                    time: 0, duration: event.duration, intensity: volume, sustained: event.isSustained,
                    attack: envelope.seconds(controls.timeValue(.attackTime, of: event)),
                    decay: envelope.seconds(controls.timeValue(.decayTime, of: event)),
                    release: envelope.seconds(controls.timeValue(.releaseTime, of: event)))
                let curve = PiecewiseLinear(knots, outside: .zero)
                let frequency = 440 * pow(2, event.value(.audioPitch))
                let w = 2 * Double.pi * frequency / sampleRate
                var phase = 0.0
                for n in 0..<(length - start) {
                    let t = Double(n) / sampleRate, at = event.time + t
                    var p: Double
                    if controls.pitch.isEmpty {
                        p = w * Double(n)
                    } else {
                        p = phase
                        phase += 2 * Double.pi * 440 * pow(2, min(max(event.value(.audioPitch) + controls.pitch.value(at: at), -1), 1)) / sampleRate
                    }
                    var level = curve.value(at: t)
                    if !controls.volume.isEmpty { level *= min(max(controls.volume.value(at: at), 0), 1) }
                    guard level > 0 else { continue }
                    let brightness = controls.brightness.isEmpty ? event.value(.audioBrightness)
                        : min(max(event.value(.audioBrightness) + controls.brightness.value(at: at), 0), 1)
                    let (l, r) = controls.pan.isEmpty ? (left, right) : balance(event.value(.audioPan) + controls.pan.value(at: at))
                    let v = sin(p) + brightness * (sin(3 * p) / 3 + sin(5 * p) / 5)
                    let s = level * v / (1 + brightness * (1.0 / 3 + 1.0 / 5))
                    out[2 * (start + n)] += Float(s * l)
                    out[2 * (start + n) + 1] += Float(s * r)
                }
            default: continue
            }
        }
        return out
    }

    /// The pattern's audio controls (`AudioVolumeControl` a factor, `AudioPanControl`,
    /// `AudioPitchControl`, `AudioBrightnessControl` and the `Audio…TimeControl` IDs
    /// offsets), over the pattern's time.
    struct Controls {
        let volume: HapticControlTrack
        let pan: HapticControlTrack
        let pitch: HapticControlTrack
        let brightness: HapticControlTrack
        let attack: HapticControlTrack
        let decay: HapticControlTrack
        let release: HapticControlTrack
        init(_ pattern: HapticPattern) {
            volume = HapticControlTrack(.audioVolumeControl, pattern: pattern)
            pan = HapticControlTrack(.audioPanControl, pattern: pattern)
            pitch = HapticControlTrack(.audioPitchControl, pattern: pattern)
            brightness = HapticControlTrack(.audioBrightnessControl, pattern: pattern)
            attack = HapticControlTrack(.audioAttackTimeControl, pattern: pattern)
            decay = HapticControlTrack(.audioDecayTimeControl, pattern: pattern)
            release = HapticControlTrack(.audioReleaseTimeControl, pattern: pattern)
        }

        /// An event's `AttackTime`, `DecayTime` or `ReleaseTime` with its control's value at
        /// the event's start added (``HapticEnvelopeShape/seconds(_:)`` clamps it to 0…1).
        func timeValue(_ id: HapticEventParameterID, of event: HapticEvent) -> Double {
            let control: HapticControlTrack
            switch id {
            case .attackTime: control = attack
            case .decayTime: control = decay
            default: control = release
            }
            return event.value(id) + (control.isEmpty ? 0 : control.value(at: event.time))
        }
    }

    /// Frames an `AudioCustom` event plays its waveform for once (no `EventDuration`): the
    /// waveform's frames at the read rate, which `AudioPitchControl` may move along the way.
    static func customFrames(_ event: HapticEvent, waveform w: HapticWaveform, sampleRate: Double, controls: Controls) -> Int {
        guard !controls.pitch.isEmpty else { return Int((Double(w.frameCount) / rate(event)).rounded(.up)) }
        var x = 0.0, n = 0
        while x < Double(w.frameCount) && n < 2 * w.frameCount + 1 {
            x += pow(2, min(max(event.value(.audioPitch) + controls.pitch.value(at: event.time + Double(n) / sampleRate), -1), 1))
            n += 1
        }
        return n
    }

    /// `AudioBrightness` on a waveform: a first-order tilt around ``BrightnessFilter/corner``
    /// — the signal's lows (a one-pole low-pass) plus its highs (the rest) × 2·brightness, so
    /// 0.5 (the default) leaves the waveform as it is, 0 keeps only the lows and 1 lifts the
    /// highs by 6 dB.
    struct BrightnessFilter {
        static let corner = 1000.0
        let coefficient: Double
        var low = (0.0, 0.0)
        init(sampleRate: Double) { coefficient = 1 - exp(-2 * Double.pi * Self.corner / sampleRate) }

        mutating func process(_ x: Double, channel: Int, brightness: Double) -> Double {
            if channel == 0 { low.0 += coefficient * (x - low.0) } else { low.1 += coefficient * (x - low.1) }
            guard brightness != 0.5 else { return x }
            let l = channel == 0 ? low.0 : low.1
            return l + (x - l) * 2 * brightness
        }
    }

    /// The read rate of `AudioPitch`: 2^pitch (−1…1 is −1…+1 octave).
    static func rate(_ event: HapticEvent) -> Double { pow(2, event.value(.audioPitch)) }

    /// A balance pan: (left, right) gains, unity at the centre and on the near side.
    static func balance(_ pan: Double) -> (Double, Double) {
        let p = min(max(pan, -1), 1)
        return (min(1, 1 - p), min(1, 1 + p))
    }

    /// `haptics` (as ``HapticAudioRenderer`` made it) with the pattern's audio added: with
    /// the DualSense layout, the audio on channels 1–2 beside the haptics on 3–4; mono, the
    /// audio's mid (L+R)/2 added to the haptic preview. Where the audio (on 1–2) or the mono
    /// sum passes the ceiling, it is scaled by one gain so its peak is the ceiling; the
    /// haptics on 3–4 are never touched (mono: the gain is multiplied into
    /// `normalizationGain`).
    public static func mix(_ stereo: [Float], into haptics: HapticAudio, ceiling: Double) -> HapticAudio {
        guard !stereo.isEmpty else { return haptics }
        let channels = haptics.channelCount
        let frames = max(haptics.frameCount, stereo.count / 2)
        var samples = [Float](repeating: 0, count: frames * channels)
        samples.replaceSubrange(0..<haptics.samples.count, with: haptics.samples)
        for n in 0..<(stereo.count / 2) {
            if channels == 4 {
                samples[4 * n] += stereo[2 * n]
                samples[4 * n + 1] += stereo[2 * n + 1]
            } else {
                samples[n] += (stereo[2 * n] + stereo[2 * n + 1]) / 2
            }
        }
        var result = haptics
        let audible = channels == 4 ? samples.indices.filter { $0 % 4 < 2 } : Array(samples.indices)
        let peak = Double(audible.lazy.map { abs(samples[$0]) }.max() ?? 0)
        if peak > ceiling {
            let gain = ceiling / peak
            for i in audible { samples[i] = Float(Double(samples[i]) * gain) }
            if channels != 4 { result.normalizationGain *= gain }
        }
        result.samples = samples
        return result
    }
}
