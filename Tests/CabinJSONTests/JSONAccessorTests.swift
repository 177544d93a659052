import CabinJSON
import Testing

@Suite("JSON paths, diagnostics and typed accessors")
struct JSONAccessorTests {
    @Test func pathsPrintTheWayPeopleWriteThem() {
        #expect(JSONPath.root.key("cues").index(3).key("over").description == "cues[3].over")
        let ahap = JSONPath.root.key("Pattern").index(2).key("Event").key("EventParameters").index(0)
            .key("ParameterValue")
        #expect(ahap.description == "Pattern[2].Event.EventParameters[0].ParameterValue")
        #expect(JSONPath.root.description == "$")
        #expect(JSONPath.root.index(0).description == "[0]")
        #expect(JSONPath.root.key("buses").key("my bus").description == #"buses["my bus"]"#)
    }

    @Test func diagnosticIsOneCompilerStyleLine() {
        let d = Diagnostic(.error, file: "drive.json", location: SourceLocation(offset: 99, line: 12, column: 17),
                           path: JSONPath.root.key("cues").index(3).key("over"), value: "\"3x\"",
                           message: "\"3x\" is not a duration: use 1h2m3s, 90s, 250ms or m:s", rule: "session.duration")
        #expect(d.description == #"drive.json:12:17: error: cues[3].over: "3x" is not a duration: use 1h2m3s, 90s, 250ms or m:s"#)
        var multi = d
        multi.message = "first\nsecond"
        #expect(!multi.description.contains("\n"))
    }

    @Test func accessorsRecordEveryMismatchInsteadOfThrowing() throws {
        let text = """
        {"a": "0.5", "b": 2.5, "c": [1], "d": null, "e": true}
        """
        var diags = Diagnostics(file: "x.json")
        let root = try #require(JSONParser.parse(text, diagnostics: &diags)?.objectValue)
        let p = JSONPath.root
        #expect(root["a"]?.number(at: p.key("a"), in: &diags) == nil)
        #expect(root["b"]?.number(at: p.key("b"), in: &diags) == 2.5)
        #expect(root["b"]?.integer(at: p.key("b"), in: &diags) == nil)
        #expect(root["c"]?.string(at: p.key("c"), in: &diags) == nil)
        #expect(root["d"]?.bool(at: p.key("d"), in: &diags) == nil)
        #expect(root["e"]?.bool(at: p.key("e"), in: &diags) == true)
        #expect(root["e"]?.object(at: p.key("e"), in: &diags) == nil)
        #expect(diags.all.map(\.description) == [
            #"x.json:1:7: error: a: expected a number, found a string "0.5""#,
            "x.json:1:19: error: b: expected an integer, found 2.5",
            "x.json:1:29: error: c: expected a string, found an array […] (1 items)",
            "x.json:1:39: error: d: expected true or false, found null",
            "x.json:1:50: error: e: expected an object, found true",
        ])
        #expect(diags.errors.count == 5)
        #expect(diags.all[0].value == #""0.5""#)
    }

    @Test func missingAndUnknownKeysAreNamed() throws {
        var diags = Diagnostics(file: "k.json")
        let value = try #require(JSONParser.parse(#"{"Tim": 1, "ParameterCurves": []}"#, diagnostics: &diags))
        let object = try #require(value.objectValue)
        #expect(object.required("Time", at: .root, objectLocation: value.location, in: &diags) == nil)
        object.warnUnknownKeys(known: ["Time", "ParameterCurve"], at: .root, rule: "test.unknown-key", in: &diags)
        #expect(diags.all.map(\.description) == [
            #"k.json:1:1: error: $: missing required key "Time""#,
            #"k.json:1:2: warning: Tim: unknown key "Tim" ignored (did you mean "Time"?)"#,
            #"k.json:1:12: warning: ParameterCurves: unknown key "ParameterCurves" ignored (did you mean "ParameterCurve"?)"#,
        ])
    }

    @Test func escalatingTurnsWarningsIntoErrors() {
        var diags = Diagnostics(file: "w.json")
        diags.warning("w", at: .start, path: .root, rule: "r")
        #expect(!diags.hasErrors)
        diags.escalateWarnings()
        #expect(diags.hasErrors)
        #expect(diags.errors.count == 1)
    }
}
