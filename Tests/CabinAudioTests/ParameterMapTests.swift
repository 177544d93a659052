import Testing
import CabinAudio

/// Piecewise-linear parameter maps, as in a session document's `pitch`/`gain` maps.
@Suite struct ParameterMapTests {
    let speed = ParameterID(index: 0)

    @Test func interpolatesAndHoldsTheEnds() {
        let map = ParameterMap(parameter: speed, points: [(80, 1.4), (0, 0.7)])  // sorted on creation
        #expect(abs(map(40) - 1.05) < 1e-12)
        #expect(map(-5) == 0.7 && map(0) == 0.7)
        #expect(map(80) == 1.4 && map(200) == 1.4)
    }

    @Test func severalSegmentsAndAStep() {
        let map = ParameterMap(parameter: speed, points: [(0, 0), (10, -20), (10, -6), (20, 0)])
        #expect(map(5) == -10)
        #expect(map(10) == -20)
        #expect(abs(map(15) - -3) < 1e-12)
        #expect(map(10.000001) > -6.1)
    }

    @Test func singlePointIsConstant() {
        let map = ParameterMap(parameter: speed, points: [(3, 2)])
        #expect(map(-1) == 2 && map(3) == 2 && map(9) == 2)
    }
}
