/// A terminal preview of a compiled pattern: intensity and sharpness as sparklines over the
/// same columns, transients marked beneath, and a time axis — at most `width` columns.
///
/// ```
/// intensity ▂▅██████▇▆▅▄▃▂▁
/// sharpness ▅▅▅▅▅▅▅▆▆▆▇▇▇▇▇
/// transient •
///           0 s         0.29 s
/// ```
///
/// Each column covers an equal slice of 0…endTime. Intensity shows the slice's largest
/// value (transients included); sharpness shows the slice's mean sharpness where the
/// continuous track sounds, or the largest transient's sharpness, and is blank where
/// nothing sounds (held sharpness during silence is not felt).
///
/// Thread: pure; any thread except the render thread.
extension HapticPreview {
    /// The preview, lines joined with `\n`, no trailing newline. `width` counts the label.
    public static func terminal(_ compiled: CompiledHaptics, width: Int = 80) -> String {
        let label = 10
        let columns = max(8, width - label)
        guard compiled.endTime > 0 else { return "(empty pattern: nothing to feel)" }
        let sampled = compiled.sampled(rate: 1000)
        var intensity = [Double](repeating: 0, count: columns)
        var sharpnessSum = [Double](repeating: 0, count: columns)
        var sharpnessCount = [Int](repeating: 0, count: columns)
        var transientSharpness = [Double?](repeating: nil, count: columns)
        func column(_ frame: Int) -> Int { min(columns - 1, frame * columns / max(1, sampled.frameCount)) }
        for k in 0..<sampled.frameCount {
            let c = column(k)
            let v = Double(sampled.intensity[k])
            intensity[c] = max(intensity[c], v)
            if v > 0 {
                sharpnessSum[c] += Double(sampled.sharpness[k])
                sharpnessCount[c] += 1
            }
        }
        for t in sampled.transients {
            let c = column(t.frame)
            intensity[c] = max(intensity[c], Double(t.intensity))
            transientSharpness[c] = max(transientSharpness[c] ?? 0, Double(t.sharpness))
        }
        let sharpness: [Double?] = (0..<columns).map { c in
            sharpnessCount[c] > 0 ? sharpnessSum[c] / Double(sharpnessCount[c]) : transientSharpness[c]
        }
        var lines = [
            "intensity " + bars(intensity.map { $0 > 0 ? $0 : nil }),
            "sharpness " + bars(sharpness),
        ]
        if !compiled.transients.isEmpty {
            lines.append("transient " + trimmed(String(transientSharpness.map { $0 == nil ? " " : "•" })))
        }
        let end = "\(fmt(compiled.endTime)) s"
        let gap = max(1, columns - 3 - end.count)
        lines.append(String(repeating: " ", count: label) + "0 s" + String(repeating: " ", count: gap) + end)
        return lines.map(trimmed).joined(separator: "\n")
    }

    /// One block character per value (▁ for the smallest non-zero level up to █ for 1),
    /// a space for `nil`.
    static func bars(_ values: [Double?]) -> String {
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return String(values.map { v -> Character in
            guard let v else { return " " }
            let level = Int((min(max(v, 0), 1) * Double(blocks.count)).rounded(.up)) - 1
            return blocks[min(blocks.count - 1, max(0, level))]
        })
    }

    static func trimmed(_ s: String) -> String {
        var s = s
        while s.last == " " { s.removeLast() }
        return s
    }
}
