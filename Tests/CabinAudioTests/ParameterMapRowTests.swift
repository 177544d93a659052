import Testing
import CabinAudio

/// A moving parameter's block evaluated with the segment carried from frame to frame gives,
/// bit for bit, the map evaluated at each value on its own: ramps up and down across every
/// point, jumps, values outside the map and on its points, vertical steps, NaN.
@Suite struct ParameterMapRowTests {
    @Test func aRowIsEachValueEvaluatedOnItsOwn() {
        var random = SeededRandom(seed: 17)
        let speed = ParameterID(index: 0)
        var compared = 0
        for shape in 0..<40 {
            var points: [(Double, Double)] = []
            let count = 1 + shape % 7
            var x = random.bipolar() * 50
            for _ in 0..<count {
                points.append((x, random.bipolar() * 24))
                // Some points share an x (a vertical step).
                if random.unit() < 0.25 { points.append((x, random.bipolar() * 24)) }
                x += random.unit() < 0.2 ? 0 : random.unit() * 40
            }
            let map = ParameterMap(parameter: speed, points: points)
            let low = points.map(\.0).min()! - 10, high = points.map(\.0).max()! + 10
            var row: [Double] = []
            var value = low + random.unit() * (high - low)
            for i in 0..<2_048 {
                switch (i / 256) % 4 {
                case 0: value += (high - low) / 300  // a ramp up through every point
                case 1: value -= (high - low) / 200  // and down
                case 2: value = low + random.unit() * (high - low)  // jumps
                default: value = points[Int(random.unit() * Double(points.count)) % points.count].0  // on the points
                }
                row.append(i == 1_000 ? .nan : value)
            }
            let together = map(row: row)
            let alone = row.map { map($0) }
            let firstDifference = zip(together, alone).enumerated().first {
                $0.element.0.bitPattern != $0.element.1.bitPattern
            }?.offset
            #expect(firstDifference == nil, "map \(shape) (\(points.count) points): frame \(firstDifference ?? -1) differs")
            compared += row.count
        }
        #expect(compared == 40 * 2_048)
    }
}
