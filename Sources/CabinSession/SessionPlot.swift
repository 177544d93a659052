import CabinAudio
import CabinJSON

/// A picture of a session (`cabin session plot`): one lane per layer with its level over
/// time (fades in and out, `fade` ramps, crossfades marked with the sound they go to), the
/// one-shot and spoken cues, the ducking each rule applies, each parameter and bus effect
/// over time (the drive's speed profile), each haptic layer's intensity, the haptic cues,
/// and the loudness over time of a render; marks as dashed lines across every lane. Written by hand as SVG text.
///
/// Every drawn item carries its class and its time on the timeline (`data-time`, seconds),
/// and the plotting area is the `rect` of class `timeline`: an item at time t is drawn at
/// x = timeline.x + t / duration × timeline.width.
///
/// Thread: pure; any thread except the render thread.
public struct SessionPlot: Sendable {
    /// The session drawn.
    public var document: SessionDocument
    /// Seconds of each one-shot and spoken sound by its reference (`ResolvedSounds.sounds`'
    /// keys: library names, file paths, `Cue.Speech.soundKey`); a cue without one is drawn
    /// as a tick.
    public var soundLengths: [String: Double]
    /// Short-term loudness (LUFS; nil: silence) at times on the timeline, from a render.
    public var loudness: [(time: Double, lufs: Double?)]
    /// Pixels across.
    public var width: Int

    /// A plot of `document`, `width` pixels across (not checked here: `widthRange` is what a
    /// caller should accept), with the sound lengths and render loudness it knows.
    public init(document: SessionDocument, soundLengths: [String: Double] = [:],
                loudness: [(time: Double, lufs: Double?)] = [], width: Int = 1200) {
        self.document = document
        self.soundLengths = soundLengths
        self.loudness = loudness
        self.width = width
    }

    /// Widths a plot may have, in pixels.
    public static let widthRange = 400...20_000
    /// The level lanes show, in dB relative to the layer's gain (and the floor of a layer that is off).
    public static let levelFloor = -40.0
    /// The loudness lane's scale, LUFS.
    public static let loudnessScale = -60.0 ... -10.0

    // MARK: the timeline as data

    /// A layer's level over time, dB relative to its gain (`levelFloor` while off), as
    /// linear segments between points; crossfades as spans with the sound they go to.
    public struct LayerTrack: Sendable {
        /// The layer's name.
        public var layer: String
        /// The bus it plays on.
        public var bus: String
        /// The level's knots, (seconds, dB relative to the layer's gain), in time order.
        public var points: [(time: Double, level: Double)]
        /// Its crossfades: start (seconds), length (seconds) and the sound it goes to.
        public var crossfades: [(time: Double, over: Double, to: String)]
        /// Its `fade` cues: start (seconds), length (seconds) and the level it goes to (dB).
        public var fades: [(time: Double, over: Double, to: Double)]
    }

    /// Every layer's level, from the cues that start, stop, fade and crossfade it.
    public var layerTracks: [LayerTrack] {
        document.layers.map { layer in
            var track = LayerTrack(layer: layer.name, bus: layer.bus, points: [(0, Self.levelFloor)], crossfades: [], fades: [])
            func move(at t: Double, over: Double, to level: Double) {
                let now = Self.value(of: track.points, at: t)
                track.points.removeAll { $0.time > t }
                track.points.append((t, now))
                track.points.append((t + max(0, over), level))
            }
            for cue in document.cues {
                if cue.start.contains(layer.name) { move(at: cue.time, over: cue.fadeIn ?? 0, to: 0) }
                if cue.stop.contains(layer.name) { move(at: cue.time, over: cue.fadeOut ?? 0, to: Self.levelFloor) }
                if let fade = cue.fade, fade.layer == layer.name {
                    move(at: cue.time, over: fade.over, to: max(Self.levelFloor, fade.to))
                    track.fades.append((cue.time, fade.over, fade.to))
                }
                if let x = cue.crossfade, x.layer == layer.name { track.crossfades.append((cue.time, x.over, x.to.description)) }
            }
            track.points.append((max(document.duration, track.points.last!.time), track.points.last!.level))
            return track
        }
    }

    /// A haptic layer's intensity over time (0…1): its start/stop fades times its
    /// `intensity` map at the parameter's value (the timeline's), sampled along the timeline
    /// and at every change; crossfades as spans with the pattern they go to.
    public struct HapticLayerTrack: Sendable {
        /// The haptic layer's name.
        public var layer: String
        /// The pattern it starts with.
        public var pattern: String
        /// The intensity's samples, (seconds, 0…1), in time order.
        public var points: [(time: Double, intensity: Double)]
        /// Its crossfades: start (seconds), length (seconds) and the pattern it goes to.
        public var crossfades: [(time: Double, over: Double, to: String)]
    }

    /// Every haptic layer's intensity, from its cues and its map's parameter.
    public var hapticLayerTracks: [HapticLayerTrack] {
        let values = valueTracks
        return document.hapticLayers.map { layer in
            var envelope: [(time: Double, value: Double)] = [(0, 0)]
            var crossfades: [(time: Double, over: Double, to: String)] = []
            func move(at t: Double, over: Double, to level: Double) {
                let now = Self.value(ofValues: envelope, at: t)
                envelope.removeAll { $0.time > t }
                envelope.append((t, now))
                envelope.append((t + max(0, over), level))
            }
            for cue in document.cues {
                if cue.start.contains(layer.name) { move(at: cue.time, over: cue.fadeIn ?? 0, to: 1) }
                if cue.stop.contains(layer.name) { move(at: cue.time, over: cue.fadeOut ?? 0, to: 0) }
                if let x = cue.hapticCrossfade, x.layer == layer.name { crossfades.append((cue.time, x.over, x.to)) }
            }
            let parameter = layer.intensity.flatMap { map in values.first { $0.name == map.parameter } }
            let end = max(document.duration, envelope.last!.time)
            var times = Set(envelope.map(\.time)).union(parameter?.points.map(\.time) ?? [])
            for k in 0...200 { times.insert(end * Double(k) / 200) }
            let points = times.filter { $0 >= 0 && $0 <= end }.sorted().map { t -> (time: Double, intensity: Double) in
                let factor = layer.intensity.map { map in
                    min(max(map.value(at: parameter.map { Self.value(ofValues: $0.points, at: t) } ?? 0), 0), 1)
                } ?? 1
                return (t, Self.value(ofValues: envelope, at: t) * factor)
            }
            return HapticLayerTrack(layer: layer.name, pattern: layer.pattern, points: points, crossfades: crossfades)
        }
    }

    /// A value that cues move over time (a parameter, or a bus effect such as a low-pass).
    public struct ValueTrack: Sendable {
        /// The parameter's name, or the bus and effect (`ambient lowpass`, with the
        /// parameter's name when it is not the effect's main one).
        public var name: String
        /// The values the lane spans: the parameter's `min`…`max`, or the effect's values
        /// with a margin.
        public var range: ClosedRange<Double>
        /// The value's knots, (seconds, value in its own unit), linear between them.
        public var points: [(time: Double, value: Double)]
    }

    /// Each parameter's value over time, then each bus effect that a cue moves.
    public var valueTracks: [ValueTrack] {
        var tracks: [ValueTrack] = []
        for parameter in document.parameters {
            let changes = document.cues.compactMap { cue in
                cue.set.flatMap { $0.parameter == parameter.name ? (cue.time, $0.over, $0.to) : nil }
            }
            tracks.append(ValueTrack(name: parameter.name, range: parameter.min...max(parameter.max, parameter.min + 1e-9),
                                     points: ramps(from: parameter.value, changes)))
        }
        for bus in document.buses {
            for effect in bus.effects {
                guard let declared = DocumentEffect.named(effect.key) else { continue }
                for (index, parameter) in declared.parameters.enumerated() where index < effect.values.count {
                    let changes = document.cues.compactMap { cue in
                        cue.effect.flatMap { $0.bus == bus.name && $0.effect == effect.key && $0.parameter == parameter.name
                            ? (cue.time, $0.over, $0.to) : nil }
                    }
                    guard !changes.isEmpty else { continue }
                    let points = ramps(from: effect.values[index], changes)
                    let values = points.map(\.value)
                    let low = min(values.min()!, 0), high = max(values.max()!, 0)
                    let pad = max((high - low) * 0.05, 1e-9)
                    let name = index == declared.main ? "\(bus.name) \(effect.key)" : "\(bus.name) \(effect.key) \(parameter.name)"
                    tracks.append(ValueTrack(name: name, range: (low < 0 ? low - pad : 0)...(high + pad), points: points))
                }
            }
        }
        return tracks
    }

    private func ramps(from start: Double, _ changes: [(Double, Double, Double)]) -> [(time: Double, value: Double)] {
        var points: [(time: Double, value: Double)] = [(0, start)]
        for (t, over, to) in changes {
            let now = Self.value(ofValues: points, at: t)
            points.removeAll { $0.time > t }
            points.append((t, now))
            points.append((t + max(0, over), to))
        }
        points.append((max(document.duration, points.last!.time), points.last!.value))
        return points
    }

    /// A one-shot or spoken cue: when, on which bus, how long it sounds (nil: unknown), and what.
    public struct SoundCue: Sendable {
        /// The cue's time, seconds.
        public var time: Double
        /// The bus it plays on.
        public var bus: String
        /// Seconds it sounds (from `soundLengths`; nil: unknown, drawn as a tick).
        public var length: Double?
        /// What it plays: the sound's reference, or the spoken text in quotes.
        public var label: String
        /// Whether it is a `say` cue (else a `play`).
        public var isSpeech: Bool
    }

    /// Every `play` and `say` cue, in the document's cue order.
    public var soundCues: [SoundCue] {
        document.cues.flatMap { cue -> [SoundCue] in
            var cues: [SoundCue] = []
            if let play = cue.play {
                cues.append(SoundCue(time: cue.time, bus: play.bus, length: soundLengths[play.sound.description],
                                     label: play.sound.description, isSpeech: false))
            }
            if let say = cue.say {
                let length = soundLengths[say.soundKey] ?? say.fallback.flatMap { soundLengths[$0.description] }
                cues.append(SoundCue(time: cue.time, bus: say.bus, length: length, label: "“\(say.text)”", isSpeech: true))
            }
            return cues
        }
    }

    /// When each ducking rule holds its buses down: while a one-shot or a layer sounds on
    /// its `when` bus (plus its release), merged into spans.
    public var duckSpans: [(rule: Ducking, spans: [(start: Double, end: Double)])] {
        let tracks = layerTracks
        return document.ducking.map { rule in
            var spans: [(start: Double, end: Double)] = soundCues.filter { $0.bus == rule.when }.map {
                ($0.time, $0.time + ($0.length ?? 0) + rule.release)
            }
            for track in tracks where track.bus == rule.when {
                var on: Double?
                for p in track.points {
                    if p.level > Self.levelFloor, on == nil { on = p.time }
                    if p.level <= Self.levelFloor, let start = on { spans.append((start, p.time + rule.release)); on = nil }
                }
                if let start = on { spans.append((start, document.duration)) }
            }
            spans.sort { $0.start < $1.start }
            var merged: [(start: Double, end: Double)] = []
            for s in spans {
                if let last = merged.last, s.start <= last.end { merged[merged.count - 1].end = max(last.end, s.end) } else { merged.append(s) }
            }
            return (rule, merged.map { ($0.start, min($0.end, document.duration)) })
        }
    }

    /// The haptic cues: when, and which pattern.
    public var hapticCues: [(time: Double, pattern: String)] {
        document.cues.compactMap { cue in cue.haptic.map { (cue.time, $0) } }
    }

    /// The piecewise-linear value of `points` at `t` (held after the last point).
    static func value(of points: [(time: Double, level: Double)], at t: Double) -> Double {
        guard var previous = points.first else { return 0 }
        for p in points.dropFirst() {
            if p.time > t {
                return p.time == previous.time ? p.level : previous.level + (p.level - previous.level) * (t - previous.time) / (p.time - previous.time)
            }
            previous = p
        }
        return previous.level
    }

    static func value(ofValues points: [(time: Double, value: Double)], at t: Double) -> Double {
        value(of: points.map { (time: $0.time, level: $0.value) }, at: t)
    }
}
