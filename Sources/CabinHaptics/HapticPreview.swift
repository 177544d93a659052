import Glibc

/// Pictures of a compiled pattern: an SVG plot and a terminal sparkline.
///
/// Thread: pure; any thread except the render thread.
public enum HapticPreview {
    /// An SVG plot, made to be read at a glance: intensity as a solid blue line over a light
    /// fill, sharpness as a dashed orange line on top of it (drawn only where the continuous track
    /// sounds, since a held sharpness in silence is not felt), transients as red stems at
    /// their intensity; a grid at 0.25 steps labelled 0, 0.5 and 1, time ticks at a round
    /// step (1, 2 or 5 × 10ⁿ s) with the end time labelled, a legend, and `title` on top.
    public static func svg(_ compiled: CompiledHaptics, width: Int = 800, height: Int = 240,
                           title: String? = nil) -> String {
        let frame = SVGFrame(width: width, height: height, hasTitle: title != nil, span: compiled.endTime)
        let x = frame.x, y = frame.y, baseline = frame.baseline, font = SVGFrame.font
        let right = SVGFrame.right, top = frame.top
        var svg = frame.axes(endLabel: "\(fmt(compiled.endTime)) s")
        if !compiled.breakpoints.isEmpty {
            let bp = compiled.breakpoints
            let intensity = bp.map { "\(x($0.time)),\(y($0.intensity))" }.joined(separator: " ")
            let area = "\(x(bp[0].time)),\(baseline) " + intensity + " \(x(bp[bp.count - 1].time)),\(baseline)"
            svg += "<polygon fill=\"#1f77b4\" fill-opacity=\"0.12\" points=\"\(area)\"/>\n"
            svg += "<polyline class=\"intensity\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"\(intensity)\"/>\n"
            for run in soundingRuns(bp) {
                let points = run.map { "\(x($0.time)),\(y($0.sharpness))" }.joined(separator: " ")
                svg += "<polyline class=\"sharpness\" fill=\"none\" stroke=\"#ff7f0e\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\" points=\"\(points)\"/>\n"
            }
        }
        for t in compiled.transients {
            svg += "<line class=\"transient\" x1=\"\(x(t.time))\" y1=\"\(baseline)\" x2=\"\(x(t.time))\" y2=\"\(y(t.intensity))\" stroke=\"#d62728\" stroke-width=\"1.5\"/>"
            svg += "<circle cx=\"\(x(t.time))\" cy=\"\(y(t.intensity))\" r=\"3\" fill=\"#d62728\"/>\n"
        }
        if let title { svg += frame.title(title) }
        let lx = Double(width) - right - 250, ly = top - 17
        svg += """
        <line x1="\(fmt(lx))" y1="\(fmt(ly))" x2="\(fmt(lx + 20))" y2="\(fmt(ly))" stroke="#1f77b4" stroke-width="2"/><text x="\(fmt(lx + 24))" y="\(fmt(ly + 4))" \(font)>intensity</text>
        <line x1="\(fmt(lx + 85))" y1="\(fmt(ly))" x2="\(fmt(lx + 105))" y2="\(fmt(ly))" stroke="#ff7f0e" stroke-width="1.5" stroke-dasharray="5 3"/><text x="\(fmt(lx + 109))" y="\(fmt(ly + 4))" \(font)>sharpness</text>
        <line x1="\(fmt(lx + 178))" y1="\(fmt(ly + 6))" x2="\(fmt(lx + 178))" y2="\(fmt(ly - 5))" stroke="#d62728" stroke-width="1.5"/><circle cx="\(fmt(lx + 178))" cy="\(fmt(ly - 5))" r="3" fill="#d62728"/><text x="\(fmt(lx + 186))" y="\(fmt(ly + 4))" \(font)>transient</text>

        """
        return svg + "</svg>\n"
    }

    /// The plot area of an SVG picture: its coordinates, and the white page with the grid,
    /// the value labels 0, 0.5 and 1 and the time axis (round ticks, the end labelled).
    struct SVGFrame {
        static let left = 36.0, right = 12.0, bottom = 28.0
        static let font = "font-family=\"sans-serif\" font-size=\"11\" fill=\"#333\""
        let width: Int, height: Int, top: Double, plotWidth: Double, plotHeight: Double, span: Double

        init(width: Int, height: Int, hasTitle: Bool, span: Double) {
            self.width = width
            self.height = height
            top = hasTitle ? 46.0 : 30.0
            plotWidth = Double(width) - Self.left - Self.right
            plotHeight = Double(height) - top - Self.bottom
            self.span = max(span, 1e-9)
        }

        func x(_ t: Double) -> String { fmt(Self.left + t / span * plotWidth) }
        func y(_ v: Double) -> String { fmt(top + (1 - v) * plotHeight) }
        var baseline: String { y(0) }

        func axes(endLabel: String) -> String {
            let font = Self.font
            var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)">
            <rect width="\(width)" height="\(height)" fill="white"/>

            """
            for v in [0.25, 0.5, 0.75, 1.0] {
                svg += "<line x1=\"\(x(0))\" y1=\"\(y(v))\" x2=\"\(x(span))\" y2=\"\(y(v))\" stroke=\"#e4e4e4\"/>\n"
            }
            for (v, label) in [(0.0, "0"), (0.5, "0.5"), (1.0, "1")] {
                svg += "<text x=\"\(fmt(Self.left - 5))\" y=\"\(fmt(top + (1 - v) * plotHeight + 4))\" \(font) text-anchor=\"end\">\(label)</text>\n"
            }
            let step = tickStep(span, maxTicks: max(2, Int(plotWidth / 70)))
            var tick = 0.0
            while tick < span - step * 0.5 {
                svg += "<line x1=\"\(x(tick))\" y1=\"\(baseline)\" x2=\"\(x(tick))\" y2=\"\(fmt(top + plotHeight + 4))\" stroke=\"#444\"/>"
                svg += "<text x=\"\(x(tick))\" y=\"\(fmt(Double(height) - 9))\" \(font) text-anchor=\"\(tick == 0 ? "start" : "middle")\">\(fmt(tick)) s</text>\n"
                tick = (tick + step) * 1e9 .rounded() / 1e9
            }
            svg += "<text x=\"\(x(span))\" y=\"\(fmt(Double(height) - 9))\" \(font) text-anchor=\"end\">\(endLabel)</text>\n"
            svg += "<line x1=\"\(x(0))\" y1=\"\(baseline)\" x2=\"\(x(span))\" y2=\"\(baseline)\" stroke=\"#444\"/>\n"
            svg += "<line x1=\"\(x(0))\" y1=\"\(y(0))\" x2=\"\(x(0))\" y2=\"\(y(1))\" stroke=\"#444\"/>\n"
            return svg
        }

        func title(_ text: String) -> String {
            "<text x=\"\(fmt(Self.left))\" y=\"17\" font-family=\"sans-serif\" font-size=\"13\" font-weight=\"bold\" fill=\"#222\">\(escaped(text))</text>\n"
        }
    }

    /// Runs of consecutive breakpoints where the continuous track sounds: a segment belongs
    /// to a run when either of its ends has intensity > 0, so a run starts and ends on its
    /// silent edges and a silent stretch between events breaks it.
    static func soundingRuns(_ breakpoints: [HapticBreakpoint]) -> [[HapticBreakpoint]] {
        var runs: [[HapticBreakpoint]] = []
        var current: [HapticBreakpoint] = []
        for i in breakpoints.indices.dropLast() {
            let a = breakpoints[i], b = breakpoints[i + 1]
            if a.intensity > 0 || b.intensity > 0 {
                if current.isEmpty { current.append(a) }
                current.append(b)
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// A round tick step (1, 2 or 5 × 10ⁿ) giving at most `maxTicks` ticks over `span`.
    public static func tickStep(_ span: Double, maxTicks: Int) -> Double {
        var step = pow(10, (log10(span / Double(maxTicks))).rounded(.down))
        for factor in [1.0, 2, 5, 10] where span / (step * factor) <= Double(maxTicks) {
            return step * factor
        }
        step *= 10
        return step
    }

    static func escaped(_ text: String) -> String {
        // XML 1.0 allows no C0 control other than tab, LF and CR, nor U+FFFE/U+FFFF.
        String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0.value >= 0x20 ? $0.value != 0xFFFE && $0.value != 0xFFFF : $0 == "\t" || $0 == "\n" || $0 == "\r"
        })).replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
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
