import Glibc

/// The device view's pictures and sound: `haptics show|plot|render --as …`.
extension HapticDeviceView {
    /// A terminal preview: a sparkline per track (each column the largest level in its
    /// slice), the marks beneath (`•` a rumble transient pulse; a composition's primitives
    /// by letter: C click, T tick, H thud, L low tick, R quick rise, S slow rise, F quick
    /// fall, P spin), and the time axis; at most `width` columns, labels included.
    public func terminal(width: Int = 80) -> String {
        let label = 10
        let columns = max(8, width - label)
        guard milliseconds > 0 else { return "(nothing for the \(device.name) device to play)" }
        func column(_ ms: Int) -> Int { min(columns - 1, ms * columns / milliseconds) }
        var lines: [String] = []
        for track in tracks {
            var peak = [Double](repeating: 0, count: columns)
            for (ms, v) in track.level.enumerated() { peak[column(ms)] = max(peak[column(ms)], Double(v)) }
            lines.append(Self.padded(track.name, label) + HapticPreview.bars(peak.map { $0 > 0 ? $0 : nil }))
        }
        if !marks.isEmpty {
            var row = [Character](repeating: " ", count: columns)
            for mark in marks where mark.millisecond < milliseconds { row[column(mark.millisecond)] = mark.symbol }
            lines.append(Self.padded(device == .androidComposition ? "primitive" : "pulse", label) + String(row))
        }
        let end = "\(HapticPreview.fmt(Double(milliseconds) / 1000)) s"
        lines.append(String(repeating: " ", count: label) + "0 s" + String(repeating: " ", count: max(1, columns - 3 - end.count)) + end)
        return lines.map(HapticPreview.trimmed).joined(separator: "\n")
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width - 1)) + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// An SVG plot: each track a stepped line (rumble's strong motor blue, weak orange;
    /// Android's amplitude and primitives blue), the marks as ticks under the axis, a legend.
    public func svg(width: Int = 800, height: Int = 280, title: String? = nil) -> String {
        let frame = HapticPreview.SVGFrame(width: width, height: height, hasTitle: title != nil, span: Double(milliseconds) / 1000)
        var svg = frame.axes(endLabel: "\(HapticPreview.fmt(Double(milliseconds) / 1000)) s")
        let colours = ["#1f77b4", "#ff7f0e", "#2ca02c"]
        for (index, track) in tracks.enumerated() {
            var points: [String] = []
            var last: Float = -1
            for (ms, v) in track.level.enumerated() where v != last {
                if ms > 0 { points.append("\(frame.x(Double(ms) / 1000)),\(frame.y(Double(last)))") }
                points.append("\(frame.x(Double(ms) / 1000)),\(frame.y(Double(v)))")
                last = v
            }
            points.append("\(frame.x(Double(milliseconds) / 1000)),\(frame.y(Double(max(last, 0))))")
            svg += "<polyline class=\"\(track.name)\" fill=\"none\" stroke=\"\(colours[index % colours.count])\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
        }
        for mark in marks {
            let x = frame.x(Double(mark.millisecond) / 1000)
            svg += "<line class=\"mark\" x1=\"\(x)\" y1=\"\(frame.baseline)\" x2=\"\(x)\" y2=\"\(frame.y(-0.04))\" stroke=\"#d62728\" stroke-width=\"1.5\"/>\n"
        }
        if let title { svg += frame.title(title) }
        var lx = Double(width) - HapticPreview.SVGFrame.right - 95 * Double(tracks.count), ly = frame.top - 17
        for (index, track) in tracks.enumerated() {
            svg += "<line x1=\"\(HapticPreview.fmt(lx))\" y1=\"\(HapticPreview.fmt(ly))\" x2=\"\(HapticPreview.fmt(lx + 20))\" y2=\"\(HapticPreview.fmt(ly))\" stroke=\"\(colours[index % colours.count])\" stroke-width=\"1.5\"/><text x=\"\(HapticPreview.fmt(lx + 24))\" y=\"\(HapticPreview.fmt(ly + 4))\" \(HapticPreview.SVGFrame.font)>\(track.name)</text>\n"
            lx += 95
        }
        return svg + "</svg>\n"
    }

    /// The view as sound, mono at `sampleRate`: each track a phase-continuous sine at
    /// `low × (high / low)^pitch` (rumble: the strong motor at the low end, the weak one at
    /// the high end; Android one frequency), its amplitude the level, linear between the
    /// milliseconds; the tracks added, and scaled down only if the sum would pass
    /// `peakCeiling` (−1 dBFS by default).
    public func audio(sampleRate: Double, frequencyRange: ClosedRange<Double>, peakCeiling: Double = 0.891_250_938) -> [Float] {
        let frames = Int((Double(milliseconds) / 1000 * sampleRate).rounded())
        var mix = [Double](repeating: 0, count: frames)
        let ratio = frequencyRange.upperBound / frequencyRange.lowerBound
        for track in tracks where !track.level.isEmpty {
            var phase = 0.0
            for i in 0..<frames {
                let position = Double(i) / sampleRate * 1000
                let k = min(track.level.count - 1, Int(position))
                let next = min(track.level.count - 1, k + 1)
                let f = position - Double(k)
                let level = Double(track.level[k]) * (1 - f) + Double(track.level[next]) * f
                phase += 2 * Double.pi * frequencyRange.lowerBound * pow(ratio, Double(track.pitch[k])) / sampleRate
                if phase > 2 * Double.pi { phase -= 2 * Double.pi }
                mix[i] += level * sin(phase)
            }
        }
        let peak = mix.reduce(0) { max($0, abs($1)) }
        let gain = peak > peakCeiling ? peakCeiling / peak : 1
        return mix.map { Float($0 * gain) }
    }
}
