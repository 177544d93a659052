/// Pictures of a compiled pattern: an SVG plot and a terminal sparkline.
///
/// Thread: pure; any thread except the render thread.
public enum HapticPreview {
    /// An SVG plot: intensity (solid blue) and sharpness (dashed orange) of the continuous
    /// track over 0…endTime, transients as red stems at their intensity, a time axis.
    public static func svg(_ compiled: CompiledHaptics, width: Int = 800, height: Int = 240) -> String {
        let left = 40.0, right = 10.0, top = 10.0, bottom = 30.0
        let plotWidth = Double(width) - left - right
        let plotHeight = Double(height) - top - bottom
        let span = max(compiled.endTime, 1e-9)
        func x(_ t: Double) -> String { fmt(left + t / span * plotWidth) }
        func y(_ v: Double) -> String { fmt(top + (1 - v) * plotHeight) }
        let baseline = y(0)
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
        <rect width="\(width)" height="\(height)" fill="white"/>
        <line x1="\(x(0))" y1="\(baseline)" x2="\(x(span))" y2="\(baseline)" stroke="#444"/>
        <line x1="\(x(0))" y1="\(y(0))" x2="\(x(0))" y2="\(y(1))" stroke="#444"/>
        <text x="\(x(0))" y="\(fmt(Double(height) - 8))" font-size="11" font-family="sans-serif">0 s</text>
        <text x="\(x(span))" y="\(fmt(Double(height) - 8))" font-size="11" font-family="sans-serif" text-anchor="end">\(fmt(compiled.endTime)) s</text>
        <text x="4" y="\(y(1))" font-size="11" font-family="sans-serif" dominant-baseline="hanging">1</text>

        """
        if !compiled.breakpoints.isEmpty {
            let intensity = compiled.breakpoints.map { "\(x($0.time)),\(y($0.intensity))" }.joined(separator: " ")
            let sharpness = compiled.breakpoints.map { "\(x($0.time)),\(y($0.sharpness))" }.joined(separator: " ")
            svg += "<polyline class=\"sharpness\" fill=\"none\" stroke=\"#ff7f0e\" stroke-dasharray=\"4 3\" points=\"\(sharpness)\"/>\n"
            svg += "<polyline class=\"intensity\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"\(intensity)\"/>\n"
        }
        for t in compiled.transients {
            svg += "<line class=\"transient\" x1=\"\(x(t.time))\" y1=\"\(baseline)\" x2=\"\(x(t.time))\" y2=\"\(y(t.intensity))\" stroke=\"#d62728\"/>"
            svg += "<circle cx=\"\(x(t.time))\" cy=\"\(y(t.intensity))\" r=\"2.5\" fill=\"#d62728\"/>\n"
        }
        return svg + "</svg>\n"
    }

    /// A one-line sparkline of intensity over `width` columns (each column the largest
    /// intensity in its time span, transients included; a space where it is 0), followed,
    /// when there are transients, by a second line with `•` under the columns that hold one.
    public static func sparkline(_ compiled: CompiledHaptics, width: Int = 60) -> String {
        guard width > 0, compiled.endTime > 0 else { return "" }
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        let sampled = compiled.sampled(rate: 1000)
        var columns = [Double](repeating: 0, count: width)
        var marks = [Bool](repeating: false, count: width)
        func column(_ frame: Int) -> Int { min(width - 1, frame * width / max(1, sampled.frameCount)) }
        for (k, v) in sampled.intensity.enumerated() {
            columns[column(k)] = max(columns[column(k)], Double(v))
        }
        for t in sampled.transients {
            columns[column(t.frame)] = max(columns[column(t.frame)], Double(t.intensity))
            marks[column(t.frame)] = true
        }
        let line = String(columns.map { v -> Character in
            v <= 0 ? " " : blocks[min(blocks.count - 1, Int((v * Double(blocks.count)).rounded(.up)) - 1)]
        })
        guard marks.contains(true) else { return line }
        var second = String(marks.map { $0 ? "•" : " " })
        while second.last == " " { second.removeLast() }
        return line + "\n" + second
    }

    /// Two decimals, no trailing zeros, locale-independent.
    static func fmt(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : "\(r)"
    }
}
