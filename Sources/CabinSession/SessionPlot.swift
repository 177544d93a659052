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
    public var document: SessionDocument
    /// Seconds of each one-shot and spoken sound by its reference (`ResolvedSounds.sounds`'
    /// keys: library names, file paths, `Cue.Speech.soundKey`); a cue without one is drawn
    /// as a tick.
    public var soundLengths: [String: Double]
    /// Short-term loudness (LUFS; nil: silence) at times on the timeline, from a render.
    public var loudness: [(time: Double, lufs: Double?)]
    /// Pixels across.
    public var width: Int

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
        public var layer: String
        public var bus: String
        public var points: [(time: Double, level: Double)]
        public var crossfades: [(time: Double, over: Double, to: String)]
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
        public var layer: String
        public var pattern: String
        public var points: [(time: Double, intensity: Double)]
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
        public var name: String
        public var range: ClosedRange<Double>
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
                let changes = document.cues.compactMap { cue in
                    cue.effect.flatMap { $0.bus == bus.name && $0.effect == effect.key ? (cue.time, $0.over, $0.to) : nil }
                }
                guard !changes.isEmpty else { continue }
                let points = ramps(from: effect.value, changes)
                let values = points.map(\.value)
                tracks.append(ValueTrack(name: "\(bus.name) \(effect.key)", range: 0...max(values.max()! * 1.05, 1e-9), points: points))
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
        public var time: Double
        public var bus: String
        public var length: Double?
        public var label: String
        public var isSpeech: Bool
    }

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

    // MARK: the picture

    /// Layout, pixels.
    static let left = 150.0, right = 20.0, top = 52.0, axis = 30.0
    static let layerHeight = 26.0, cueHeight = 40.0, valueHeight = 54.0, duckHeight = 18.0, hapticHeight = 26.0,
               loudnessHeight = 80.0, gap = 6.0

    /// The SVG document.
    public func svg() -> String {
        let duration = max(document.duration, 1e-3)
        let plotWidth = Double(width) - Self.left - Self.right
        func x(_ t: Double) -> Double { Self.left + min(max(t, 0), duration) / duration * plotWidth }
        var body = ""
        var y = Self.top
        let font = "font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\""
        /// A crossfade on the lane at `y`: an X from its start to its end, and what it goes to.
        func crossfadeMark(layer: String, time: Double, over: Double, to: String, height h: Double) {
            let x0 = x(time), x1 = max(x(time + over), x0 + 2)
            body += "<g class=\"crossfade\" data-layer=\"\(esc(layer))\" data-time=\"\(f3(time))\"><title>crossfade to \(esc(to)) over \(f3(over)) s</title>"
            body += "<line x1=\"\(f(x0))\" y1=\"\(f(y + 2))\" x2=\"\(f(x1))\" y2=\"\(f(y + h - 2))\" stroke=\"#e45756\" stroke-width=\"1.5\"/>"
            body += "<line x1=\"\(f(x0))\" y1=\"\(f(y + h - 2))\" x2=\"\(f(x1))\" y2=\"\(f(y + 2))\" stroke=\"#e45756\" stroke-width=\"1.5\"/>"
            body += "<text x=\"\(f(x1 + 3))\" y=\"\(f(y + 10))\" font-family=\"sans-serif\" font-size=\"9\" fill=\"#b03a39\">\(esc(to))</text></g>\n"
        }
        func laneLabel(_ text: String, _ lane: String, height: Double, detail: String? = nil) {
            body += "<g class=\"lane\" data-lane=\"\(esc(lane))\"><rect x=\"\(f(Self.left))\" y=\"\(f(y))\" width=\"\(f(plotWidth))\" height=\"\(f(height))\" fill=\"#f7f7f7\"/>"
            body += "<text x=\"\(f(Self.left - 6))\" y=\"\(f(y + min(height, 26) / 2 + 4))\" \(font) text-anchor=\"end\">\(esc(text))</text>"
            if let detail {
                body += "<text x=\"\(f(Self.left - 6))\" y=\"\(f(y + min(height, 26) / 2 + 16))\" font-family=\"sans-serif\" font-size=\"9\" fill=\"#777\" text-anchor=\"end\">\(esc(detail))</text>"
            }
            body += "</g>\n"
        }

        // Layers: the level as a filled envelope.
        for track in layerTracks {
            let h = Self.layerHeight
            laneLabel(track.layer, "layer:\(track.layer)", height: h, detail: track.bus)
            func ly(_ level: Double) -> Double { y + h - 2 - (min(0, max(Self.levelFloor, level)) - Self.levelFloor) / -Self.levelFloor * (h - 4) }
            let line = track.points.map { "\(f(x($0.time))),\(f(ly($0.level)))" }.joined(separator: " ")
            let area = "\(f(x(0))),\(f(y + h - 2)) \(line) \(f(x(duration))),\(f(y + h - 2))"
            body += "<polygon class=\"envelope\" data-layer=\"\(esc(track.layer))\" fill=\"#4c78a8\" fill-opacity=\"0.35\" stroke=\"#4c78a8\" stroke-width=\"1\" points=\"\(area)\"/>\n"
            for fade in track.fades {
                body += "<line class=\"fade\" data-layer=\"\(esc(track.layer))\" data-time=\"\(f3(fade.time))\" x1=\"\(f(x(fade.time)))\" y1=\"\(f(y + 1))\" x2=\"\(f(x(fade.time)))\" y2=\"\(f(y + h - 1))\" stroke=\"#4c78a8\" stroke-width=\"1\"><title>fade to \(f3(fade.to)) dB over \(f3(fade.over)) s</title></line>\n"
            }
            for xf in track.crossfades { crossfadeMark(layer: track.layer, time: xf.time, over: xf.over, to: xf.to, height: h) }
            y += h + Self.gap
        }

        // Haptic layers: the intensity (0…1) as a filled envelope.
        for track in hapticLayerTracks {
            let h = Self.layerHeight
            laneLabel(track.layer, "haptic-layer:\(track.layer)", height: h, detail: "haptic \(track.pattern)")
            func iy(_ v: Double) -> Double { y + h - 2 - min(max(v, 0), 1) * (h - 4) }
            let line = track.points.map { "\(f(x($0.time))),\(f(iy($0.intensity)))" }.joined(separator: " ")
            let area = "\(f(x(0))),\(f(y + h - 2)) \(line) \(f(x(duration))),\(f(y + h - 2))"
            body += "<polygon class=\"haptic-envelope\" data-layer=\"\(esc(track.layer))\" fill=\"#9d755d\" fill-opacity=\"0.35\" stroke=\"#9d755d\" stroke-width=\"1\" points=\"\(area)\"/>\n"
            for xf in track.crossfades { crossfadeMark(layer: track.layer, time: xf.time, over: xf.over, to: xf.to, height: h) }
            y += h + Self.gap
        }

        // One-shots and speech: a tick and a bar as long as the sound.
        let cues = soundCues
        if !cues.isEmpty {
            let h = Self.cueHeight
            laneLabel("cues", "cues", height: h, detail: "one-shots, speech")
            for (i, cue) in cues.enumerated() {
                let x0 = x(cue.time), row = Double(i % 3)
                let color = cue.isSpeech ? "#54a24b" : "#f58518"
                body += "<g class=\"cue\" data-time=\"\(f3(cue.time))\" data-bus=\"\(esc(cue.bus))\"><title>\(esc(SessionTime.format(cue.time))) \(esc(cue.bus)): \(esc(cue.label))</title>"
                body += "<line x1=\"\(f(x0))\" y1=\"\(f(y + 2))\" x2=\"\(f(x0))\" y2=\"\(f(y + h - 2))\" stroke=\"\(color)\" stroke-width=\"1.5\"/>"
                if let length = cue.length, length > 0 {
                    body += "<rect x=\"\(f(x0))\" y=\"\(f(y + 4 + row * 11))\" width=\"\(f(max(1, x(cue.time + length) - x0)))\" height=\"8\" fill=\"\(color)\" fill-opacity=\"0.5\"/>"
                }
                body += "</g>\n"
            }
            y += h + Self.gap
        }

        // Ducking: where each rule holds its buses down.
        for (rule, spans) in duckSpans {
            let h = Self.duckHeight
            laneLabel("ducking", "duck:\(rule.when)", height: h,
                      detail: nil)
            body += "<text x=\"\(f(Self.left + 4))\" y=\"\(f(y + h - 5))\" font-family=\"sans-serif\" font-size=\"9\" fill=\"#777\">\(esc("\(rule.duck.joined(separator: ", ")) \(f3(rule.by)) dB under \(rule.when)"))</text>\n"
            for span in spans {
                body += "<rect class=\"duck\" data-time=\"\(f3(span.start))\" data-end=\"\(f3(span.end))\" x=\"\(f(x(span.start)))\" y=\"\(f(y + 2))\" width=\"\(f(max(1, x(span.end) - x(span.start))))\" height=\"\(f(h - 4))\" fill=\"#72b7b2\" fill-opacity=\"0.6\"/>\n"
            }
            y += h + Self.gap
        }

        // Parameters and bus effects: value over time on the track's range.
        for track in valueTracks {
            let h = Self.valueHeight
            let lo = track.range.lowerBound, hi = track.range.upperBound
            laneLabel(track.name, "value:\(track.name)", height: h, detail: "\(f3(lo))–\(f3(hi))")
            func vy(_ v: Double) -> Double { y + h - 3 - (min(hi, max(lo, v)) - lo) / (hi - lo) * (h - 6) }
            let points = track.points.map { "\(f(x($0.time))),\(f(vy($0.value)))" }.joined(separator: " ")
            body += "<polyline class=\"value\" data-name=\"\(esc(track.name))\" fill=\"none\" stroke=\"#b279a2\" stroke-width=\"1.5\" points=\"\(points)\"/>\n"
            y += h + Self.gap
        }

        // Haptic cues.
        let haptics = hapticCues
        if !haptics.isEmpty {
            let h = Self.hapticHeight
            laneLabel("haptics", "haptics", height: h)
            for cue in haptics {
                body += "<line class=\"haptic\" data-time=\"\(f3(cue.time))\" data-pattern=\"\(esc(cue.pattern))\" x1=\"\(f(x(cue.time)))\" y1=\"\(f(y + 3))\" x2=\"\(f(x(cue.time)))\" y2=\"\(f(y + h - 3))\" stroke=\"#9d755d\" stroke-width=\"2\"><title>\(esc(SessionTime.format(cue.time))) \(esc(cue.pattern))</title></line>\n"
            }
            y += h + Self.gap
        }

        // Loudness over time.
        if !loudness.isEmpty {
            let h = Self.loudnessHeight
            let lo = Self.loudnessScale.lowerBound, hi = Self.loudnessScale.upperBound
            laneLabel("loudness", "loudness", height: h, detail: "short-term LUFS")
            func ly(_ v: Double?) -> Double { y + h - 3 - (min(hi, max(lo, v ?? lo)) - lo) / (hi - lo) * (h - 6) }
            for level in stride(from: -50.0, through: -20, by: 10) {
                body += "<line x1=\"\(f(Self.left))\" y1=\"\(f(ly(level)))\" x2=\"\(f(Self.left + plotWidth))\" y2=\"\(f(ly(level)))\" stroke=\"#e2e2e2\"/><text x=\"\(f(Self.left + plotWidth - 2))\" text-anchor=\"end\" y=\"\(f(ly(level) - 2))\" font-family=\"sans-serif\" font-size=\"8\" fill=\"#999\">\(Int(level))</text>\n"
            }
            if let target = document.loudness {
                body += "<line class=\"loudness-target\" x1=\"\(f(Self.left))\" y1=\"\(f(ly(target)))\" x2=\"\(f(Self.left + plotWidth))\" y2=\"\(f(ly(target)))\" stroke=\"#e45756\" stroke-dasharray=\"4 3\"><title>target \(f3(target)) LUFS integrated</title></line>\n"
            }
            let points = loudness.map { "\(f(x($0.time))),\(f(ly($0.lufs)))" }.joined(separator: " ")
            body += "<polyline class=\"loudness\" fill=\"none\" stroke=\"#4c78a8\" stroke-width=\"1.2\" points=\"\(points)\"/>\n"
            y += h + Self.gap
        }

        // Marks across every lane, with their titles (else their names) above them.
        let bottom = y - Self.gap
        for (i, mark) in document.marks.enumerated() {
            let mx = x(mark.time)
            body += "<g class=\"mark\" data-time=\"\(f3(mark.time))\" data-name=\"\(esc(mark.name))\"><line x1=\"\(f(mx))\" y1=\"\(f(Self.top - 14 + Double(i % 2) * 10))\" x2=\"\(f(mx))\" y2=\"\(f(bottom))\" stroke=\"#555\" stroke-dasharray=\"3 3\"/>"
            body += "<text x=\"\(f(mx + 2))\" y=\"\(f(Self.top - 16 + Double(i % 2) * 10))\" \(font)>\(esc(mark.title ?? mark.name))</text></g>\n"
        }

        // The time axis.
        let step = Self.timeStep(duration, maxTicks: max(2, Int(plotWidth / 80)))
        var axisMarks = ""
        var tick = 0.0
        while tick <= duration + step * 1e-6 {
            axisMarks += "<line x1=\"\(f(x(tick)))\" y1=\"\(f(bottom))\" x2=\"\(f(x(tick)))\" y2=\"\(f(bottom + 4))\" stroke=\"#444\"/>"
            axisMarks += "<text x=\"\(f(x(tick)))\" y=\"\(f(bottom + 16))\" \(font) text-anchor=\"middle\">\(esc(SessionTime.format(tick)))</text>\n"
            tick += step
        }
        let height = Int((bottom + Self.axis).rounded(.up))
        let title = "\(document.title ?? "Session") · \(SessionTime.format(document.duration)), \(document.layers.count) layer\(document.layers.count == 1 ? "" : "s"), \(document.cues.count) cue\(document.cues.count == 1 ? "" : "s")"
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" data-duration="\(f3(document.duration))">
        <rect width="\(width)" height="\(height)" fill="white"/>
        <text x="10" y="18" font-family="sans-serif" font-size="13" font-weight="bold" fill="#222">\(esc(title))</text>
        <rect class="timeline" x="\(f(Self.left))" y="\(f(Self.top))" width="\(f(plotWidth))" height="\(f(max(0, bottom - Self.top)))" fill="none"/>

        """ + body + "<line x1=\"\(f(Self.left))\" y1=\"\(f(bottom))\" x2=\"\(f(Self.left + plotWidth))\" y2=\"\(f(bottom))\" stroke=\"#444\"/>\n"
            + axisMarks + "</svg>\n"
    }

    /// A round step for time ticks: seconds, minutes and hours as clocks count them (1, 2, 5,
    /// 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2 … h) giving at most `maxTicks` ticks.
    static func timeStep(_ span: Double, maxTicks: Int) -> Double {
        let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600]
        return steps.first { span / $0 <= Double(maxTicks) } ?? 43200
    }

    private func f(_ v: Double) -> String { NumberText.decimals(v, 2) }
    private func f3(_ v: Double) -> String { NumberText.decimals(v, 3) }
    private func esc(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
