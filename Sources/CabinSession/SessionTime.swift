import CabinAudio
import CabinJSON

/// Times in session documents: `"1h2m3.5s"`, `"90s"`, `"250ms"`, `"12:30"` (m:s),
/// `"1:02:03"` (h:m:s), or a number of seconds.
public enum SessionTime {
    /// The rule quoted in errors.
    public static let rule = "use 1h2m3s, 90s, 250ms or m:s"

    /// The longest a session (and so any time in it) can be: 24 hours, in seconds. Every
    /// frame computation stays far inside `Int64` below it, at any sample rate.
    public static let maximum: Double = 24 * 3600

    /// The rule quoted when a time is past `maximum`.
    public static let maximumRule = "a session lasts at most 24h"

    /// Seconds for a time string, or `nil` if it is not one. Never negative.
    public static func parse(_ text: String) -> Double? {
        let s = text.trimmingWhitespace()
        guard !s.isEmpty else { return nil }
        if s.contains(":") { return parseClock(s).map(microseconds) }
        if let plain = Double(s), plain.isFinite, plain >= 0, s.allSatisfy({ $0.isNumber || $0 == "." }) {
            return plain
        }
        return parseUnits(s).map(microseconds)
    }

    /// Sums of units (`3m14.729s` = 180 + 14.729) pick up binary rounding; rounding to the
    /// microsecond gives the double nearest to the decimal written, so times read back
    /// exactly as they were written.
    private static func microseconds(_ t: Double) -> Double { (t * 1e6).rounded() / 1e6 }

    /// `m:s` or `h:m:s`; minutes and seconds below 60 after the first field.
    private static func parseClock(_ s: String) -> Double? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var fields: [Double] = []
        for (i, part) in parts.enumerated() {
            let isLast = i == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isNumber || (isLast && $0 == ".") }),
                  let v = Double(part), v.isFinite else { return nil }
            if i > 0 && v >= 60 { return nil }
            fields.append(v)
        }
        return fields.reduce(0) { $0 * 60 + $1 }
    }

    /// `1h2m3.5s`, `250ms`: units in descending order, each at most once.
    private static func parseUnits(_ s: String) -> Double? {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return parseASCIIUnits(Array(s.utf8)) }
        let units: [(String, Double)] = [("h", 3600), ("m", 60), ("s", 1), ("ms", 0.001)]
        var rest = Substring(s)
        var total = 0.0
        var lastRank = -1
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, let v = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            guard let rank = units.firstIndex(where: { $0.0 == unit }), rank > lastRank else { return nil }
            lastRank = rank
            total += v * units[rank].1
            rest = rest.dropFirst(unit.count)
        }
        return total.isFinite ? total : nil
    }

    /// `parseUnits` for ASCII text, on its bytes (a document's every time goes through here:
    /// walking `Character`s was most of reading the drive's cues). ASCII's numbers are the
    /// digits and its letters A–Z, a–z, so it accepts, rejects and adds exactly as
    /// `parseUnits` does.
    private static func parseASCIIUnits(_ b: [UInt8]) -> Double? {
        let dot = UInt8(ascii: "."), h = UInt8(ascii: "h"), m = UInt8(ascii: "m"), s = UInt8(ascii: "s")
        var i = 0
        var total = 0.0
        var lastRank = -1
        while i < b.count {
            var j = i, dots = 0
            while j < b.count && ((b[j] >= UInt8(ascii: "0") && b[j] <= UInt8(ascii: "9")) || b[j] == dot) {
                if b[j] == dot { dots += 1 }
                j += 1
            }
            guard j > i, dots <= 1, let v = Double(String(decoding: b[i..<j], as: UTF8.self)) else { return nil }
            var k = j
            while k < b.count && ((b[k] | 0x20) >= UInt8(ascii: "a") && (b[k] | 0x20) <= UInt8(ascii: "z")) { k += 1 }
            let rank: Int
            switch k - j {
            case 1 where b[j] == h: rank = 0
            case 1 where b[j] == m: rank = 1
            case 1 where b[j] == s: rank = 2
            case 2 where b[j] == m && b[j + 1] == s: rank = 3
            default: return nil
            }
            guard rank > lastRank else { return nil }
            lastRank = rank
            total += v * unitSeconds[rank]
            i = k
        }
        return total.isFinite ? total : nil
    }

    /// Seconds of h, m, s and ms, in `parseUnits`'s order.
    private static let unitSeconds: [Double] = [3600, 60, 1, 0.001]

    /// `1h2m3.5s` style text for seconds (for printing documents and errors).
    public static func format(_ seconds: Double) -> String {
        if seconds == 0 { return "0s" }
        // Past any session's length, a plain number of seconds (no unit arithmetic on it).
        guard seconds.isFinite, abs(seconds) <= 1e9 else { return NumberText.plain(seconds) + "s" }
        let ms = (seconds * 1000).rounded()
        var rest = ms
        let h = (rest / 3_600_000).rounded(.down); rest -= h * 3_600_000
        let m = (rest / 60_000).rounded(.down); rest -= m * 60_000
        let s = rest / 1000
        var out = ""
        if h > 0 { out += "\(Int(h))h" }
        if m > 0 { out += "\(Int(m))m" }
        if s > 0 { out += format(number: s) + "s" }
        return out
    }

    /// A number without a trailing `.0`.
    public static func format(number: Double) -> String { NumberText.plain(number) }
}
