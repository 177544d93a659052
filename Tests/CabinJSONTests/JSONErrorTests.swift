import CabinJSON
import Testing

@Suite("JSON parser: errors with locations")
struct JSONErrorTests {
    func firstError(_ text: String, _ options: JSONParseOptions = .strict) -> Diagnostic? {
        JSONParser.parse(text, file: "e.json", options: options).diagnostics.errors.first
    }

    @Test(arguments: [
        ("[NaN]", "e.json:1:2: error: [0]: NaN is not valid JSON: numbers must be finite"),
        ("[1, Infinity]", "e.json:1:5: error: [1]: Infinity is not valid JSON: numbers must be finite"),
        ("{\"x\":\n -Infinity}", "e.json:2:2: error: x: -Infinity is not valid JSON: numbers must be finite"),
        ("[-]", "e.json:1:2: error: [0]: '-' must be followed by a digit"),
        ("[01]", "e.json:1:2: error: [0]: leading zeros are not allowed in JSON numbers"),
        ("[1e999]", "e.json:1:2: error: [0]: number 1e999 is out of range for a 64-bit float"),
        ("[1.]", "e.json:1:2: error: [0]: expected a digit after the decimal point"),
        ("{\"a\" 1}", "e.json:1:6: error: $: expected ':' after the key \"a\", found '1'"),
        ("{\"a\": 1 \"b\": 2}", "e.json:1:9: error: $: expected ',' or '}' after the value of \"a\", found '\"'"),
        ("[1 2]", "e.json:1:4: error: $: expected ',' or ']' after an array element, found '2'"),
        ("{a: 1}", "e.json:1:2: error: $: expected a key in double quotes, found 'a'"),
        ("[\"abc", "e.json:1:2: error: [0]: unterminated string"),
        ("[\"a\nb\"]", "e.json:1:4: error: [0]: unescaped control character U+000A in a string; strings cannot span lines (unterminated string?)"),
        ("[\"\\x\"]", "e.json:1:3: error: [0]: invalid escape sequence \\'x' in a string; use \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\uXXXX"),
        ("[\"\\ud800\"]", "e.json:1:3: error: [0]: unpaired UTF-16 surrogate \\uD800 in a string"),
        ("[tru]", "e.json:1:2: error: [0]: unexpected \"tru\": expected a value (true, false, null, a number, a string, an array or an object)"),
        ("", "e.json:1:1: error: $: empty document: expected a JSON value"),
        ("  ", "e.json:1:3: error: $: empty document: expected a JSON value"),
        ("{} x", "e.json:1:4: error: $: unexpected 'x' after the end of the document"),
        ("[1,", "e.json:1:4: error: [1]: unexpected end of the document: expected a value"),
    ])
    func syntaxErrorsAreLocated(text: String, expected: String) {
        #expect(firstError(text)?.description == expected)
    }

    @Test func invalidUTF8InAStringIsAnError() {
        let result = JSONParser.parse([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D], file: "e.json")
        #expect(result.value == nil)
        #expect(result.diagnostics.errors.first?.rule == "json.encoding")
        #expect(result.diagnostics.errors.first?.location.description == "1:2")
    }

    @Test func nestingDepthIsLimited() {
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = firstError(deep)
        #expect(error?.rule == "json.depth")
        #expect(error?.message == "nesting is deeper than 512 levels")
        #expect(error?.location.column == 513)
        let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(JSONParser.parse(ok, file: "e.json").diagnostics.isEmpty)
    }

    @Test func documentSizeIsLimited() {
        let options = JSONParseOptions(mode: .strict, maxDocumentBytes: 8)
        let error = firstError("[1, 2, 3, 4]", options)
        #expect(error?.rule == "json.size")
        #expect(error?.message == "document is 12 bytes; the limit is 8 bytes")
    }

    @Test func utf16IsRejected() {
        let result = JSONParser.parse([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00], file: "e.json")
        #expect(result.diagnostics.errors.first?.rule == "json.encoding")
    }

    @Test func diagnosticExcerptsAreTheOffendingToken() {
        let result = JSONParser.parse("[1, 3x]", file: "x.json")
        #expect(result.diagnostics.errors.first?.value == "x")
        let empty = JSONParser.parse("", file: "x.json")
        #expect(empty.diagnostics.errors.first?.value == nil)
    }
}
