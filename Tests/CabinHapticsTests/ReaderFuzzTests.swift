import CabinAudio
import CabinHaptics
import CabinJSON
import CabinTestSupport
import Testing


@Suite("Readers and compiler never crash on damaged files")
struct ReaderFuzzTests {
    @Test(.needsSharedFixtures) func mutatedFixturesGiveAPatternOrErrorsAndCompileCleanly() throws {
        var rng = SeededRandom(seed: 0xCAB1_4A97)
        let seeds = try fixtureNames.map { ($0, try SharedFixtures.bytes($0)) }
        let tokens = ["-1", "1e3", "\"x\"", "true", "null", "{}", "[]", "0", "31", ",", "\"Time\"", "\"Event\""]
        for i in 0..<600 {
            let (name, original) = seeds[i % seeds.count]
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[at] = UInt8.random(in: 0x20...0x7E, using: &rng)
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &rng)))
                default: bytes.insert(contentsOf: Array(tokens.randomElement(using: &rng)!.utf8), at: at)
                }
            }
            for options in [HapticReadOptions.lenient, .strict] {
                let result = name.hasSuffix(".haptic")
                    ? LofeltHapticReader.read(bytes, file: name, options: options)
                    : AHAPReader.read(bytes, file: name, options: options)
                #expect((result.pattern == nil) == result.diagnostics.hasErrors)
                guard let pattern = result.pattern else { continue }
                let compiled = HapticCompiler.compile(pattern)
                let times = compiled.breakpoints.map(\.time)
                #expect(times == times.sorted())
                #expect(times.allSatisfy { $0 >= 0 && $0 <= compiled.endTime })
                #expect(compiled.breakpoints.allSatisfy { (0...1).contains($0.intensity) && (0...1).contains($0.sharpness) })
                if compiled.endTime < 5 { _ = compiled.sampled() }
            }
        }
    }
}
