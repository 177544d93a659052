import CabinJSON
import Testing

@Suite("JSON parser: values and locations")
struct JSONParserTests {
    func parse(_ text: String, _ options: JSONParseOptions = .strict) -> (JSONValue?, Diagnostics) {
        let result = JSONParser.parse(text, file: "t.json", options: options)
        return (result.value, result.diagnostics)
    }

    @Test func parsesEveryKindOfValue() throws {
        let (value, diags) = parse(#"{"a": [1, -2.5e1, true, false, null, "x\ny\u00e9\ud83d\ude00"]}"#)
        #expect(diags.isEmpty)
        let items = try #require(value?.objectValue?["a"]?.arrayValue)
        #expect(items.count == 6)
        #expect(items[0].numberValue == 1)
        #expect(items[1].numberValue == -25)
        #expect(items[2].kind == .bool(true))
        #expect(items[3].kind == .bool(false))
        #expect(items[4].kind == .null)
        #expect(items[5].stringValue == "x\nyé😀")
    }

    /// The parser's numbers (fast_float, see JSONNumberParsingTests) give the value Swift's own
    /// `Double(String)` gives, bit for bit.
    @Test func numbersParseToTheCorrectlyRoundedDouble() throws {
        var state: UInt64 = 0x1234_5678
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var texts = ["0", "-0", "0.0", "1e22", "1e23", "9007199254740992", "9007199254740993", "0.1", "-2.5e-3",
                     "0.4776227631578947", "123456789012345678901234567890", "1.7976931348623157e308", "5e-324",
                     "4.9406564584124654e-324", "0.30000000000000004", "1E+2", "12e-30", "100000000000000000000"]
        for _ in 0..<5000 {
            let digits = String(next() % 10_000_000_000_000_000)
            let point = Int(next() % UInt64(digits.count + 1))
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if text.hasPrefix(".") { text = "0" + text }
            if text.hasSuffix(".") { text += "0" }
            while text.hasPrefix("0"), text.count > 1, !text.hasPrefix("0.") { text.removeFirst() }
            if next() % 3 == 0 { text += "e\(Int(next() % 60) - 30)" }
            texts.append(next() % 2 == 0 ? "-" + text : text)
        }
        let (value, diagnostics) = parse("[" + texts.joined(separator: ",") + "]")
        #expect(diagnostics.isEmpty)
        let items = try #require(value?.arrayValue)
        #expect(items.count == texts.count)
        for (item, text) in zip(items, texts) {
            let parsed = try #require(item.numberValue)
            let expected = try #require(Double(text))
            #expect(parsed.bitPattern == expected.bitPattern, "\(text): \(parsed) ≠ \(expected)")
            if case .number(let n) = item.kind { #expect(n.text == text) }
        }
    }

    @Test func numbersKeepTheirSourceText() throws {
        let (value, _) = parse("[1.0, 1, 1e0, -0.50]")
        let texts = try #require(value?.arrayValue).compactMap { v -> String? in
            if case .number(let n) = v.kind { return n.text } else { return nil }
        }
        #expect(texts == ["1.0", "1", "1e0", "-0.50"])
        #expect(JSONNumber(1, text: "1").isIntegerLiteral)
        #expect(!JSONNumber(1, text: "1.0").isIntegerLiteral)
    }

    @Test func objectMembersStayInDocumentOrder() throws {
        let (value, _) = parse(#"{"z": 1, "a": 2, "m": 3}"#)
        #expect(value?.objectValue?.keys == ["z", "a", "m"])
    }

    @Test func everyValueAndKeyHasItsLocation() throws {
        let text = "{\n  \"a\": 1,\n  \"bé\": [true,\n    \"s\"]\n}"
        let (value, diags) = parse(text)
        #expect(diags.isEmpty)
        let object = try #require(value?.objectValue)
        #expect(value?.location == SourceLocation(offset: 0, line: 1, column: 1))
        #expect(object.member("a")?.keyLocation.description == "2:3")
        #expect(object["a"]?.location.description == "2:8")
        #expect(object.member("bé")?.keyLocation.description == "3:3")
        let array = try #require(object["bé"]?.arrayValue)
        #expect(object["bé"]?.location.description == "3:9")  // é counts as one column
        #expect(array[0].location.description == "3:10")
        #expect(array[1].location == SourceLocation(offset: 32, line: 4, column: 5))
    }

    @Test func crlfAndLoneCRCountAsOneLineBreak() throws {
        let (value, _) = parse("[\r\n1,\r2]")
        let items = try #require(value?.arrayValue)
        #expect(items[0].location.description == "2:1")
        #expect(items[1].location.description == "3:1")
    }

    @Test func duplicateKeysWarnAndTheLastWins() throws {
        let (value, diags) = parse(#"{"a": 1, "a": 2}"#)
        #expect(value?.objectValue?["a"]?.numberValue == 2)
        #expect(diags.warnings.map(\.description) == [#"t.json:1:10: warning: a: duplicate key "a"; the last one wins"#])
    }

    @Test func strictRejectsTrailingCommasWithTheirLocation() throws {
        let (_, diags) = parse("{\"a\": [1, 2,\n], }")
        #expect(diags.errors.map(\.description) == [
            "t.json:1:12: error: a: trailing comma at the end of an array is not allowed in strict JSON",
            "t.json:2:2: error: $: trailing comma at the end of an object is not allowed in strict JSON",
        ])
    }

    @Test func lenientAcceptsTrailingCommasBOMAndLeadingWhitespaceWithWarnings() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("\n [1, 2,]".utf8)
        let result = JSONParser.parse(bytes, file: "t.json", options: .lenient)
        #expect(result.value?.arrayValue?.count == 2)
        #expect(!result.diagnostics.hasErrors)
        #expect(result.diagnostics.all.map(\.rule) == ["json.bom", "json.leading-whitespace", "json.trailing-comma"])
        #expect(result.diagnostics.all[2].location.description == "2:7")
        #expect(result.value?.location.description == "2:2")
    }

    @Test func strictRejectsABOM() {
        let result = JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8), file: "t.json")
        #expect(result.value == nil)
        #expect(result.diagnostics.errors.first?.rule == "json.bom")
    }

    @Test func strictAcceptsLeadingWhitespaceSilently() {
        let (value, diags) = parse("  \n{}")
        #expect(value != nil)
        #expect(diags.isEmpty)
    }
}
