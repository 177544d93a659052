import CabinJSON
import CabinAudio

/// The picture: the timeline data of `SessionPlot.swift` drawn as SVG text, lane by lane.
extension SessionPlot {
    /// Layout, pixels.
    static let left = 150.0, right = 20.0, top = 52.0, axis = 30.0
    static let layerHeight = 26.0, cueHeight = 40.0, valueHeight = 54.0, duckHeight = 18.0, hapticHeight = 26.0,
               loudnessHeight = 80.0, gap = 6.0

    /// Where the timeline is drawn: time t (clamped to 0…`duration`) is at
    /// x = `x` + t / `duration` × `width` (pixels of the picture, which is the plot's `width` across),
    /// the mapping of every item `svg()` draws; a page that draws a playhead over the picture
    /// maps the same way.
    public var timeline: (x: Double, width: Double, duration: Double) {
        (Self.left, Double(width) - Self.left - Self.right, max(document.duration, 1e-3))
    }

    /// The SVG document.
    public func svg() -> String {
        let (_, plotWidth, duration) = timeline
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
        text.xmlEscaped
    }
}
