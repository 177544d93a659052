import CabinJSON

/// Text exports of a compiled pattern for scripts and other tools: the event stream as
/// JSON, the sampled stream as CSV.
///
/// Thread: pure; any thread except the render thread (allocates).
extension CompiledHaptics {
    /// The event stream as a JSON document:
    ///
    /// ```json
    /// { "duration": 0.27, "endTime": 0.29,
    ///   "breakpoints": [ { "time": 0, "intensity": 0, "sharpness": 0.5 }, … ],
    ///   "transients": [ { "time": 0, "intensity": 1, "sharpness": 0.7 }, … ] }
    /// ```
    ///
    /// Numbers are rounded to 6 decimals (1 µs, and far below what any actuator resolves),
    /// so the text is short and the same on every machine.
    public var jsonDocument: JSONValue {
        func point(_ time: Double, _ intensity: Double, _ sharpness: Double) -> JSONValue {
            .object([("time", .number(round6(time))), ("intensity", .number(round6(intensity))),
                     ("sharpness", .number(round6(sharpness)))])
        }
        return .object([
            ("duration", .number(round6(duration))),
            ("endTime", .number(round6(endTime))),
            ("breakpoints", .array(breakpoints.map { point($0.time, $0.intensity, $0.sharpness) })),
            ("transients", .array(transients.map { point($0.time, $0.intensity, $0.sharpness) })),
        ])
    }
}

extension SampledHaptics {
    /// The continuous track as CSV, one row per sample: `time,intensity,sharpness` (a
    /// header row first; time in seconds, 6 decimals; values 4 decimals). Transients are
    /// not rows of their own; they are listed after the samples as comment lines
    /// `# transient,TIME,INTENSITY,SHARPNESS` so a plain CSV reader can skip them.
    public var csv: String {
        var out = "time,intensity,sharpness\n"
        out.reserveCapacity(frameCount * 24 + transients.count * 40 + 32)
        for k in 0..<frameCount {
            out += "\(decimal(Double(k) / sampleRate, 6)),\(decimal(Double(intensity[k]), 4)),\(decimal(Double(sharpness[k]), 4))\n"
        }
        for t in transients {
            out += "# transient,\(decimal(Double(t.frame) / sampleRate, 6)),\(decimal(Double(t.intensity), 4)),\(decimal(Double(t.sharpness), 4))\n"
        }
        return out
    }
}

func round6(_ x: Double) -> Double { (x * 1_000_000).rounded() / 1_000_000 }

/// Number formatting for the text exports (CSV, JSON, plots).
public enum HapticText {
    /// `x` with at most `places` decimals, no trailing zeros, no exponent, locale-independent.
    public static func decimal(_ x: Double, _ places: Int) -> String { CabinHaptics.decimal(x, places) }
}

/// `x` with at most `places` decimals, no trailing zeros, no exponent, locale-independent.
func decimal(_ x: Double, _ places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(x) * scale).rounded()
    if scaled == 0 { return "0" }
    let whole = Int(scaled / scale)
    var fraction = String(Int(scaled) - whole * Int(scale))
    while fraction.count < places { fraction = "0" + fraction }
    while fraction.last == "0" { fraction.removeLast() }
    let sign = x < 0 ? "-" : ""
    return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}
