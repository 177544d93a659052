import CabinAudio
import Testing

@Suite struct SeededRandomTests {
    @Test func sameSeedSameNumbers() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
    }

    @Test func unitStaysInRange() {
        var r = SeededRandom(seed: 7)
        for _ in 0..<10000 {
            let u = r.unit()
            #expect(u >= 0 && u < 1)
        }
    }
}
