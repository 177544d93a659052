import CabinAudio
import CabinJSON
import CabinTestSupport
import Testing


@Suite("JSON parser: never crashes or hangs")
struct JSONFuzzTests {
    /// Checks the invariants every parse must keep, whatever the input.
    func check(_ bytes: [UInt8]) {
        for options in [JSONParseOptions.strict, .lenient] {
            let result = JSONParser.parse(bytes, file: "fuzz.json", options: options)
            if result.value == nil { #expect(result.diagnostics.hasErrors) }
            for d in result.diagnostics {
                #expect(d.line >= 1 && d.column >= 1 && d.location.offset <= bytes.count)
            }
        }
    }

    @Test func randomBytesFromAJSONishAlphabet() {
        var rng = SeededRandom(seed: 0xCAB1_0001)
        let alphabet = Array("{}[],:\"\\ \n\r\t0123456789-+.eEtrufalsn/bu".utf8) + [0x00, 0xC3, 0xA9, 0xFF, 0xEF, 0xBB, 0xBF]
        for _ in 0..<3000 {
            let length = Int.random(in: 0..<64, using: &rng)
            check((0..<length).map { _ in alphabet.randomElement(using: &rng)! })
        }
    }

    @Test(.needsSharedFixtures) func mutatedFixtures() throws {
        var rng = SeededRandom(seed: 0xCAB1_0002)
        let seeds = try ["ahap/apple__unityplugins__Boing.ahap", "ahap/apple__unityplugins__Spin.ahap",
                         "haptic/Lofelt__NiceVibrations__emphasis-and-continuous.haptic"].map(SharedFixtures.bytes)
        for i in 0..<1500 {
            var bytes = seeds[i % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes.remove(at: at)
                case 2: bytes.insert(Array("{}[],:\"\\-.e0".utf8).randomElement(using: &rng)!, at: at)
                default: bytes.removeSubrange(at...)
                }
            }
            check(bytes)
        }
    }

    @Test func pathologicalShapesEndWithAnError() {
        check(Array(String(repeating: "[", count: 100_000).utf8))
        check(Array(String(repeating: "{\"a\":", count: 100_000).utf8))
        check(Array(("[" + String(repeating: "1,", count: 100_000) + "]").utf8))
        check(Array(("\"" + String(repeating: "\\u", count: 10_000)).utf8))
        check(Array(String(repeating: "9", count: 5000).utf8))
        let huge = JSONParser.parse(Array(String(repeating: "9", count: 400).utf8), file: "f.json")
        #expect(huge.diagnostics.errors.first?.rule == "json.number-range")
    }
}
