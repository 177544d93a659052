/// Numbers as people read them in messages, documents and reports — the one formatter the
/// readers, the session writer, the haptics previews and the sound-library reports share.
///
/// Thread: pure functions; any thread (they allocate: never on the render thread).
public enum NumberText {
    /// `1` rather than `1.0`, otherwise Swift's shortest round-tripping form (`0.27`, `1e-07`).
    public static func plain(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    /// Rounded to at most `places` decimals, without trailing zeros: `0.27`, `70`.
    public static func decimals(_ x: Double, _ places: Int) -> String {
        guard x.isFinite else { return String(x) }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let rounded = (x * scale).rounded() / scale
        guard rounded != rounded.rounded() || abs(rounded) >= 1e15 else { return String(Int(rounded)) }
        // Integer and fraction digits from the scaled integer: exact, no binary leftovers.
        let scaled = Int((abs(x) * scale).rounded())
        var fraction = String(scaled % Int(scale))
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (x < 0 ? "-" : "") + String(scaled / Int(scale)) + "." + fraction
    }
}
