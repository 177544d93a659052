import CabinJSON
import Testing

@Suite("The flat JSON document the readers walk")
struct JSONDocumentTests {
    static let text = """
    {"name": "caf\\u00e9", "n": -2.50e1, "list": [1, {"k": true}, [], null],
      "empty": {}, "é": "straße", "K": 1, "name": "last"}
    """

    @Test func nodesWalkInDocumentOrderWithTheirLocations() throws {
        var diags = Diagnostics(file: "d.json")
        let doc = try #require(JSONParser.parseDocument(Array(Self.text.utf8), diagnostics: &diags))
        #expect(doc.kind(doc.root) == .object)
        #expect(doc.count(doc.root) == 7)
        let keys = doc.members(doc.root).map { doc.stringValue($0)! }
        #expect(keys == ["name", "n", "list", "empty", "é", "K", "name"])
        // Last wins, as in the tree; escapes decoded.
        #expect(doc.member(doc.root, "name").flatMap(doc.stringValue) == "last")
        let n = try #require(doc.member(doc.root, "n"))
        #expect(doc.numberValue(n) == -25)
        #expect(doc.numberText(n) == "-2.50e1")
        let list = try #require(doc.member(doc.root, "list"))
        let elements = Array(doc.elements(list))
        #expect(elements.map { doc.kind($0) } == [.number, .object, .array, .null])
        #expect(doc.boolValue(try #require(doc.member(elements[1], "k"))) == true)
        #expect(doc.excerpt(list) == "[…] (4 items)")
        #expect(doc.excerpt(try #require(doc.member(doc.root, "empty"))) == "{}")
        // Line 2 starts with two spaces: "empty" is at column 3; after "é" and "straße"
        // columns count characters, not bytes ("K" is at byte 33 of its line, column 31).
        let emptyKey = try #require(doc.members(doc.root).first { doc.stringEquals($0, "empty") })
        #expect(doc.location(emptyKey).line == 2)
        #expect(doc.location(emptyKey).column == 3)
        let strasse = try #require(doc.member(doc.root, "é"))
        #expect(doc.location(strasse).column == 21)
        let kKey = try #require(doc.members(doc.root).first { doc.stringEquals($0, "K") })
        #expect(doc.location(kKey).column == 31)
        // The duplicate key was reported while parsing, as the tree parser does.
        #expect(diags.all.map(\.rule) == ["json.duplicate-key"])
    }

    @Test func theTreeIsTheDocumentsValue() throws {
        var a = Diagnostics(file: "d.json"), b = Diagnostics(file: "d.json")
        let doc = try #require(JSONParser.parseDocument(Array(Self.text.utf8), diagnostics: &a))
        let tree = try #require(JSONParser.parse(Self.text, diagnostics: &b))
        #expect(doc.value(doc.root) == tree)
        #expect(a == b)
    }

    @Test func stringsCompareAsSwiftStringsDo() throws {
        var diags = Diagnostics(file: "d.json")
        // "\u004B" is an escaped K; the Kelvin sign K is canonically equivalent to K in Swift.
        let doc = try #require(JSONParser.parseDocument(Array(#"["K", "\u004B", "\#u{212A}", "KK"]"#.utf8),
                                                         diagnostics: &diags))
        let items = Array(doc.elements(doc.root))
        #expect(items.map { doc.stringEquals($0, "K") } == [true, true, "\u{212A}" == "K", false])
        let keys = JSONKeySet(["K", "Time"])
        #expect(items.map { doc.isKnown($0, keys) } == [true, true, "\u{212A}" == "K", false])
    }

    @Test func unknownKeysAreWarnedWithASuggestion() throws {
        var diags = Diagnostics(file: "d.json")
        let doc = try #require(JSONParser.parseDocument(Array(#"{"Time": 1, "Tmie": 2}"#.utf8), diagnostics: &diags))
        let known = JSONKeySet(["Time", "EventType"])
        #expect(!doc.hasOnlyKeys(doc.root, known))
        doc.warnUnknownKeys(doc.root, known: known, at: .root, rule: "x.unknown-key", in: &diags)
        #expect(diags.all.map(\.description) == [#"d.json:1:13: warning: Tmie: unknown key "Tmie" ignored (did you mean "Time"?)"#])
    }
}
