import CabinJSON
import CabinTestSupport
import Testing

@Suite("JSON writing")
struct JSONWritingTests {
    @Test func prettyOutputIsDeterministicAndCompactForScalarContainers() {
        let value = JSONValue.object([
            ("Version", .number(1.0)),
            ("Pattern", .array([.object([("Time", .number(0.25)), ("Name", .string("a\"b\n\u{1}"))])])),
            ("Empty", .array([])),
            ("Count", .number(3)),
        ])
        #expect(value.serialized() == """
        {
          "Version": 1.0,
          "Pattern": [
            {"Time": 0.25, "Name": "a\\"b\\n\\u0001"}
          ],
          "Empty": [],
          "Count": 3
        }

        """)
        #expect(value.serialized(pretty: false) == #"{"Version":1.0,"Pattern":[{"Time":0.25,"Name":"a\"b\n\u0001"}],"Empty":[],"Count":3}"#)
    }

    @Test(.needsSharedFixtures, arguments: ["ahap/apple__unityplugins__Boing.ahap", "haptic/Lofelt__NiceVibrations__ShotgunFire2.haptic"])
    func writingWhatWasReadRoundTrips(name: String) throws {
        let first = try #require(JSONParser.parse(try SharedFixtures.bytes(name), file: name).value)
        let text = first.serialized()
        let second = try #require(JSONParser.parse(text, file: "rewritten").value)
        #expect(second.serialized() == text)
        #expect(second.serialized(pretty: false) == first.serialized(pretty: false))
    }
}
