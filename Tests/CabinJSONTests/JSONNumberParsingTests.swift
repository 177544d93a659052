import CabinAudio
import CabinJSON
import Glibc
import Testing

/// The parser's numbers (fast_float, through CCabinFastFloat) against what it gave before:
/// Clinger's fast path in Swift, else `Double(String)`, with a result that is not finite an
/// out-of-range error (a non-zero number that underflows is ±0, kept). Bit patterns must be
/// equal for every number, to each other and to glibc's strtod, and the same numbers must be
/// refused with the same message.
@Suite("JSON numbers: bit-identical to strtod")
struct JSONNumberParsingTests {
    // MARK: the oracle — the parser's number code before fast_float, unchanged

    /// Powers of ten exactly representable as a `Double`.
    static let exactPowersOfTen: [Double] = (0...22).map { k in
        var p = 1.0
        for _ in 0..<k { p *= 10 }
        return p
    }

    /// The old `JSONScanner.fastDecimal`: integer digits ≤ 2^53 and a decimal exponent within ±22.
    static func oldFastDecimal(_ bytes: [UInt8]) -> Double? {
        var i = 0
        let end = bytes.count
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var inFraction = false
        while i < end {
            let b = bytes[i]
            if b == UInt8(ascii: ".") {
                inFraction = true
            } else if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                if mantissa > 0 || b != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 18 else { return nil }
                mantissa = mantissa * 10 + UInt64(b - UInt8(ascii: "0"))
                if inFraction { scale -= 1 }
            } else {
                break
            }
            i += 1
        }
        if i < end {
            i += 1
            var exponentNegative = false
            if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var exponent = 0
            while i < end {
                exponent = exponent * 10 + Int(bytes[i] - UInt8(ascii: "0"))
                guard exponent < 1000 else { return nil }
                i += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        guard mantissa <= 1 << 53 else { return nil }
        var value = Double(mantissa)
        if mantissa != 0 {
            guard scale >= -22 && scale <= 22 else { return nil }
            value = scale < 0 ? value / exactPowersOfTen[-scale] : value * exactPowersOfTen[scale]
        }
        return negative ? -value : value
    }

    /// The old parser's value for `text`, or nil where it reported the number out of range.
    static func oldValue(_ text: String) -> Double? {
        if let fast = oldFastDecimal(Array(text.utf8)) { return fast }
        guard let parsed = Double(text), parsed.isFinite else { return nil }
        return parsed
    }

    /// The old parser's message for a number out of range.
    static func outOfRangeMessage(_ text: String) -> String {
        "number \(text.count > 24 ? String(text.prefix(24)) + "…" : text) is out of range for a 64-bit float"
    }

    /// glibc's strtod in the C locale (the process's locale: Swift never calls setlocale).
    static func strtodValue(_ text: String) -> (value: Double, rangeError: Bool) {
        errno = 0
        let value = strtod(text, nil)
        return (value, errno == ERANGE)
    }

    // MARK: checking

    /// Parses every text as a JSON array and checks each number against the oracle: equal bit
    /// patterns, or the same out-of-range error. Returns how many texts were checked.
    @discardableResult
    static func check(_ texts: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Int {
        var accepted: [(text: String, value: Double)] = []
        for text in texts {
            let old = oldValue(text)
            // The oracle is strtod: same bits where it gives a finite, in-range double.
            let c = strtodValue(text)
            if let old {
                #expect(old.bitPattern == c.value.bitPattern, "oracle \(text)", sourceLocation: sourceLocation)
                accepted.append((text, old))
            } else {
                #expect(!c.value.isFinite && c.rangeError, "oracle \(text)", sourceLocation: sourceLocation)
                let result = JSONParser.parse("[\(text)]", file: "n.json")
                #expect(result.value == nil, "\(text) accepted", sourceLocation: sourceLocation)
                let error = result.diagnostics.errors.first
                #expect(error?.rule == "json.number-range", "\(text)", sourceLocation: sourceLocation)
                #expect(error?.message == outOfRangeMessage(text), "\(text)", sourceLocation: sourceLocation)
                #expect(error.map { "\($0.location.line):\($0.location.column)" } == "1:2", sourceLocation: sourceLocation)
            }
        }
        // Accepted numbers, many to a document.
        var start = 0
        while start < accepted.count {
            let batch = accepted[start..<min(start + 4096, accepted.count)]
            start += batch.count
            var diagnostics = Diagnostics(file: "n.json")
            let text = "[" + batch.map(\.text).joined(separator: ",") + "]"
            guard let document = JSONParser.parseDocument(Array(text.utf8), diagnostics: &diagnostics) else {
                Issue.record("batch refused: \(diagnostics.all.first.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
                continue
            }
            var node = document.root + 1
            for (text, value) in batch {
                let parsed = document.numberValue(node)
                #expect(parsed?.bitPattern == value.bitPattern,
                        "\(text): \(parsed.map { "\($0)" } ?? "nil") ≠ \(value)", sourceLocation: sourceLocation)
                #expect(document.numberText(node) == text, sourceLocation: sourceLocation)
                node = document.next(node)
            }
        }
        return texts.count
    }

    // MARK: generated numbers

    /// `count` random digits, the first not zero when `leadingNonZero`.
    static func digits(_ count: Int, leadingNonZero: Bool, _ rng: inout SeededRandom) -> String {
        var s = ""
        for i in 0..<count {
            s.append(Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8(i == 0 && leadingNonZero ? rng.int(1...9) : rng.int(0...9)))))
        }
        return s
    }

    /// A JSON number of 1–25 significant digits in one of the grammar's shapes, its exponent
    /// chosen so the value lands anywhere from below the subnormals to past the overflow.
    static func randomNumber(_ rng: inout SeededRandom) -> String {
        let sign = rng.int(0...3) == 0 ? "-" : ""
        let count = rng.int(1...25)
        var body: String
        var pointShift = 0  // the decimal exponent of the last digit, before any exponent part
        switch rng.int(0...3) {
        case 0:  // an integer (a single 0 may lead only alone)
            body = digits(count, leadingNonZero: count > 1, &rng)
        case 1:  // 0.000ddd: leading zeros in the fraction
            let zeros = rng.int(0...8)
            body = "0." + String(repeating: "0", count: zeros) + digits(count, leadingNonZero: false, &rng)
            pointShift = -(zeros + count)
        default:  // ddd.ddd
            let whole = rng.int(1...count)
            let all = digits(count, leadingNonZero: whole > 1, &rng)
            if whole == count {
                body = all + "." + digits(rng.int(1...3), leadingNonZero: false, &rng)
                pointShift = -(body.count - count - 1)
            } else {
                body = String(all.prefix(whole)) + "." + String(all.dropFirst(whole))
                pointShift = -(count - whole)
            }
        }
        guard rng.int(0...4) != 0 else { return sign + body }
        // The value's decimal magnitude is about count + pointShift + exponent.
        let magnitude = count + pointShift
        let target: Int
        switch rng.int(0...9) {
        case 0...4: target = rng.int(-330...310)  // anywhere, subnormals and overflow included
        case 5: target = rng.int(-345...(-300))  // the subnormals and just below them
        case 6: target = rng.int(300...312)  // near the overflow
        case 7: target = rng.int(-22...22)  // Clinger's range
        case 8: target = rng.int(-2000...2000)  // far out
        default: target = rng.int(-30000...30000)
        }
        let exponent = target - magnitude
        let e = rng.int(0...1) == 0 ? "e" : "E"
        let leading = rng.int(0...7) == 0 ? String(repeating: "0", count: rng.int(1...20)) : ""
        let exponentSign = exponent < 0 ? "-" : (rng.int(0...1) == 0 ? "+" : "")
        return sign + body + e + exponentSign + leading + String(abs(exponent))
    }

    @Test func generatedNumbers() {
        var rng = SeededRandom(seed: 0xCAB1_F10A)
        let texts = (0..<300_000).map { _ in Self.randomNumber(&rng) }
        #expect(Self.check(texts) == 300_000)
    }

    /// The exact decimal expansion of `x` (every double is a finite decimal), `digits`
    /// significant digits at most (glibc's printf prints exactly).
    static func exactDecimal(_ x: Float80, digits: Int = 800) -> String {
        var buffer = [CChar](repeating: 0, count: digits + 32)
        _ = withVaList([x]) { vsnprintf(&buffer, buffer.count, "%.\(digits - 1)Le", $0) }
        var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // Trailing zeros of the significand off ("1.2500e-3" -> "1.25e-3").
        if let e = text.firstIndex(of: "e") {
            var significand = String(text[..<e])
            if significand.contains(".") {
                while significand.hasSuffix("0") { significand.removeLast() }
                if significand.hasSuffix(".") { significand.removeLast() }
            }
            text = significand + text[e...]
        }
        return text
    }

    /// Halfway cases: the exact midpoint between random neighbouring doubles (normal and
    /// subnormal), where round-half-even decides, and the same cut short (just below) or with a
    /// 1 appended (just above). Float80 holds a midpoint of two doubles exactly.
    @Test func halfwayCases() {
        var rng = SeededRandom(seed: 0xCAB1_F10B)
        var texts: [String] = []
        for i in 0..<20_000 {
            let bits: UInt64
            switch i % 4 {
            case 0: bits = rng.next() & 0x7FEF_FFFF_FFFF_FFFF  // any finite magnitude
            case 1: bits = rng.next() & 0x000F_FFFF_FFFF_FFFF  // subnormal
            case 2: bits = (UInt64(rng.int(1020...1080)) << 52) | (rng.next() & 0x000F_FFFF_FFFF_FFFF)  // near 1
            default: bits = (UInt64(rng.int(0...3)) << 52) | (rng.next() & 0x000F_FFFF_FFFF_FFFF)  // the normal/subnormal seam
            }
            let x = Double(bitPattern: bits)
            guard x.nextUp.isFinite else { continue }
            let mid = (Float80(x) + Float80(x.nextUp)) / 2
            let exact = Self.exactDecimal(mid)
            let sign = rng.int(0...1) == 0 ? "-" : ""
            texts.append(sign + exact)
            // Just above: one more digit in the significand.
            if let e = exact.firstIndex(of: "e") {
                let significand = exact[..<e].contains(".") ? String(exact[..<e]) : String(exact[..<e]) + "."
                texts.append(sign + significand + "000001" + exact[e...])
            }
            // Cut to 17–25 significant digits (rounds down towards x, or is x's shortest form).
            texts.append(sign + Self.exactDecimal(mid, digits: rng.int(17...25)))
            texts.append(sign + "\(x)")  // the shortest text that round-trips
        }
        #expect(Self.check(texts) == texts.count)
    }

    // MARK: hard cases, by name

    @Test func zerosAndSigns() {
        Self.check(["0", "-0", "0.0", "-0.0", "0e0", "-0E-0", "0e-5000", "-0e5000", "0.000000e400",
                    "0e99999999999999999999", "-0.00000000000000000000000000000000000000e-99999"])
        var diagnostics = Diagnostics(file: "z.json")
        let document = JSONParser.parseDocument(Array("[-0, -0.0e10, 0]".utf8), diagnostics: &diagnostics)
        #expect(document?.numberValue(1)?.sign == .minus)
        #expect(document?.numberValue(2)?.sign == .minus)
        #expect(document?.numberValue(3)?.sign == .plus)
    }

    @Test func overflowAndTheLargestDouble() {
        let nines400 = String(repeating: "9", count: 400)
        let tinyTimesHuge = "0." + String(repeating: "0", count: 400) + "1e710"
        Self.check(["1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.79769313486231580793e308",
                    "1.7976931348623159e308", "-1.7976931348623159e308", "1e309", "-1e309", "1e400",
                    "1e99999999999999999999", "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368",
                    "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
                    nines400, tinyTimesHuge])
    }

    @Test func underflowAndSubnormals() {
        let halfOfTheLeast = Self.exactDecimal(Float80(Double.leastNonzeroMagnitude) / 2)
        let justAboveHalf = String(halfOfTheLeast.replacing("e-324", with: "00000000001e-324"))
        let minusHalf = "-" + halfOfTheLeast
        let fiveAt331 = "0." + String(repeating: "0", count: 330) + "5"
        Self.check(["2.2250738585072014e-308", "2.2250738585072011e-308", "2.2250738585072012e-308",
                    "2.225073858507201136057409796709131975934819546351645648e-308",
                    "4.9406564584124654e-324", "5e-324", "3e-324", "2.4703282292062328e-324",
                    "2.4703282292062327e-324", "-2.4703282292062327e-324", halfOfTheLeast, minusHalf,
                    justAboveHalf,
                    "1e-400", "-1e-400", "1e-99999999999999999999", "0.1e-323", "1e-324", "1e-323",
                    fiveAt331])
    }

    @Test func manyDigitsAndClingersEdges() {
        let zeros400 = String(repeating: "0", count: 400), zeros800 = String(repeating: "0", count: 800)
        let long: [String] = ["1" + zeros400 + "e-400", "1" + zeros800 + "e-800",
                              String(repeating: "3", count: 800) + "e-800", "0." + String(repeating: "9", count: 800),
                              "1." + zeros800 + "1"]
        let named: [String] = ["9007199254740992", "9007199254740993", "9007199254740993.0000000001", "9007199254740994",
                    "9007199254740995", "18014398509481985", "123456789012345678901234567890",
                    "0.1", "0.2", "0.3", "0.12345678901234568", "0.1234567890123456789", "1e22", "1e23", "1e-22",
                    "1e-23", "8.98846567431158e307", "7.2057594037927933e16", "1e0000000000000000000000000000001",
                    "100000000000000000000000e-23",
                    "4.35679231e-20", "1448997445238699", "3.0540412e5", "-65.613616999999977",
                    "7.3177701707893310e+15", "2.2250738585072012e-00308", "999999999999999999", "9999999999999999999"]
        Self.check(named + long)
    }
}
